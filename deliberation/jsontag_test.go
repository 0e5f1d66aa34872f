package deliberation

import (
	"reflect"
	"testing"
)

// TestJSONTag checks jsonTag against reflect's Get on every kind of tag,
// and on the tags of every struct type a state file decodes into.
func TestJSONTag(t *testing.T) {
	tags := []reflect.StructTag{
		``, `json:"name"`, `json:"name,omitempty"`, `json:"-"`, `json:"-,"`, `json:",omitempty"`,
		`json:"a" yaml:"b"`, `yaml:"b" json:"a"`, `json:"a\"b"`, `json:"a\\b"`, `json:"unterminated`,
		`json:`, `jsonx:"a"`, ` json:"a"`, `json:"a b"`, `json:"é"`,
	}
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Map || ty.Kind() == reflect.Array {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] {
			return
		}
		seen[ty] = true
		for i := range ty.NumField() {
			tags = append(tags, ty.Field(i).Tag)
			walk(ty.Field(i).Type)
		}
	}
	walk(reflect.TypeFor[State]())
	if len(seen) < 5 {
		t.Fatalf("found %d struct types under State; the walk is broken", len(seen))
	}
	for _, tag := range tags {
		if got, want := jsonTag(tag), tag.Get("json"); got != want {
			t.Errorf("jsonTag(%q) = %q, want %q", tag, got, want)
		}
	}
}
