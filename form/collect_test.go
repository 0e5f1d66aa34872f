package form

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

// fixedCollectOptions makes response ids deterministic.

func fixedCollectOptions() *CollectOptions {
	return &CollectOptions{
		TemplateID: "tpl",
		Now:        func() time.Time { return time.Date(2026, 11, 30, 7, 8, 9, 0, time.UTC) },
		Random:     bytes.NewReader([]byte{0xde, 0xad, 0xbe, 0xef}),
	}
}

func TestCollectSuccess(t *testing.T) {
	f := mustParse(t, testForms(t)["six"])
	answers := map[string]any{
		"platforms": []any{"linux", "windows"},
		"budget":    float64(12),
		"ship_date": "2026-12-01",
		"notes":     "   ",
	}
	r, err := Collect(f, answers, fixedCollectOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := &Response{Success: true, ResponseID: "resp-20261130-070809-deadbeef", TemplateID: "tpl", Responses: map[string]any{
		"track":     "stable", // inferred default injected
		"platforms": []string{"linux", "windows"},
		"notify":    "Yes", // optional default injected
		"budget":    float64(12),
		"ship_date": "2026-12-01",
		// notes: white space only is no answer, optional, no default: left out
	}}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("response (-want +got):\n%s", diff)
	}
}

func TestCollectProblems(t *testing.T) {
	f := mustParse(t, testForms(t)["six"])
	tests := []struct {
		name    string
		answers map[string]any
		want    []string
	}{
		{"everything wrong", map[string]any{
			"trak":      "stable",
			"zzz":       1,
			"track":     "alpha",
			"platforms": []any{"linux", "linux", "beos"},
			"notify":    "yes",
			"budget":    "12",
			"ship_date": "2026-1-5",
			"notes":     string(bytes.Repeat([]byte("é"), 501)),
		}, []string{
			"answers.trak: no field has this id (did you mean 'track'?)",
			`answers.zzz: no field has this id (fields: "track", "platforms", "notify", "budget", "ship_date", "notes")`,
			`answers.track: "alpha" is not one of the options ("stable", "beta", "nightly")`,
			`answers.platforms: "beos" not among the options ("linux", "macos", "windows", "freebsd"); "linux" chosen more than once`,
			`answers.notify: must be "Yes" or "No" (got string "yes")`,
			`answers.budget: must be a number (got string "12")`,
			`answers.ship_date: "2026-1-5" is not a date in the form YYYY-MM-DD (zero-padded, e.g. 2026-01-05)`,
			"answers.notes: is 501 characters, over max_length 500",
		}},
		{"missing required", map[string]any{"platforms": []any{}, "budget": nil}, []string{
			`answers.platforms: required, but not answered (a list of one or more of "linux", "macos", "windows", "freebsd")`,
			"answers.budget: required, but not answered (a number)",
			"answers.ship_date: required, but not answered (a date YYYY-MM-DD)",
		}},
		{"bounds and calendar", map[string]any{"platforms": "linux", "budget": 41.0, "ship_date": "2026-02-30"}, []string{
			`answers.platforms: must be a list of options (got string "linux")`,
			"answers.budget: 41 is above the maximum 40",
			`answers.ship_date: "2026-02-30" is not a real calendar date`,
		}},
		{"not finite", map[string]any{"platforms": []any{"linux"}, "budget": math.Inf(1), "ship_date": "2026-12-01"}, []string{
			"answers.budget: +Inf is not a finite number",
		}},
		{"below minimum", map[string]any{"platforms": []any{"linux"}, "budget": 0.5, "ship_date": "2026-12-01"}, []string{
			"answers.budget: 0.5 is below the minimum 1",
		}},
		// Numbers are written as people write them, not 2.0260101e+07, and
		// as JavaScript writes them where an exponent is needed (the widget's
		// messages agree).
		{"tiny number", map[string]any{"platforms": []any{"linux"}, "budget": 1e-7, "ship_date": "2026-12-01"}, []string{
			"answers.budget: 1e-7 is below the minimum 1",
		}},
		{"numbers as written", map[string]any{"platforms": []any{"linux"}, "budget": 2000000.0, "ship_date": 20260101.0}, []string{
			"answers.budget: 2000000 is above the maximum 40",
			"answers.ship_date: must be a date string YYYY-MM-DD (got number 20260101)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Collect(f, tt.answers, nil)
			probs, _ := err.(problem.List)
			if diff := cmp.Diff(tt.want, probs.Strings()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCollectDisplayOnlyProgress(t *testing.T) {
	f := mustParse(t, testForms(t)["status-only"])
	if r, err := Collect(f, map[string]any{}, nil); err != nil || len(r.Responses) != 0 {
		t.Fatalf("Collect = %+v, %v; want an empty success", r, err)
	}
	_, err := Collect(f, map[string]any{"status": "T1 model"}, nil)
	if err == nil || err.Error() != "answers.status: this progress report is display-only and takes no answer" {
		t.Errorf("err = %v", err)
	}
}

func TestCollectTextCountsCharacters(t *testing.T) {
	f := mustParse(t, []byte(field(`{"id": "c", "text": "C?", "type": "text_input", "max_length": 3}`)))
	if _, err := Collect(f, map[string]any{"c": "日本語"}, nil); err != nil {
		t.Errorf("3 characters (9 bytes) must fit max_length 3: %v", err)
	}
	if _, err := Collect(f, map[string]any{"c": "😀😀😀😀"}, nil); err == nil {
		t.Error("4 characters must not fit max_length 3")
	}
}

// TestCollectUTF8LikeJSON: answers given in Go are held to what the JSON
// path holds them to: text that is not UTF-8 is refused (a JSON document
// with it is refused whole; written out it would change to U+FFFD), and
// control characters are kept as data, as in "a\u0000b" from JSON.
func TestCollectUTF8LikeJSON(t *testing.T) {
	f, err := Parse([]byte(`{"title": "T", "fields": [{"id": "txt", "text": "Q", "type": "text_input"},
		{"id": "tags", "text": "Tags", "type": "multi_select", "options": ["a", "b"], "required": false}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Collect(f, map[string]any{"txt": "ab\xffcd", "tags": []string{"a\xfe"}, "x\xff": "1"}, nil)
	want := []string{
		"answers.tags: the text is not valid UTF-8 (first bad byte at offset 1); give UTF-8 text",
		"answers.txt: the text is not valid UTF-8 (first bad byte at offset 2); give UTF-8 text",
		`answers["x\xff"]: the key is not valid UTF-8 (first bad byte at offset 1); give UTF-8 text`,
	}
	probs, _ := err.(problem.List)
	if got := probs.Strings(); !slices.Equal(got, want) {
		t.Errorf("Collect = %q, want %q", got, want)
	}
	for _, data := range []string{`{"txt": "a\u0000b"}`} {
		var answers map[string]any
		if err := json.Unmarshal([]byte(data), &answers); err != nil {
			t.Fatal(err)
		}
		if _, err := Collect(f, answers, nil); err != nil {
			t.Errorf("%s: %v", data, err)
		}
	}
}
