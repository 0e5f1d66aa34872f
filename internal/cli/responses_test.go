package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/internal/responselog"
	"github.com/google/go-cmp/cmp"
)

// TestCSVNeutralisesFormulas checks the export against CSV formula
// injection: a cell a spreadsheet would run as a formula (starting with =,
// +, -, @, a tab or a carriage return) gets a leading apostrophe; numbers,
// JSON values and plain text stay as they are.
func TestCSVNeutralisesFormulas(t *testing.T) {
	answers := map[string]any{
		"a": `=HYPERLINK("http://evil.example","click")`, "b": "+1", "c": "-2+3", "d": "@SUM(A1)",
		"e": "\tx", "f": "\rx", "g": -5, "h": "plain", "i": []string{"=x"}, "j": "a=b", "k": "",
	}
	raw, _ := json.Marshal(answers)
	e := responselog.Entry{ResponseID: "r1", Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), TemplateID: "dict",
		Shape: "abc", Title: "=1+1", Host: "@host", Via: "cli", Responses: raw}
	var buf bytes.Buffer
	if err := writeCSV(&buf, []responselog.Entry{e}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, row := range rows[1:] {
		if row[5] != "'=1+1" || row[6] != "'@host" {
			t.Errorf("title %q, host %q: want them neutralised", row[5], row[6])
		}
		got[row[9]] = row[10]
	}
	want := map[string]string{
		"a": `'=HYPERLINK("http://evil.example","click")`, "b": "'+1", "c": "'-2+3", "d": "'@SUM(A1)",
		"e": "'\tx", "f": "'\rx", "g": "-5", "h": "plain", "i": `["=x"]`, "j": "a=b", "k": "",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cells (-want +got):\n%s", diff)
	}
}

// TestTablesShowControlCharacters: a title or a host name holding control
// characters or line breaks (a log written before forms refused them, a
// client's name) reaches the responses list and stats tables escaped, one
// row per entry; the JSON keeps the text as it is.
func TestTablesShowControlCharacters(t *testing.T) {
	const title = "T\x1b]0;pwned\aX\x1b[2J\nsecond line"
	const shown = `T\x1b]0;pwned\x07X\x1b[2J second line`
	e := responselog.Entry{ResponseID: "r1", Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), TemplateID: "dict",
		Shape: "abc", Title: title, Host: "host\x1b[8m\u202e", Via: "cli", Responses: json.RawMessage(`{}`)}
	st := &responselog.Stats{ByHost: map[string]int{"host\x1b[8m\u202e": 1},
		ByTemplate: []responselog.TemplateCount{{TemplateID: "dict", Shape: "abc", Title: title, Submissions: 1}},
		Promote:    []responselog.Promotion{{Title: title, Uses: 3, Command: "elicit templates save x\x1b[2J"}}}
	tests := []struct {
		name  string
		print func(*bytes.Buffer) error
		rows  int
		want  []string
	}{
		{"responses list", func(b *bytes.Buffer) error {
			return (&app{stdout: b}).printEntries([]responselog.Entry{e}, outputFormat{})
		}, 2, []string{shown, `host\x1b[8m\u202e`}},
		{"stats", func(b *bytes.Buffer) error { printStats(b, st); return nil },
			8, []string{"dict abc  1  " + shown, `submissions by host: host\x1b[8m\u202e 1 (100%)`, `make it a template: elicit templates save x\x1b[2J`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tt.print(&b); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if strings.ContainsAny(out, "\x1b\a\u202e") || strings.Count(out, "\n") != tt.rows {
				t.Errorf("raw control characters or a broken row:\n%q", out)
			}
			for _, want := range tt.want {
				if !strings.Contains(out, want) {
					t.Errorf("lacks %q:\n%s", want, out)
				}
			}
		})
	}
	var b bytes.Buffer
	if err := (&app{stdout: &b}).printEntries([]responselog.Entry{e}, outputFormat{json: true}); err != nil {
		t.Fatal(err)
	}
	var back []responselog.Entry
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back[0].Title != title {
		t.Errorf("JSON: %v, title %q", err, back[0].Title)
	}
}
