package form

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const typedForm = `{"title": "T", "fields": [
	{"id": "goal", "text": "Goal?", "type": "single_select", "options": ["Fix a bug", "Add a feature", "eu-central", "C++"]},
	{"id": "pick", "text": "Pick?", "type": "decision", "options": ["Alpha", "Beta"], "recommended": "Beta"},
	{"id": "focus", "text": "Focus?", "type": "multi_select", "options": ["correctness", "security", "salt, pepper", "tests"]},
	{"id": "ok", "text": "OK?", "type": "boolean"},
	{"id": "n", "text": "N?", "type": "number"},
	{"id": "d", "text": "D?", "type": "date"},
	{"id": "scope", "text": "Scope?", "type": "text_input", "options": ["src/", "tests/"]},
	{"id": "free", "text": "Free?", "type": "text_input"},
	{"id": "notes", "text": "Notes?", "type": "textarea"}]}`

func TestTyped(t *testing.T) {
	f, err := Parse([]byte(typedForm))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id, in string
		want   any
		msg    string
	}{
		{"goal", "2", "Add a feature", ""},
		{"goal", " (2) ", "Add a feature", ""},
		{"goal", "#4", "C++", ""},
		{"goal", "fix A  Bug", "Fix a bug", ""},
		{"goal", "FixABug.", "Fix a bug", ""},
		{"goal", "eu central", "eu-central", ""},
		{"goal", "2. Add a feature", "Add a feature", ""},
		{"goal", "3 - eu-central", "eu-central", ""},
		{"goal", "c++", "C++", ""},
		{"goal", "", nil, ""},
		{"goal", "none", nil, ""},
		{"goal", "7", nil, `"7" is not one of the option numbers (1-4)`},
		{"goal", "Write docs", nil, `"Write docs" is not one of the options (1 "Fix a bug", 2 "Add a feature", 3 "eu-central", 4 "C++")`},
		{"pick", "1", "Beta", ""}, // recommended first, as shown
		{"pick", "beta (recommended)", "Beta", ""},
		{"focus", "1, 4", []string{"correctness", "tests"}, ""},
		{"focus", "4 1", []string{"correctness", "tests"}, ""},
		{"focus", "Security;TESTS", []string{"security", "tests"}, ""},
		{"focus", "salt, pepper, tests", []string{"salt, pepper", "tests"}, ""},
		{"focus", "salt,pepper", []string{"salt, pepper"}, ""},
		{"focus", "1, 1", []string{"correctness"}, ""},
		{"focus", "all", []string{"correctness", "security", "salt, pepper", "tests"}, ""},
		{"focus", "none", nil, ""},
		{"focus", "1, nine", nil, `"nine" is not one of the options (options: 1 "correctness", 2 "security", 3 "salt, pepper", 4 "tests")`},
		{"focus", "1 9", nil, `"9" is not one of the option numbers (1-4) (options: 1 "correctness", 2 "security", 3 "salt, pepper", 4 "tests")`},
		{"ok", "YES", "Yes", ""},
		{"ok", " n ", "No", ""},
		{"ok", "maybe", nil, `"maybe" is not yes or no (answer yes or no)`},
		{"n", "1,000.5", 1000.5, ""},
		{"n", " 12 ", 12.0, ""},
		{"n", "-3e2", -300.0, ""},
		{"n", "1 000", 1000.0, ""},
		{"n", "1,5", nil, `"1,5" is not a number (write digits, e.g. 12 or 2.5)`},
		{"n", "NaN", nil, `"NaN" is not a number (write digits, e.g. 12 or 2.5)`},
		{"n", "inf", nil, `"inf" is not a number (write digits, e.g. 12 or 2.5)`},
		{"n", "1e999", nil, `"1e999" is not a number (write digits, e.g. 12 or 2.5)`},
		{"n", "five", nil, `"five" is not a number (write digits, e.g. 12 or 2.5)`},
		{"d", "2026-01-05", "2026-01-05", ""},
		{"d", "2026-1-5", "2026-01-05", ""},
		{"d", "2026/01/05", "2026-01-05", ""},
		{"d", "5 jan 2026", "2026-01-05", ""},
		{"d", "January 5, 2026", "2026-01-05", ""},
		{"d", "2026-02-30", nil, `"2026-02-30" is not a real calendar date`},
		{"d", "next week", nil, `"next week" is not a date (write YYYY-MM-DD, e.g. 2026-01-05)`},
		{"d", "03/09/2026", nil, `"03/09/2026" is not in the YYYY-MM-DD format: write 2026-03-09 or 2026-09-03`},
		{"d", "3.9.2026", nil, `"3.9.2026" is not in the YYYY-MM-DD format: write 2026-03-09 or 2026-09-03`},
		{"d", "13/09/2026", nil, `"13/09/2026" is not in the YYYY-MM-DD format: write 2026-09-13`},
		{"d", "09/09/2026", nil, `"09/09/2026" is not in the YYYY-MM-DD format: write 2026-09-09`},
		{"d", "31/31/2026", nil, `"31/31/2026" is not a date (write YYYY-MM-DD, e.g. 2026-01-05)`},
		{"scope", "2", "tests/", ""},
		{"scope", "lib/", "lib/", ""},
		{"scope", "3", nil, `"3" is not one of the suggestion numbers (1-2); write the text itself`},
		{"free", "3", "3", ""},
		{"free", "  my words ", "my words", ""},
		{"free", "-", nil, ""},
		{"notes", "\nline one\n  line two\n", "line one\n  line two", ""},
	}
	for _, tt := range tests {
		got, msg := f.Field(tt.id).Typed(tt.in)
		if diff := cmp.Diff(tt.want, got); diff != "" || msg != tt.msg {
			t.Errorf("%s %q: got %#v, %q; want %#v, %q", tt.id, tt.in, got, msg, tt.want, tt.msg)
		}
	}
}

