package strictjson

import (
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/jsonnode"
)

func TestReadFaults(t *testing.T) {
	tests := []struct {
		name string
		in   string
		o    Options
		kind FaultKind
		at   int
		err  string
	}{
		{"too large", `{"a": 1}`, Options{Max: 4}, TooLarge, 0, "the document is 8 bytes, over the 4-byte limit (4 bytes)"},
		{"too large before UTF-8", "{\"a\": \"\xff\"}", Options{Max: 4, What: "form"}, TooLarge, 0, "form is 10 bytes, over the 4-byte limit (4 bytes)"},
		{"not UTF-8", "{\"a\": \"\xff\"}", Options{}, NotUTF8, 7, "the document is not valid UTF-8 (first bad byte at offset 7)"},
		{"empty", "", Options{}, Empty, 0, "the document is empty; want a JSON object"},
		{"white space", " \n\t", Options{What: "evaluation"}, Empty, 3, "evaluation is empty; want a JSON object"},
		{"syntax", "{\n  \"a\" 1}", Options{}, Syntax, 8, "invalid JSON at line 2, column 7: unexpected character '1' (expected ':' after an object key)"},
		{"byte order mark kept", "\ufeff{}", Options{}, Syntax, 0, "invalid JSON at line 1, column 1"},
		{"array", `[1, 2]`, Options{}, NotObject, 0, "the document is an array, want a JSON object"},
		{"string, terse", ` "x"`, Options{Style: Terse}, NotObject, 1, `the document is string "x", want a JSON object`},
		{"null", `null`, Options{ArrayOK: true}, NotObject, 0, "the document is null, want a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, scoped := range []bool{false, true} {
				var f *Fault
				if scoped {
					f = ReadScoped([]byte(tt.in), tt.o, func(*Document) { t.Error("use called for a document with a fault") })
				} else {
					_, f = Read([]byte(tt.in), tt.o)
				}
				if f == nil {
					t.Fatalf("scoped %v: no fault", scoped)
				}
				if f.Kind != tt.kind || f.Offset != tt.at || !strings.HasPrefix(f.Error(), tt.err) {
					t.Errorf("scoped %v: fault %d at %d: %q, want %d at %d: %q", scoped, f.Kind, f.Offset, f.Error(), tt.kind, tt.at, tt.err)
				}
			}
		})
	}
}

func TestReadAccepts(t *testing.T) {
	tests := []struct {
		name string
		in   string
		o    Options
		data string // the text parsed
		top  jsonnode.Kind
	}{
		{"object", ` {"a": [1]} `, Options{}, ` {"a": [1]} `, jsonnode.Object},
		{"byte order mark skipped", "\ufeff{}", Options{SkipBOM: true}, "{}", jsonnode.Object},
		{"array where allowed", `[{}]`, Options{ArrayOK: true}, `[{}]`, jsonnode.Array},
		{"at the limit", `{}`, Options{Max: 2}, `{}`, jsonnode.Object},
		{"bad UTF-8 kept", "{\"a\": \"\xff\"}", Options{KeepBadUTF8: true}, "{\"a\": \"\xff\"}", jsonnode.Object},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, f := Read([]byte(tt.in), tt.o)
			if f != nil {
				t.Fatal(f)
			}
			if string(doc.Data) != tt.data || doc.Root.Kind != tt.top {
				t.Errorf("read %q as %s, want %q as %s", doc.Data, doc.Root.Kind, tt.data, tt.top)
			}
			used := false
			if f := ReadScoped([]byte(tt.in), tt.o, func(d *Document) { used = string(d.Data) == tt.data && d.Root.Kind == tt.top }); f != nil || !used {
				t.Errorf("ReadScoped: fault %v, used as read: %v", f, used)
			}
		})
	}
}

func TestReadShallow(t *testing.T) {
	doc, f := Read([]byte(`{"a": [1, [2]], "b": "x"}`), Options{Shallow: true})
	if f != nil {
		t.Fatal(f)
	}
	if a := doc.Root.Get("a"); a == nil || a.Kind != jsonnode.Array || a.Items != nil || string(doc.Data[a.Offset:a.End]) != "[1, [2]]" {
		t.Errorf("a nested array is kept as its text only: %+v", a)
	}
	if _, f := Read([]byte(`{"a": [1,]}`), Options{Shallow: true}); f == nil || f.Kind != Syntax {
		t.Errorf("a nested syntax error is a fault: %v", f)
	}
}

func TestFaultMessage(t *testing.T) {
	_, f := Read([]byte("{\n}}"), Options{})
	if got, want := f.Message(), "at line 2, column 2: unexpected character '}' after the end of the value"; got != want {
		t.Errorf("Message() = %q, want %q", got, want)
	}
	_, f = Read([]byte("[]"), Options{})
	if got, want := f.Message(), "the document is an array, want a JSON object"; got != want {
		t.Errorf("Message() of a fault that is not a syntax error = %q, want %q", got, want)
	}
}

func TestLimitNames(t *testing.T) {
	for n, want := range map[int]string{1 << 20: "1 MiB", 3 << 20: "3 MiB", 64 << 10: "64 KiB", 1000: "1000-byte", 1<<20 + 1: "1048577-byte"} {
		if got := limit(n); got != want {
			t.Errorf("limit(%d) = %q, want %q", n, got, want)
		}
	}
}

// FuzzRead: no input panics, and a document without a fault is an object.
func FuzzRead(f *testing.F) {
	for _, s := range []string{`{"a": 1}`, "", " ", `[1]`, "\ufeff{}", "{\"a\": \"\xff\"}", `{"a": {"b": [1, 2, {"c": null}]}}`, `{"a":`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		for _, o := range []Options{{}, {SkipBOM: true, Max: 64}, {Shallow: true}} {
			doc, fault := Read([]byte(data), o)
			switch {
			case fault != nil && fault.Error() == "":
				t.Fatal("a fault without a message")
			case fault == nil && doc.Root.Kind != jsonnode.Object:
				t.Fatalf("read a %s at the top", doc.Root.Kind)
			}
		}
	})
}
