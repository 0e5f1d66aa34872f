package form

import (
	"encoding/json"
	"os"
	"testing"
)

// benchForm reads the 6-field benchmark form (single, multi, boolean,
// number, date, textarea; about 600 bytes).
func benchForm(b *testing.B) []byte {
	data, err := os.ReadFile("testdata/bench/six-fields.json")
	if err != nil {
		b.Fatal(err)
	}
	return data
}

var benchAnswers = map[string]any{
	"track": "beta", "platforms": []any{"linux", "macos"}, "notify": "Yes",
	"budget": 12.0, "ship_date": "2026-12-01", "notes": "Ship it.",
}

// BenchmarkParse is decoding from bytes plus full validation.

func BenchmarkParse(b *testing.B) {
	data := benchForm(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStdlibDecode is encoding/json alone decoding the same document

// into structs, for comparison (it validates nothing).

func BenchmarkStdlibDecode(b *testing.B) {
	data := benchForm(b)
	for b.Loop() {
		var f Form
		if err := json.Unmarshal(data, &f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCollect is collect of already-decoded answers.

func BenchmarkCollect(b *testing.B) {
	f, err := Parse(benchForm(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Collect(f, benchAnswers, nil); err != nil {
			b.Fatal(err)
		}
	}
}