func FuzzTyped(f *testing.F) {
	form, err := Parse([]byte(typedForm))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"1, 3", "salt, pepper,", "2026-1-5", "1,000.5", "(2)", "3 - x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i := range form.Fields {
			fl := &form.Fields[i]
			v, msg := fl.Typed(s)
			if v != nil && msg != "" {
				t.Fatalf("%s %q: both a value %v and a problem %q", fl.ID, s, v, msg)
			}
			if v == nil {
				continue
			}
			// What Typed reads, Collect accepts, unless a rule of the
			// field other than its form says no (none here).
			if _, err := Collect(&Form{Title: "T", Fields: []Field{*fl}}, map[string]any{fl.ID: v}, nil); err != nil && fl.Type != TextInput && fl.Type != Textarea {
				t.Fatalf("%s %q: Typed gave %#v but Collect says %v", fl.ID, s, v, err)
			}
		}
	})
}

// TestTypedNumberLabels: options whose labels are numbers are named by
// those numbers, never read as positions in the list (a reply "5" to story
// points 1, 2, 3, 5, 8, 13 is 5, not the fifth option 8), on every typed
// path: a single choice, a multi-select, a ranking, a text field's
// suggestions.
func TestTypedNumberLabels(t *testing.T) {
	f, err := Parse([]byte(`{"title": "S", "fields": [
		{"id": "p", "text": "Points?", "type": "single_select", "options": ["1", "2", "3", "5", "8", "13"]},
		{"id": "m", "text": "Which?", "type": "multi_select", "options": ["1", "2", "3", "5", "8", "13"]},
		{"id": "r", "text": "Order?", "type": "ranking", "options": ["3", "1", "2"]},
		{"id": "h", "text": "Half?", "type": "single_select", "options": ["0.5", "1.5", "Other"]},
		{"id": "port", "text": "Port?", "type": "text_input", "options": ["8080", "3000"]},
		{"id": "mixed", "text": "Mixed?", "type": "single_select", "options": ["2", "Other"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	const numbers = "these options are numbers, so a number names the option itself, not its place in the list"
	tests := []struct {
		id, in string
		want   any
		msg    string
	}{
		{"p", "5", "5", ""},
		{"p", "13", "13", ""},
		{"p", " 8. ", "8", ""},
		{"p", "(3)", "3", ""},
		{"p", "#13", "13", ""},
		{"p", "4", nil, `"4" is not one of the options ("1", "2", "3", "5", "8", "13"): ` + numbers},
		{"p", "6", nil, `"6" is not one of the options ("1", "2", "3", "5", "8", "13"): ` + numbers},
		{"m", "5, 13", []string{"5", "13"}, ""},
		{"m", "5 8", []string{"5", "8"}, ""},
		{"m", "13", []string{"13"}, ""},
		{"m", "1, 4", nil, `"4" is not one of the options ("1", "2", "3", "5", "8", "13"): ` + numbers + ` (options: "1", "2", "3", "5", "8", "13")`},
		{"r", "1, 2, 3", []string{"1", "2", "3"}, ""},
		{"r", "3 > 1 > 2", []string{"3", "1", "2"}, ""},
		{"h", "1.5", "1.5", ""},
		{"h", "2", nil, `"2" is not one of the options ("0.5", "1.5", "Other"): ` + numbers},
		{"h", "Other", "Other", ""},
		{"port", "8080", "8080", ""},
		{"port", "2", "2", ""},
		{"port", "9000", "9000", ""},
		{"mixed", "2", "2", ""},
		{"mixed", "1", nil, `"1" is not one of the options ("2", "Other"): ` + numbers},
		{"mixed", "2. Other", nil, `"2. Other" is not one of the options ("2", "Other")`},
		{"mixed", "other", "Other", ""},
	}
	for _, tt := range tests {
		got, msg := f.Field(tt.id).Typed(tt.in)
		if diff := cmp.Diff(tt.want, got); diff != "" || msg != tt.msg {
			t.Errorf("%s %q: got %#v, %q; want %#v, %q", tt.id, tt.in, got, msg, tt.want, tt.msg)
		}
	}
}

// TestTypedLongListIsLinear: a multi-select or ranking answer of many
// parts is read in time linear in its length (a label may span several
// comma-separated parts, and once every span of every part was tried), and
// its wrong parts are named up to listedMax, then counted.
func TestTypedLongListIsLinear(t *testing.T) {
	f, err := Parse([]byte(`{"title": "T", "fields": [
	{"id": "focus", "text": "Focus?", "type": "multi_select", "options": ["correctness", "salt, pepper", "tests"]},
	{"id": "order", "text": "Order?", "type": "ranking", "options": ["a", "b", "c"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "q%d, salt, pepper, ", i)
	}
	for _, id := range []string{"focus", "order"} {
		start := time.Now()
		v, msg := f.ByID()[id].Typed(b.String())
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: %d parts read in %s", id, 9000, took)
		}
		if v != nil || !strings.Contains(msg, `"q0" is not one of the options`) || !strings.Contains(msg, "… 2980 more") && !strings.Contains(msg, "… 8980 more") {
			t.Errorf("%s: %v, %.300q", id, v, msg)
		}
		if len(msg) > 4<<10 {
			t.Errorf("%s: a message of %d bytes", id, len(msg))
		}
	}
}
