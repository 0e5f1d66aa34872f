package strictjson

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/jsonnode"
)

func TestDescribe(t *testing.T) {
	long := strings.Repeat("é", 41)
	tests := []struct{ in, noun, terse string }{
		{`"x"`, `a string ("x")`, `string "x"`},
		{`"` + long + `"`, `a string ("` + long[:80] + `…")`, `string "` + long[:80] + `…"`},
		{`-1.5e3`, `a number (-1.5e3)`, `number -1.5e3`},
		{`true`, `a boolean (true)`, `boolean true`},
		{`[1, 2, 3]`, `an array`, `array of 3`},
		{`{"a": 1}`, `an object`, `object`},
		{`null`, `null`, `null`},
	}
	for _, tt := range tests {
		n, err := jsonnode.Parse([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := Describe(&n, Noun); got != tt.noun {
			t.Errorf("Describe(%s, Noun) = %q, want %q", tt.in, got, tt.noun)
		}
		if got := Describe(&n, Terse); got != tt.terse {
			t.Errorf("Describe(%s, Terse) = %q, want %q", tt.in, got, tt.terse)
		}
	}
}

func TestKeys(t *testing.T) {
	big := make([]string, 0, 2*smallObject)
	for i := range 2 * smallObject {
		big = append(big, fmt.Sprintf("%q: %d", fmt.Sprint("k", i%(smallObject+3)), i))
	}
	tests := []struct {
		name, in string
		want     []int // the first index of each member's key, -1 for a first
	}{
		{"none", `{}`, nil},
		{"distinct", `{"a": 1, "b": 2}`, []int{-1, -1}},
		{"twice and thrice", `{"a": 1, "b": 2, "a": 3, "a": 4, "b": 5}`, []int{-1, -1, 0, 0, 1}},
		{"large", "{" + strings.Join(big, ", ") + "}", func() []int {
			var w []int
			for i := range 2 * smallObject {
				if i < smallObject+3 {
					w = append(w, -1)
				} else {
					w = append(w, i-(smallObject+3))
				}
			}
			return w
		}()},
	}
	for _, tt := range tests {
		n, err := jsonnode.Parse([]byte(tt.in))
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for i, first := range Keys(&n) {
			if i != len(got) {
				t.Fatalf("%s: member %d yielded after %d", tt.name, i, len(got))
			}
			got = append(got, first)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: firsts %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	known := []string{"title", "description", "fields", "id", "MyField"}
	for key, want := range map[string]string{
		"titel": "title", "Title": "title", "FIELDS": "fields", "descripton": "description",
		"ID": "id", "x": "", "colour": "", "": "", "myfield": "MyField", "MyFeild": "MyField",
	} {
		if got := Suggest(key, known); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestPaths(t *testing.T) {
	if got := Index(Key(Key("", "points"), "x"), 2); got != "points.x[2]" {
		t.Errorf("path = %q", got)
	}
	if got := Key(Index("", 0), "a"); got != "[0].a" {
		t.Errorf("path at an array's top = %q", got)
	}
}
