package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
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
		if row[4] != "'=1+1" || row[5] != "'@host" {
			t.Errorf("title %q, host %q: want them neutralised", row[4], row[5])
		}
		got[row[8]] = row[9]
	}
	want := map[string]string{
		"a": `'=HYPERLINK("http://evil.example","click")`, "b": "'+1", "c": "'-2+3", "d": "'@SUM(A1)",
		"e": "'\tx", "f": "'\rx", "g": "-5", "h": "plain", "i": `["=x"]`, "j": "a=b", "k": "",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cells (-want +got):\n%s", diff)
	}
}
