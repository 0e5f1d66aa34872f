package strictjson

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/elicit/elicit/problem"
)

type point struct {
	Text     string   `json:"text"`
	Weight   float64  `json:"weight,omitempty"`
	Count    int8     `json:"count"`
	Tags     []string `json:"tags"`
	Verified *bool    `json:"verified"`
	Skipped  string   `json:"-"`
	Plain    string
	hidden   string //lint:ignore U1000 an unexported field is no key
}

type doc struct {
	Points []point          `json:"points"`
	Notes  map[string]int   `json:"notes"`
	Extra  any              `json:"extra"`
	Raw    json.RawMessage  `json:"raw"`
	ByID   map[string]point `json:"by_id"`
}

func decodeDoc(t *testing.T, in string, nullOK bool) (doc, problem.List) {
	t.Helper()
	d, f := Read([]byte(in), Options{})
	if f != nil {
		t.Fatal(f)
	}
	dec := Decoder{Data: d.Data, NullOK: nullOK}
	var v doc
	dec.Decode("", &d.Root, &v)
	return v, dec.Problems
}

func TestDecode(t *testing.T) {
	v, probs := decodeDoc(t, `{"points": [{"text": "a", "weight": 1.5, "count": 3, "tags": ["x"], "verified": true, "Plain": "p"}],
		"notes": {"n": 1}, "extra": {"k": [1, "s", null]}, "raw": {"keep": [1, 2]}, "by_id": {"P1": {"text": "b", "verified": null}}}`, false)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	yes := true
	want := doc{
		Points: []point{{Text: "a", Weight: 1.5, Count: 3, Tags: []string{"x"}, Verified: &yes, Plain: "p"}},
		Notes:  map[string]int{"n": 1},
		Extra:  map[string]any{"k": []any{1.0, "s", nil}},
		Raw:    json.RawMessage(`{"keep": [1, 2]}`),
		ByID:   map[string]point{"P1": {Text: "b"}},
	}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("decoded\n%+v\nwant\n%+v", v, want)
	}
}

func TestDecodeProblems(t *testing.T) {
	tests := []struct {
		name, in string
		nullOK   bool
		want     []string
	}{
		{"wrong types", `{"points": [{"text": 5, "weight": "heavy", "count": true, "tags": "x", "verified": "yes"}], "notes": []}`, false, []string{
			"points[0].text: is a number (5), want a string",
			`points[0].weight: is a string ("heavy"), want a number`,
			"points[0].count: is a boolean (true), want a whole number",
			`points[0].tags: is a string ("x"), want an array of strings`,
			`points[0].verified: is a string ("yes"), want a boolean (true or false)`,
			"notes: is an array, want an object",
		}},
		{"numbers", `{"points": [{"count": 1.5}, {"count": 300}, {"weight": 1e400}]}`, false, []string{
			"points[0].count: is a number (1.5), want a whole number",
			"points[1].count: is a number (300), want a whole number",
			"points[2].weight: is a number (1e400), out of range",
		}},
		{"null refused", `{"points": [{"text": null}], "notes": {"n": null}}`, false, []string{
			"points[0].text: is null, want a string",
			"notes.n: is null, want a whole number",
		}},
		{"null accepted", `{"points": [{"text": null}], "notes": {"n": null}}`, true, nil},
		{"unknown keys", `{"points": [{"txt": "a"}, {"text": "b", "txt": "c"}, {"Wieghtt": 1}], "colour": 1, "Skipped": "", "hidden": ""}`, false, []string{
			`points[0].txt: unknown key; did you mean "text"?`,
			// text is given: it is not what txt meant.
			"points[1].txt: unknown key; want one of: text, weight, count, tags, verified, Plain",
			// Case aside, three edits: within a third of its length plus two.
			`points[2].Wieghtt: unknown key; did you mean "weight"?`,
			"colour: unknown key; want one of: points, notes, extra, raw, by_id",
			"Skipped: unknown key; want one of: points, notes, extra, raw, by_id",
			"hidden: unknown key; want one of: points, notes, extra, raw, by_id",
		}},
		{"duplicates", `{"points": [{"text": "a", "text": 5}], "notes": {"n": 1, "n": "x"}, "points": 1}`, false, []string{
			"points[0].text: duplicate key (each key may appear once)",
			"notes.n: duplicate key (each key may appear once)",
			"points: duplicate key (each key may appear once)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, probs := decodeDoc(t, tt.in, tt.nullOK)
			got := probs.Strings()
			if len(got) != len(tt.want) {
				t.Fatalf("problems\n%q\nwant\n%q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("problem %d = %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestCovers(t *testing.T) {
	dec := Decoder{}
	d, _ := Read([]byte(`{"points": [{"txt": "a"}], "notes": []}`), Options{})
	var v doc
	dec.Decode("", &d.Root, &v)
	for path, want := range map[string]bool{
		"notes": true, "notes.n": true, "notes[0]": true, // a problem there
		"points[0].txt": true, "points[0].text": true, "points[0].text[1]": true, // the key txt was taken to mean
		"points[0].tags": false, "points": false, "notesx": false,
	} {
		if got := dec.Covers(path); got != want {
			t.Errorf("Covers(%q) = %v, want %v", path, got, want)
		}
	}
}
