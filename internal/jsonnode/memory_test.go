package jsonnode

import (
	"encoding/json"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// TestParseMemoryLinear: a tree costs one Node or Member per value, plus
// the input's text, whatever its shape. A growing stack of pending children
// used to double and then be copied (three times the tree), and commas
// inside strings used to size the tree as if each began a value.
func TestParseMemoryLinear(t *testing.T) {
	const size = 1 << 20
	fill := func(open, item, close string) string {
		n := (size - len(open) - len(close)) / (len(item) + 1)
		return open + strings.TrimSuffix(strings.Repeat(item+",", n), ",") + close
	}
	node, member := int(unsafe.Sizeof(Node{})), int(unsafe.Sizeof(Member{}))
	tests := []struct {
		name   string
		doc    string
		values int // array items and object members
		each   int
	}{
		{"flat array", fill("[", "0", "]"), size / 2, node},
		{"nested arrays", fill("[", "[0]", "]"), 2 * size / 4, node},
		{"object", fill("{", `"k":0`, "}"), size / 6, member},
		{"commas in a string", `["` + strings.Repeat(",", size) + `"]`, 1, node},
		{"colons in a string", `{"k":"` + strings.Repeat(":", size) + `"}`, 1, member},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.doc)
			limit := uint64(tt.values*tt.each + 2*len(data) + 64<<10)
			for _, parse := range []struct {
				name string
				fn   func() error
			}{
				{"Parse", func() error { _, err := Parse(data); return err }},
				{"ParseScoped", func() error { return ParseScoped(data, func(*Node) {}) }},
			} {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				err := parse.fn()
				runtime.ReadMemStats(&after)
				if err != nil {
					t.Fatal(err)
				}
				if got := after.TotalAlloc - before.TotalAlloc; got > limit {
					t.Errorf("%s allocated %d bytes, want at most %d", parse.name, got, limit)
				}
			}
		})
	}
}

// TestArenaOverlap: when every value is pending at once, a closing
// container's children move within one arena onto themselves, and the tree
// still comes out whole.
func TestArenaOverlap(t *testing.T) {
	for _, doc := range []string{`[[1,2],[3,[4,5,[6]]],{"a":[7,{"b":8}]}]`, `[[[[[[1]]]]]]`, `{"a":{"b":{"c":[1,2,3]}}}`} {
		n, err := Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseTop([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		var want any
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatal(err)
		}
		if got := n.Value(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %v, want %v", doc, got, want)
		}
		if m.Kind != n.Kind || len(m.Items)+len(m.Members) != len(n.Items)+len(n.Members) {
			t.Errorf("%s: ParseTop's top level differs", doc)
		}
	}
}
