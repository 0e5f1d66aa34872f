package form

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

// testForms returns every valid test form by file name.
func testForms(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob("testdata/forms/*.json")
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

func mustParse(t testing.TB, data []byte) *Form {
	t.Helper()
	f, err := Parse(data)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return f
}

func TestParseValidForms(t *testing.T) {
	for name, data := range testForms(t) {
		t.Run(name, func(t *testing.T) { mustParse(t, data) })
	}
}

func TestParseDefaults(t *testing.T) {
	f := mustParse(t, testForms(t)["six"])
	if !f.Fields[0].Required || f.Fields[2].Required {
		t.Errorf("required = %v, %v; want true (default), false (explicit)", f.Fields[0].Required, f.Fields[2].Required)
	}
	if f.Fields[0].Default != "stable" || f.Fields[3].Minimum == nil || *f.Fields[3].Maximum != 40 {
		t.Errorf("decoded fields wrong: %+v", f.Fields)
	}
	status := mustParse(t, testForms(t)["status-only"])
	if status.Fields[0].Required || !status.Fields[0].DisplayOnly() {
		t.Errorf("display-only progress must not be required")
	}
}

// field wraps field JSON into a one-field form.
func field(js string) string {
	return `{"title": "T", "fields": [` + js + `]}`
}

// parseProblemCases are invalid forms with every problem the parser must
// report.
var parseProblemCases = []struct {
	name string
	in   string
	want []string
}{
	{"not json", `{"title": "T",, }`, []string{"form is not valid JSON: at line 1, column 15: unexpected character ',' (expected a string key)"}},
	{"not an object", `[1]`, []string{"form must be a JSON object (got array of 1)"}},
	{"not utf-8", "{\"title\": \"\xff\"}", []string{"form is not valid UTF-8 (first bad byte at offset 11)"}},
	{"empty form", `{}`, []string{"title: missing (a form needs a non-empty title)", "fields: missing (a form needs a list of 1 or more fields)"}},
	{"form keys", `{"title": "", "fields": [], "description": 3, "fieldz": []}`, []string{
		"title: must not be empty",
		"fields: must be a list of 1 or more fields (got array of 0)",
		"description: must be a string (got number 3)",
		"fieldz: unknown key (did you mean 'fields'?)",
	}},
	{"fields and its alias", `{"title": "T", "questions": [{"id": "a", "text": "A?", "type": "boolean"}], "fields": []}`, []string{
		`fields: both "fields" and its alias "questions" are given (give the fields once)`,
	}},
	{"problems under the fields alias", `{"title": "T", "questions": [{"id": "a", "label": "A?", "type": "boolean", "text": "B?"},
			{"id": "a", "label": "A?", "type": "boolean", "max": 3}]}`, []string{
		`questions[0].text: both "text" and its alias "label" are given (give the question once)`,
		"questions[1].max: unknown key (did you mean 'maximum'?)",
		`questions[1].id: duplicate id "a" (same as questions[0])`,
	}},
	{"fields alias empty", `{"title": "T", "questions": {}}`, []string{
		"questions: must be a list of 1 or more fields (got object)",
	}},
	{"required as string", field(`{"id": "a", "text": "A?", "type": "boolean", "required": "false"}`), []string{
		`fields[0].required: must be true or false (got string "false")`,
	}},
	{"typo with hint", field(`{"id": "n", "text": "N?", "type": "number", "maximun": 3}`), []string{
		"fields[0].maximun: unknown key (did you mean 'maximum'?)",
	}},
	{"alias hint", field(`{"id": "n", "question": "N?", "type": "boolean"}`), []string{
		"fields[0].question: unknown key (did you mean 'text'?)",
		"fields[0].text: missing (every field needs id, text and type)",
	}},
	{"key of another type", field(`{"id": "t", "text": "T?", "type": "text_input", "minimum": 1, "list_style": "ordered", "recommended": "x"}`), []string{
		"fields[0].minimum: not a key of type text_input (it belongs to number)",
		"fields[0].list_style: not a key of type text_input (it belongs to single_select, multi_select)",
		"fields[0].recommended: not a key of type text_input (it belongs to decision, pushback, progress, deliberation)",
	}},
	{"options on boolean", field(`{"id": "b", "text": "B?", "type": "boolean", "options": ["Yes", "No"]}`), []string{
		"fields[0].options: not a key of type boolean (it belongs to single_select, multi_select, text_input, decision, pushback, progress, deliberation, confirm, ranking)",
	}},
	{"bad options", field(`{"id": "s", "text": "S?", "type": "single_select", "options": ["a", "", "a", 3, " b"]}`), []string{
		"fields[0].options[1]: empty option (an option needs a label)",
		`fields[0].options[2]: duplicate option "a" (same as fields[0].options[0])`,
		"fields[0].options[3]: must be a string (got number 3)",
		`fields[0].options[4]: option " b" has leading or trailing white space (write "b")`,
	}},
	{"missing options", field(`{"id": "s", "text": "S?", "type": "multi_select"}`), []string{
		"fields[0].options: type multi_select needs a list of 1 or more options",
	}},
	{"invalid type still checked", field(`{"id": "bad id", "text": "", "type": "singel_select", "required": 1}`), []string{
		`fields[0].id: "bad id" is not a valid id (use 1-64 letters, digits, '_', '-' or '.', not starting with '-' or '.')`,
		"fields[0].text: must not be empty",
		`fields[0].type: unknown type "singel_select" (did you mean 'single_select'?)`,
		"fields[0].required: must be true or false (got number 1)",
	}},
	{"duplicate ids", `{"title": "T", "fields": [
			{"id": "a", "text": "Same?", "type": "boolean"},
			{"id": "a", "text": "Same?", "type": "boolean"}]}`, []string{
		`fields[1].id: duplicate id "a" (same as fields[0])`,
	}},
	{"decision keys not in options", field(`{"id": "d", "text": "D?", "type": "decision", "options": ["x", "y"],
			"recommended": "z", "option_notes": {"x": "fine", "w": "nope"}}`), []string{
		`fields[0].recommended: "z" is not one of the options ("x", "y")`,
		`fields[0].option_notes.w: "w" is not one of the options ("x", "y")`,
	}},
	{"pushback positions", field(`{"id": "p", "text": "P?", "type": "pushback", "options": ["x", "y"],
			"recommended": "x", "user_position": "x"}`), []string{
		`fields[0].recommended: is the user's own position "x" (a pushback recommends an alternative)`,
	}},
	{"user position not in options", field(`{"id": "p", "text": "P?", "type": "pushback", "options": ["x", "y"], "user_position": "q"}`), []string{
		`fields[0].user_position: "q" is not one of the options ("x", "y")`,
	}},
	{"progress blocked mismatch", field(`{"id": "p", "text": "P", "type": "progress", "options": ["a", "c"],
			"progress_items": [{"label": "a", "status": "blocked"}, {"label": "b", "status": "blocked"}, {"label": "c", "status": "done"}, {"label": "d", "status": "stuck"}]}`), []string{
		`fields[0].progress_items[3].status: "stuck" is not a task status (one of "done", "in_flight", "blocked"; or set progress_style "report" for free tags)`,
		`fields[0].options: must equal the labels of the blocked items (blocked but not options: "b"; options but not blocked items: "c")`,
	}},
	{"progress report subset", field(`{"id": "p", "text": "P", "type": "progress", "progress_style": "report", "required": false,
			"options": ["a", "z"], "progress_items": [{"label": "a", "status": "note"}]}`), []string{
		`fields[0].options: in report style options must be item labels; not items: "z"`,
	}},
	{"progress items malformed", field(`{"id": "p", "text": "P", "type": "progress", "options": [], "required": true,
			"progress_items": [{"label": "a"}, {"label": "a", "status": "done", "extra": 1}, 3], "progress_style": "digest"}`), []string{
		"fields[0].progress_items[0].status: missing (a progress item needs a label and a status)",
		"fields[0].progress_items[1].extra: unknown key (known keys: label, status, detail)",
		`fields[0].progress_items[1].label: duplicate label "a" (same as fields[0].progress_items[0])`,
		"fields[0].progress_items[2]: must be an object {label, status, detail?} (got number 3)",
		`fields[0].progress_style: must be "report" (got "digest")`,
		"fields[0].required: a progress field with no options is display-only and cannot be required (set \"required\": false)",
	}},
	// Without items the options are not checked against the blocked ones:
	// the missing items are the one problem.
	{"progress without items", field(`{"id": "p", "text": "P", "type": "progress", "options": ["a"]}`), []string{
		"fields[0].progress_items: missing (a progress field reports a list of {label, status, detail?} items)",
	}},
	{"inferred without default", field(`{"id": "s", "text": "S?", "type": "single_select", "options": ["a"], "inferred_from": "chat"}`), []string{
		"fields[0].inferred_from: needs a default (the inferred value itself)",
	}},
	{"list style on a non-select", field(`{"id": "d", "text": "D?", "type": "decision", "options": ["a"], "list_style": "ordered"}`), []string{
		"fields[0].list_style: not a key of type decision (it belongs to single_select, multi_select)",
	}},
	{"list style value", field(`{"id": "s", "text": "S?", "type": "single_select", "options": ["a"], "list_style": "numbered"}`), []string{
		`fields[0].list_style: must be "ordered" or "unordered" (got "numbered")`,
	}},
	{"min over max", field(`{"id": "n", "text": "N?", "type": "number", "minimum": 5, "maximum": 1}`), []string{
		"fields[0]: minimum 5 is greater than maximum 1",
	}},
	{"max length", field(`{"id": "t", "text": "T?", "type": "textarea", "max_length": 0}`), []string{
		"fields[0].max_length: must be a positive whole number (got 0)",
	}},
	{"max length fraction", field(`{"id": "t", "text": "T?", "type": "text_input", "max_length": 2.5}`), []string{
		"fields[0].max_length: must be a positive whole number (got 2.5)",
	}},
	{"defaults fail their own validation", `{"title": "T", "fields": [
			{"id": "a", "text": "A?", "type": "single_select", "options": ["x"], "default": "y"},
			{"id": "b", "text": "B?", "type": "multi_select", "options": ["x"], "default": "x"},
			{"id": "c", "text": "C?", "type": "boolean", "default": true},
			{"id": "d", "text": "D?", "type": "number", "maximum": 3, "default": 4},
			{"id": "e", "text": "E?", "type": "date", "default": "2026-1-5"},
			{"id": "f", "text": "F?", "type": "text_input", "max_length": 2, "default": "abc"},
			{"id": "g", "text": "G?", "type": "text_input", "default": "  "}]}`, []string{
		`fields[0].default: "y" is not one of the options ("x")`,
		`fields[1].default: must be a list of options (got string "x")`,
		`fields[2].default: must be "Yes" or "No" (got boolean true)`,
		"fields[3].default: 4 is above the maximum 3",
		`fields[4].default: "2026-1-5" is not a date in the form YYYY-MM-DD (zero-padded, e.g. 2026-01-05)`,
		"fields[5].default: is 3 characters, over max_length 2",
		"fields[6].default: is empty (give a value or remove the default)",
	}},
	{"duplicate keys", `{"title": "T", "title": "U", "fields": [{"id": "a", "id": "b", "text": "A?", "type": "boolean"}]}`, []string{
		"title: duplicate key (give each key once)",
		"fields[0].id: duplicate key (give each key once)",
	}},
	{"field not an object", field(`"goal"`), []string{
		`fields[0]: must be an object with id, text and type (got string "goal")`,
	}},
	// Each later duplicate is reported once, against the first: not
	// against every earlier field (problems that grew with the square of
	// the fields).
	{"one id in three fields", `{"title": "T", "fields": [
		{"id": "a", "text": "Same?", "type": "boolean"}, {"id": "a", "text": "Same?", "type": "boolean"},
		{"id": "a", "text": "Same?", "type": "boolean"}]}`, []string{
		`fields[1].id: duplicate id "a" (same as fields[0])`,
		`fields[2].id: duplicate id "a" (same as fields[0])`,
	}},
	// A message quotes at most 20 of the options.
	{"many options quoted in part", field(`{"id": "d", "text": "D?", "type": "decision", "options": [` +
		numberedList(25, `"o%d"`) + `], "option_notes": {"o99": "x"}}`), []string{
		`fields[0].option_notes.o99: "o99" is not one of the options ("o0", "o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8", "o9", "o10", "o11", "o12", "o13", "o14", "o15", "o16", "o17", "o18", "o19", … 5 more)`,
	}},
	{"too large", `{"title": "` + strings.Repeat("x", MaxInput) + `"}`, []string{
		"form is 1048589 bytes, over the 1 MiB limit (1048576 bytes)",
	}},
}

func TestParseProblems(t *testing.T) {
	for _, tt := range append(parseProblemCases, constructProblemCases...) {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			probs, ok := err.(problem.List)
			if !ok {
				t.Fatalf("Parse error = %v (%T), want a problem.List", err, err)
			}
			if diff := cmp.Diff(tt.want, probs.Strings()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzParse checks that no input panics and that every accepted form can be
// rendered and collected.
func FuzzParse(f *testing.F) {
	for _, data := range testForms(f) {
		f.Add(data)
	}
	f.Add([]byte(field(`{"id": "p", "text": "P", "type": "progress", "options": [], "progress_items": [{"label": "a", "status": "blocked"}]}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		form, err := Parse(data)
		if err != nil {
			probs, ok := err.(problem.List)
			if !ok {
				t.Fatalf("error is %T, want problem.List", err)
			}
			if len(probs) > maxProblems+1 {
				t.Fatalf("%d problems listed, want at most %d and a count of the rest", len(probs), maxProblems)
			}
			return
		}
		if bytes.Count(data, []byte("{")) > 200 {
			return
		}
		_, _ = Collect(form, map[string]any{}, nil)

	})
}

// TestAliasesNormalize checks that attune's aliases decode to the same form
// as the canonical keys.
func TestAliasesNormalize(t *testing.T) {
	aliased := mustParse(t, []byte(`{"title": "T", "questions": [
		{"id": "a", "label": "A?", "type": "single_select", "options": ["x", "y"]},
		{"label": "B?", "id": "b", "type": "text_input", "required": false}]}`))
	canonical := mustParse(t, []byte(`{"title": "T", "fields": [
		{"id": "a", "text": "A?", "type": "single_select", "options": ["x", "y"]},
		{"id": "b", "text": "B?", "type": "text_input", "required": false}]}`))
	if diff := cmp.Diff(canonical, aliased); diff != "" {
		t.Errorf("aliased form differs (-canonical +aliased):\n%s", diff)
	}
}

// TestNullMeansNotGiven checks that null optional keys are left out, as
// forms built from code with optional values write them, while a null
// required, id, text or type stays a problem.
func TestNullMeansNotGiven(t *testing.T) {
	withNulls := []byte(`{"title": "T", "description": null, "fields": [
		{"id": "d", "text": "D?", "type": "decision", "options": ["x", "y"], "recommended": null, "rationale": null,
		 "option_notes": null, "default": null, "inferred_from": null, "progress_items": null, "help_text": null}]}`)
	without := []byte(`{"title": "T", "fields": [{"id": "d", "text": "D?", "type": "decision", "options": ["x", "y"]}]}`)
	if diff := cmp.Diff(mustParse(t, without), mustParse(t, withNulls)); diff != "" {
		t.Errorf("nulls are not left out (-want +got):\n%s", diff)
	}
	if err := resolvedSchema(t).Validate(jsonAny(t, withNulls)); err != nil {
		t.Errorf("the schema refuses the nulls the parser accepts: %v", err)
	}
	_, err := Parse([]byte(`{"title": "T", "fields": [{"id": null, "text": "D?", "type": "boolean", "required": null, "help_text": null, "help_text": "x"}]}`))
	want := []string{
		"fields[0].id: must be a string (got null)",
		"fields[0].required: must be true or false (got null)",
		"fields[0].help_text: duplicate key (give each key once)",
	}
	probs, _ := err.(problem.List)
	if diff := cmp.Diff(want, probs.Strings()); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func jsonAny(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
