package jsonnode

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", "line 1, column 1: unexpected end of input"},
		{"trailing comma", "{\"a\": 1,\n}", "line 2, column 1: unexpected character '}' (expected a string key)"},
		{"missing colon", `{"a" 1}`, "line 1, column 6: unexpected character '1' (expected ':' after an object key)"},
		{"unterminated", `["abc`, "unterminated string"},
		{"bad escape", `"\x"`, `invalid escape '\x'`},
		{"control char", "\"a\nb\"", "control character"},
		{"leading zero", `01`, "unexpected character '1' after the end of the value"},
		{"bare word", `{"a": yes}`, `line 1, column 7: unexpected word "yes" (expected a value: an object, a list, a string, a number, true, false or null)`},
		{"not json", "not json\n", `line 1, column 1: unexpected word "not" (expected a value: an object, a list, a string, a number, true, false or null)`},
		{"bad literal", `[nul]`, `unexpected word "nul" (expected a value`},
		{"bare symbol", `{"a": *}`, "unexpected character '*' (expected a value)"},
		{"two values", `{} {}`, "after the end of the value"},
		{"column counts characters", "{\"é\": x}", "line 1, column 7"},
		{"too deep", strings.Repeat("[", MaxDepth+1), "nesting deeper than 64 levels"},
		{"bad exponent", `1e`, "expected a digit in the exponent"},
		{"bad fraction", `1.`, "expected a digit after '.'"},
		{"bad unicode", `"\u12G4"`, `invalid \u escape`},
		{"truncated true", `tru`, `"tru" is cut short (expected true)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse(%q) error = %v, want it to contain %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestParseKeepsOrderDuplicatesAndOffsets(t *testing.T) {
	in := `{"b": 1, "a": [true, null, "x\u00e9\ud83d\ude00"], "b": -2.5e3}`
	n, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range n.Members {
		keys = append(keys, m.Key)
	}
	if got := strings.Join(keys, ","); got != "b,a,b" {
		t.Errorf("keys = %s, want b,a,b", got)
	}
	if got := n.Members[1].Value.Items[2].Text; got != "xé😀" {
		t.Errorf("string = %q", got)
	}
	if got := n.Members[2].Value; got.Kind != Number || got.Text != "-2.5e3" || int(got.Offset) != strings.Index(in, "-2.5") {
		t.Errorf("number node = %+v", got)
	}
	if arr := n.Members[1].Value; in[arr.Offset:arr.End] != `[true, null, "x\u00e9\ud83d\ude00"]` {
		t.Errorf("array text = %q", in[arr.Offset:arr.End])
	}
	if got := n.Get("b").Text; got != "1" {
		t.Errorf("Get(b) = %q, want the first member", got)
	}
}

func TestParseScopedRecyclesTrees(t *testing.T) {
	docs := []string{`{"a": [1, 2, {"b": "x"}], "c": {"d": null}}`, `[[1], [2, 3], {"e": [true]}]`, `{"big": [` + strings.Repeat(`{"k": 1},`, 5000) + `{}]}`}
	for range 3 {
		for _, doc := range docs {
			full, err := Parse([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			if err := ParseScoped([]byte(doc), func(n *Node) {
				if !reflect.DeepEqual(n.Value(), full.Value()) {
					t.Errorf("ParseScoped(%.40q) = %v, want %v", doc, n.Value(), full.Value())
				}
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestParseTopKeepsOnlyTheTopLevel(t *testing.T) {
	in := `{"form": {"fields": [{"id": "a"}]}, "k": "v", "k": [1, [2]]}`
	full, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	top, err := ParseTop([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	checkTop(t, &full, &top)
	if form := top.Members[0].Value; form.Members != nil || in[form.Offset:form.End] != `{"fields": [{"id": "a"}]}` {
		t.Errorf("nested object = %+v (%q), want no members and its text", form, in[form.Offset:form.End])
	}
	if _, err := ParseTop([]byte(`{"a": [1, {"b": }]}`)); err == nil || !strings.Contains(err.Error(), "column 17") {
		t.Errorf("ParseTop of nested bad JSON: %v, want the error at column 17", err)
	}
}

// checkTop compares ParseTop's result with Parse's: the same top level, and
// nested containers without children.
func checkTop(t *testing.T, full, top *Node) {
	t.Helper()
	same := func(a, b *Node) bool {
		return a.Kind == b.Kind && a.Offset == b.Offset && a.End == b.End && a.Text == b.Text && a.True == b.True
	}
	if !same(full, top) || len(full.Items) != len(top.Items) || len(full.Members) != len(top.Members) {
		t.Fatalf("ParseTop = %+v, Parse = %+v", top, full)
	}
	children := func(n *Node) []*Node {
		var out []*Node
		for i := range n.Items {
			out = append(out, &n.Items[i])
		}
		for i := range n.Members {
			out = append(out, &n.Members[i].Value)
		}
		return out
	}
	fc, tc := children(full), children(top)
	for i := range fc {
		if !same(fc[i], tc[i]) || tc[i].Items != nil || tc[i].Members != nil {
			t.Fatalf("child %d: ParseTop = %+v, Parse = %+v", i, tc[i], fc[i])
		}
	}
	for i := range full.Members {
		if full.Members[i].Key != top.Members[i].Key {
			t.Fatalf("key %d: ParseTop %q, Parse %q", i, top.Members[i].Key, full.Members[i].Key)
		}
	}
}

// FuzzParse checks Parse against encoding/json: the same inputs are valid and
// they decode to the same values.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\ud800"`, `[1e400]`, `{"a":1,"a":2}`, `-0.0E+1`, `"\u00e9\/"`, "{\"x\":\"\t\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) || strings.Count(string(data), "[")+strings.Count(string(data), "{") > MaxDepth {
			t.Skip()
		}
		n, err := Parse(data)
		if valid := json.Valid(data); valid != (err == nil) {
			t.Fatalf("Parse error = %v, json.Valid = %v for %q", err, valid, data)
		}
		top, topErr := ParseTop(data)
		if fmt.Sprint(topErr) != fmt.Sprint(err) {
			t.Fatalf("ParseTop error = %v, Parse error = %v for %q", topErr, err, data)
		}
		if scopedErr := ParseScoped(data, func(*Node) {}); fmt.Sprint(scopedErr) != fmt.Sprint(err) {
			t.Fatalf("ParseScoped error = %v, Parse error = %v for %q", scopedErr, err, data)
		}
		if err != nil {
			return
		}
		checkTop(t, &n, &top)
		parsed := n.Value()
		used := false
		scopedErr := ParseScoped(data, func(m *Node) {
			used = true
			if got := m.Value(); !reflect.DeepEqual(got, parsed) {
				t.Fatalf("ParseScoped Value() = %#v, Parse = %#v", got, parsed)
			}
		})
		if scopedErr != nil || !used {
			t.Fatalf("ParseScoped: %v (use called: %v)", scopedErr, used)
		}
		var want any
		if json.Unmarshal(data, &want) != nil {
			return // numbers out of float64 range
		}
		if got := n.Value(); !reflect.DeepEqual(got, want) {
			t.Fatalf("Value() = %#v, encoding/json = %#v for %q", got, want, data)
		}
	})
}

func TestFirstInvalidUTF8(t *testing.T) {
	for in, want := range map[string]int{"": 0, "abc": 3, "é\xffx": 2, "\xc3": 0, "ok\xed\xa0\x80": 2} {
		if got := FirstInvalidUTF8([]byte(in)); got != want {
			t.Errorf("FirstInvalidUTF8(%q) = %d, want %d", in, got, want)
		}
	}
}
