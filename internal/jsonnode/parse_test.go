package jsonnode

import (
	"encoding/json"
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
		{"bare word", `{"a": yes}`, "line 1, column 7: unexpected character 'y' (expected a value)"},
		{"two values", `{} {}`, "after the end of the value"},
		{"column counts characters", "{\"é\": x}", "line 1, column 7"},
		{"too deep", strings.Repeat("[", MaxDepth+1), "nesting deeper than 64 levels"},
		{"bad exponent", `1e`, "expected a digit in the exponent"},
		{"bad fraction", `1.`, "expected a digit after '.'"},
		{"bad unicode", `"\u12G4"`, `invalid \u escape`},
		{"truncated true", `tru`, "invalid literal (expected true)"},
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
		if err != nil {
			return
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
