package jsonenc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// std is what encoding/json writes for v with HTML escaping off.
func std(t testing.TB, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}))
}

func TestStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{
		"", "plain", `quote " and \ backslash`, "tab\tnew\nline\rcr", "\b\f\x00\x01\x1f\x7f",
		"<b>&amp;</b>", "line\u2028para\u2029end", "bad \xff\xfe utf-8", "\xe2\x80", "é ü 日本 🎉",
		"\x1b[8mhidden\x1b[0m", "trailing \\",
	} {
		if got, want := string(String(nil, s)), std(t, s); got != want {
			t.Errorf("String(%q) = %s, encoding/json writes %s", s, got, want)
		}
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "a\"b", "\u2028", "\xff", "<&>", "\x00\x1f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(String(nil, s)), std(t, s); got != want {
			t.Errorf("String(%q) = %s, encoding/json writes %s", s, got, want)
		}
	})
}

func TestStrings(t *testing.T) {
	for _, l := range [][]string{nil, {}, {"a"}, {"a", "b\n", "<c>"}} {
		if got, want := string(Strings(nil, l)), std(t, l); got != want {
			t.Errorf("Strings(%#v) = %s, encoding/json writes %s", l, got, want)
		}
	}
}

func TestAnyKeepsHTMLCharacters(t *testing.T) {
	for _, v := range []any{"a<b>&c", []string{"<x>"}, 3.5, map[string]string{"k&": "<v>"}, nil, true} {
		got, err := Any([]byte("x:"), v)
		if err != nil {
			t.Fatal(err)
		}
		if want := "x:" + std(t, v); string(got) != want {
			t.Errorf("Any(%#v) = %s, want %s", v, got, want)
		}
	}
	if _, err := Any(nil, func() {}); err == nil {
		t.Error("Any(func) gave no error")
	}
}

func TestObject(t *testing.T) {
	b := append(Field([]byte{'{'}, "a", "x", true), ',')
	b = Bool(Key(b[:len(b)-1], "b", false), true)
	b = append(b, '}')
	if got, want := string(b), `{"a":"x","b":true}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestIndentMatchesJSONIndent(t *testing.T) {
	for _, src := range []string{`{}`, `[]`, `{"a":[]}`, `{"a":{},"b":[1,2,{"c":null}],"d":"x:,{}[]\"\\"}`, `"s"`, `[[],[[]],{}]`, `true`} {
		checkIndent(t, src)
	}
}

// FuzzIndent holds Indent to json.Indent on any valid JSON, compacted.
func FuzzIndent(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"c,:{"}]}`, `[]`, `{"x":"\"\\"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(s)); err != nil {
			return
		}
		checkIndent(t, compact.String())
	})
}

func checkIndent(t *testing.T, src string) {
	t.Helper()
	var want bytes.Buffer
	if err := json.Indent(&want, []byte(src), "", "  "); err != nil {
		t.Fatal(err)
	}
	if got := string(Indent(nil, []byte(src), "  ")); got != want.String() {
		t.Errorf("Indent(%s) =\n%s\njson.Indent writes\n%s", src, got, want.String())
	}
}
