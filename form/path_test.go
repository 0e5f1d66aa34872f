package form

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

// TestAttune017FormLoads parses a form as attune-forms 0.17 writes it, with
// a top-level form_id and path fields (path_kind, path_options): it loads,
// keeps both, and its canonical JSON says the same.
func TestAttune017FormLoads(t *testing.T) {
	f := mustParse(t, testForms(t)["paths"])
	if f.FormID != "audit-scope" {
		t.Errorf("form_id = %q, want audit-scope", f.FormID)
	}
	target := f.Field("target")
	if !target.IsPath() || target.PathKind != PathFile || len(target.PathOptions) != 3 {
		t.Errorf("target = %+v, want a file path field with 3 suggested paths", target)
	}
	if f.Field("vendored").IsPath() {
		t.Error("a boolean is no path field")
	}
	data := marshalForm(t, f)
	for _, want := range []string{`"form_id":"audit-scope"`, `"path_kind":"directory","path_options":["reports/","docs/audits"]`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("canonical JSON %s lacks %s", data, want)
		}
	}
}

// pathProblemCases are path fields and form ids that break a rule.
var pathProblemCases = []struct {
	name string
	in   string
	want []string
}{
	{"suggested paths without a kind", field(`{"id": "p", "text": "Q", "type": "text_input", "path_options": ["a.go"]}`),
		[]string{`fields[0].path_options: needs path_kind ("file", "directory", "either": what the paths name)`}},
	{"unknown kind", field(`{"id": "p", "text": "Q", "type": "text_input", "path_kind": "folder"}`),
		[]string{`fields[0].path_kind: must be "file" or "directory" or "either" (got "folder")`}},
	{"options beside path_kind", field(`{"id": "p", "text": "Q", "type": "text_input", "path_kind": "file", "options": ["a.go"]}`),
		[]string{"fields[0].options: a path field's suggestions are path_options (paths relative to the project); remove options"}},
	{"path keys on another type", field(`{"id": "p", "text": "Q", "type": "textarea", "path_kind": "file"}`),
		[]string{"fields[0].path_kind: not a key of type textarea (it belongs to text_input)"}},
	{"suggested paths outside the project", field(`{"id": "p", "text": "Q", "type": "text_input", "path_kind": "either",
		"path_options": ["/etc/passwd", "C:\\x", "~/notes", "../up", "a/../../b", "ok/", "two\nlines"]}`), []string{
		`fields[0].path_options[0]: "/etc/passwd" is an absolute path (suggested paths are relative to the project: write it from the project's top folder)`,
		`fields[0].path_options[1]: "C:\\x" is an absolute path (suggested paths are relative to the project: write it from the project's top folder)`,
		`fields[0].path_options[2]: "~/notes" is an absolute path (suggested paths are relative to the project: write it from the project's top folder)`,
		`fields[0].path_options[3]: "../up" leaves the project through ".." (suggested paths stay inside the project)`,
		`fields[0].path_options[4]: "a/../../b" leaves the project through ".." (suggested paths stay inside the project)`,
		`fields[0].path_options[6]: "two\nlines" is not a path (a path is one line, without tabs)`,
	}},
	{"a directory offered for a file", field(`{"id": "p", "text": "Q", "type": "text_input", "path_kind": "file",
		"path_options": ["src/", "main.go", "."]}`), []string{
		`fields[0].path_options[0]: "src/" names a directory, but path_kind is "file" (give file paths, or path_kind "either")`,
		`fields[0].path_options[2]: "." names a directory, but path_kind is "file" (give file paths, or path_kind "either")`,
	}},
	{"a directory default for a file", field(`{"id": "p", "text": "Q", "type": "text_input", "path_kind": "file", "default": "src/"}`),
		[]string{`fields[0].default: "src/" names a directory; give a file path`}},
	{"bad form_id", `{"title": "T", "form_id": "a b", "fields": [{"id": "x", "text": "Q", "type": "boolean"}]}`,
		[]string{`form_id: "a b" is not a valid form_id (use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit)`}},
	{"form_id not a string", `{"title": "T", "form_id": 7, "fields": [{"id": "x", "text": "Q", "type": "boolean"}]}`,
		[]string{"form_id: must be a string (got number 7)"}},
	{"form-level id", `{"title": "T", "id": "x", "fields": [{"id": "x", "text": "Q", "type": "boolean"}]}`,
		[]string{"id: unknown key (did you mean 'form_id'?)"}},
}

