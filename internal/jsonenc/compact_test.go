package jsonenc

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestCompact(t *testing.T) {
	for _, tc := range []struct {
		src string
		ok  bool
	}{
		{`{}`, true},
		{" {\n\t\"a\" : [ 1, -2.5e+3, true, false, null ],\r\n \"b\\\" c\": \"x  y\\n\" } ", true},
		{`{"é": "\u2028 <&>"}`, true},
		{"\ufeff{}", false},          // a byte order mark
		{`{"a": "x`, false},          // a string that does not end
		{"{\"a\": \"x\ty\"}", false}, // a raw control character
		{`{"a": NaN}`, false},
		{`{"a": 1} // note`, false},
	} {
		got, ok := Compact([]byte("x"), []byte(tc.src))
		if ok != tc.ok {
			t.Errorf("Compact(%q): ok = %v, want %v", tc.src, ok, tc.ok)
			continue
		}
		if !ok {
			if string(got) != "x" {
				t.Errorf("Compact(%q) failed but appended %q", tc.src, got[1:])
			}
			continue
		}
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(tc.src)); err != nil {
			t.Fatal(err)
		}
		if string(got) != "x"+want.String() {
			t.Errorf("Compact(%q) = %s, want %s", tc.src, got[1:], want.String())
		}
	}
}

// FuzzCompact: for every input encoding/json accepts, Compact writes what
// json.Compact writes.
func FuzzCompact(f *testing.F) {
	for _, s := range []string{`{}`, ` [1, "a b", {"c" : null}] `, "{\"a\":\"\\\"\"}", `"x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var want bytes.Buffer
		if !json.Valid(src) || json.Compact(&want, src) != nil {
			return
		}
		got, ok := Compact(nil, src)
		if !ok || string(got) != want.String() {
			t.Fatalf("Compact(%q) = %q, %v; want %q", src, got, ok, want.String())
		}
	})
}
