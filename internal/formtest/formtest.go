// Package formtest gives the tests of the form packages (form and its
// surfaces) the shared test forms in form/testdata/forms. It is for tests
// only.
package formtest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
)

// Dir is form/testdata, found from this file so that tests in any package
// can read it.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "form", "testdata")
}

// Forms returns every valid test form by file name (without .json).
func Forms(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(Dir(), "forms", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no test forms: %v", err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ".json")] = data
	}
	return out
}

// MustParse parses a form the test relies on being valid.
func MustParse(t testing.TB, data []byte) *form.Form {
	t.Helper()
	f, err := form.Parse(data)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return f
}

// Bench reads the 6-field benchmark form.
func Bench(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(Dir(), "bench", "six-fields.json"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Fill joins item(0), item(1), ... with commas between open and close, as
// many as keep the whole within size bytes: a large form or answers
// document of one repeated shape.
func Fill(open, close string, size int, item func(i int) string) []byte {
	var b strings.Builder
	b.WriteString(open)
	for i := 0; ; i++ {
		s := item(i)
		if i > 0 {
			s = "," + s
		}
		if b.Len()+len(s)+len(close) > size {
			break
		}
		b.WriteString(s)
	}
	b.WriteString(close)
	return []byte(b.String())
}

// SessionContract casts the embedded session-contract template for project
// "demo".
func SessionContract(t testing.TB) *form.Form {
	t.Helper()
	f, err := (&form.Templates{}).Cast("session-contract", map[string]string{"project": "demo"})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// All returns every test form parsed, and the session-contract template
// as "session-contract".
func All(t testing.TB) map[string]*form.Form {
	t.Helper()
	out := map[string]*form.Form{"session-contract": SessionContract(t)}
	for name, data := range Forms(t) {
		out[name] = MustParse(t, data)
	}
	return out
}