func TestPathFieldProblems(t *testing.T) {
	for _, tt := range pathProblemCases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			probs, _ := err.(problem.List)
			if diff := cmp.Diff(tt.want, probs.Strings()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPathAnswersAreCheckedForTheKind collects path answers: relative or
// absolute as written, trimmed; a file path may not name a directory; a
// path is one line. Nothing is looked up on disk.
func TestPathAnswersAreCheckedForTheKind(t *testing.T) {
	f := mustParse(t, testForms(t)["paths"])
	for _, tt := range []struct {
		name    string
		answers map[string]any
		want    map[string]any
		probs   []string
	}{
		{"suggested and typed paths", map[string]any{"target": "src/app/main.go", "out": " /tmp/reports/ ", "extra": "../shared", "vendored": "No"},
			map[string]any{"target": "src/app/main.go", "out": "/tmp/reports/", "extra": "../shared", "vendored": "No"}, nil},
		{"the directory default kept", map[string]any{"target": `C:\src\main.go`, "vendored": "Yes"},
			map[string]any{"target": `C:\src\main.go`, "out": "reports/", "vendored": "Yes"}, nil},
		{"wrong kind and shape", map[string]any{"target": "src/app/", "out": "a\nb", "extra": 3, "vendored": "No"}, nil, []string{
			`answers.target: "src/app/" names a directory; give a file path`,
			`answers.out: string "a\nb" is not a path: a path is one line, without tabs (give a directory path)`,
			"answers.extra: must be a path to a file or a directory as a string (got number 3)",
		}},
		{"unanswered", map[string]any{"vendored": "No"}, nil, []string{"answers.target: required, but not answered (a file path)"}},
	} {
		t.Run(tt.name, func(t *testing.T) { checkCollect(t, f, tt.answers, tt.want, tt.probs) })
	}
}

// checkCollect collects answers for f and checks the result: the problems
// when probs is not nil, else the responses.
func checkCollect(t *testing.T, f *Form, answers, want map[string]any, probs []string) {
	t.Helper()
	r, err := Collect(f, answers, nil)
	if probs != nil {
		got, _ := err.(problem.List)
		if diff := cmp.Diff(probs, got.Strings()); diff != "" {
			t.Errorf("problems (-want +got):\n%s", diff)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, r.Responses); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}

// TestFormIDIsEchoedInTheResponse checks that a form's form_id comes back
// beside template_id in the collected response, and is left out of one
// without.
func TestFormIDIsEchoedInTheResponse(t *testing.T) {
	f := mustParse(t, testForms(t)["paths"])
	r, err := Collect(f, map[string]any{"target": "a.go", "vendored": "No"}, &CollectOptions{TemplateID: "dict"})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(r)
	if r.FormID != "audit-scope" || !strings.Contains(string(data), `"template_id":"dict","form_id":"audit-scope"`) {
		t.Errorf("response %s, want form_id audit-scope beside template_id", data)
	}
	r, _ = Collect(mustParse(t, testForms(t)["six"]), map[string]any{"platforms": []any{"linux"}, "budget": 3.0, "ship_date": "2026-12-01"}, nil)
	if data, _ := json.Marshal(r); strings.Contains(string(data), "form_id") {
		t.Errorf("a form without form_id: response %s", data)
	}
}

// TestFormIDNullIsNotGiven: attune-forms' form_id may be null, as code that
// fills a form from optional values writes it.
func TestFormIDNullIsNotGiven(t *testing.T) {
	f := mustParse(t, []byte(`{"title": "T", "form_id": null, "fields": [{"id": "x", "text": "Q", "type": "boolean"}]}`))
	if f.FormID != "" {
		t.Errorf("form_id = %q", f.FormID)
	}
}

// TestSchemaCatchesPathShapes: the full JSON Schema catches the path
// field's and form_id's structural problems; the rest only Parse sees.
func TestSchemaCatchesPathShapes(t *testing.T) {
	rs := resolvedSchema(t)
	catches := map[string]bool{"suggested paths without a kind": true, "unknown kind": true, "path keys on another type": true,
		"bad form_id": true, "form_id not a string": true, "form-level id": true}
	for _, tc := range pathProblemCases {
		var v any
		if err := json.Unmarshal([]byte(tc.in), &v); err != nil {
			t.Fatal(err)
		}
		if err := rs.Validate(v); (err != nil) != catches[tc.name] {
			t.Errorf("%s: schema error = %v, want caught = %v", tc.name, err, catches[tc.name])
		}
	}
}

// TestTemplateKeepsFormID casts a template whose form_id and path field
// use a slot: the cast form keeps them, its lint passes, and a slot value
// that makes the form_id invalid is named at form_id.
func TestTemplateKeepsFormID(t *testing.T) {
	tpl := `{"title": "Audit {project}", "form_id": "audit-{project}", "slots": ["project"], "fields": [
		{"id": "target", "text": "Which file?", "type": "text_input", "path_kind": "file", "path_options": ["{project}/main.go"]}]}`
	ts := &Templates{Folder: fstest.MapFS{"audit.json": {Data: []byte(tpl)}}}
	if err := ts.Lint("audit"); err != nil {
		t.Fatalf("lint: %v", err)
	}
	f, err := ts.Cast("audit", map[string]string{"project": "elicit"})
	if err != nil {
		t.Fatal(err)
	}
	if f.FormID != "audit-elicit" || f.Fields[0].PathOptions[0] != "elicit/main.go" {
		t.Errorf("cast form_id %q, path_options %v", f.FormID, f.Fields[0].PathOptions)
	}
	_, err = ts.Cast("audit", map[string]string{"project": "my project"})
	probs, _ := err.(problem.List)
	if want := []string{`form_id: "audit-my project" is not a valid form_id (use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit)`}; !cmp.Equal(want, probs.Strings()) {
		t.Errorf("problems %v, want %v", probs.Strings(), want)
	}
}
