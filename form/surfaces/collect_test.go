package surfaces

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/codex"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/internal/golden"
	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

// hostAnswers answers rendered AskUserQuestion inputs the way Claude Code
// reports them: keyed by question text, the chosen label as written.
func hostAnswers(t *testing.T, r *ask.Result, pick map[string]string) []byte {
	t.Helper()
	answers := map[string]any{}
	var questions []ask.Question
	for _, in := range r.AskUserQuestion {
		for _, q := range in.Questions {
			questions = append(questions, q)
			for header, label := range pick {
				if q.Header == header {
					answers[q.Question] = label
				}
			}
		}
	}
	data, err := json.Marshal(map[string]any{"questions": questions, "answers": answers})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSessionContractOnClaudeCode is the proof: the README's own
// template, asked on Claude Code, is AskUserQuestion for the two fields it
// can carry and one markdown reply to the follow-up for the other two, and
// collect takes both together.
func TestSessionContractOnClaudeCode(t *testing.T) {
	f := formtest.SessionContract(t)
	r := ask.Render(f)
	if r.MarkdownFollowup == nil || !slices.Equal(r.MarkdownFollowup.FieldIDs, []string{"outcome", "done_when"}) {
		t.Fatalf("markdown follow-up = %+v, want outcome and done_when", r.MarkdownFollowup)
	}
	for _, u := range r.Unsupported {
		if u.Surface != string(form.SurfaceMarkdown) {
			t.Errorf("unsupported %s points at %q, want markdown", u.QuestionID, u.Surface)
		}
	}
	output := hostAnswers(t, r, map[string]string{"Mode": "Build something new", "Effort cap": "2 hours"})
	reply := "Outcome: a tagged release\ndone when:\n- make test passes\n- the tag is pushed\n"
	resp, err := Collect(f, []Document{{Name: "tool-output.json", Data: output}, {Name: "reply.md", Data: []byte(reply)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"mode": "Build something new", "effort_cap": "2 hours", "outcome": "a tagged release",
		"done_when": "- make test passes\n- the tag is pushed"}
	if diff := cmp.Diff(want, resp.Responses); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}

// TestSessionContractOnCodex: request_user_input for what it can ask, the
// markdown follow-up for the rest.
func TestSessionContractOnCodex(t *testing.T) {
	f := formtest.SessionContract(t)
	r := codex.Render(f)
	if r.MarkdownFollowup == nil || !slices.Equal(r.MarkdownFollowup.FieldIDs, []string{"outcome", "done_when"}) {
		t.Fatalf("markdown follow-up = %+v", r.MarkdownFollowup)
	}
	calls := `[{"answers": {"mode": {"answers": ["Group 2"]}, "effort_cap": {"answers": ["Half a day"]}}},
		{"answers": {"mode_group_2": {"answers": ["Review and tidy"]}}}]`
	reply := "outcome: notes\ndone_when: the notes are merged"
	resp, err := Collect(f, []Document{{Name: "calls.json", Data: []byte(calls)}, {Name: "reply", Data: []byte(reply)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"mode": "Review and tidy", "effort_cap": "Half a day", "outcome": "notes", "done_when": "the notes are merged"}
	if diff := cmp.Diff(want, resp.Responses); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}

func TestCollectProblems(t *testing.T) {
	f := formtest.SessionContract(t)
	tests := []struct {
		name string
		docs []Document
		want []string
	}{
		{"answered twice, differently", []Document{
			{Name: "a.json", Data: []byte(`{"mode": "Explore and learn", "outcome": "x", "done_when": "y"}`)},
			{Name: "reply.md", Data: []byte("mode: 4")},
		}, []string{`answers.mode: answered in both a.json (string "Explore and learn") and reply.md (string "Review and tidy"); give one answer`}},
		{"answered twice, the same", []Document{
			{Name: "a.json", Data: []byte(`{"mode": "Explore and learn", "outcome": "x", "done_when": "y"}`)},
			{Name: "reply.md", Data: []byte("mode: explore and learn")},
		}, nil},
		{"an unreadable document among others", []Document{
			{Name: "a.json", Format: FormatJSON, Data: []byte(`{"mode": `)},
			{Name: "reply.md", Data: []byte("mode: 1\noutcome: x\ndone_when: y")},
		}, []string{"a.json: answers is not valid JSON: at line 1, column 10: unexpected end of input (expected a value)"}},
		{"a reply read as JSON by request", []Document{
			{Name: "r.md", Format: FormatMarkdown, Data: []byte("{mode: 1}")},
		}, []string{
			`r.md: line 1: "{mode: 1}" answers no question: no question has the id "{mode" (did you mean 'mode'?)`,
			`answers.mode: required, but not answered (one of "Build something new", "Fix what is broken", "Explore and learn", "Review and tidy")`,
			"answers.outcome: required, but not answered (some text)",
			"answers.done_when: required, but not answered (some text)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Collect(f, tt.docs, nil)
			var got []string
			if err != nil {
				var fail *Failure
				if !errors.As(err, &fail) {
					t.Fatalf("err = %T %v", err, err)
				}
				got = fail.Problems.Strings()
				var probs problem.List
				if !errors.As(err, &probs) {
					t.Error("a Failure does not unwrap to a problem.List")
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReaskOnlyFailingFields: a reply with two bad answers gets a re-ask of
// exactly those two fields, as markdown with the problems shown and as
// AskUserQuestion inputs for the one it can carry.
func TestReaskOnlyFailingFields(t *testing.T) {
	f := formtest.SessionContract(t)
	reply := "mode: 9\noutcome: " + strings.Repeat("long ", 50) + "\ndone_when: tests pass\neffort_cap: 1"
	_, err := Collect(f, []Document{{Name: "reply", Data: []byte(reply)}}, nil)
	var fail *Failure
	if !errors.As(err, &fail) || fail.Reask == nil {
		t.Fatalf("err = %v, want a failure with a re-ask", err)
	}
	if diff := cmp.Diff([]string{"mode", "outcome"}, fail.Reask.FieldIDs); diff != "" {
		t.Errorf("re-asked fields (-want +got):\n%s", diff)
	}
	var asked []string
	for _, in := range fail.Reask.AskUserQuestion {
		for _, q := range in.Questions {
			asked = append(asked, q.Header)
		}
	}
	if diff := cmp.Diff([]string{"Mode"}, asked); diff != "" {
		t.Errorf("re-asked on AskUserQuestion (-want +got):\n%s", diff)
	}
	golden.Check(t, "reask.json", golden.JSON(t, fail.Reask))

	// Answering the re-ask completes the form with the first reply's good
	// answers.
	resp, err := Collect(f, []Document{
		{Name: "reply", Data: []byte("done_when: tests pass\neffort_cap: 1")},
		{Name: "again", Data: []byte("mode: 3\noutcome: short")},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Responses["mode"] != "Explore and learn" || resp.Responses["effort_cap"] != "30 minutes" {
		t.Errorf("responses = %v", resp.Responses)
	}
}

// TestBareReply: a reply with no ids answers the one question left.
func TestBareReply(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["scope"])
	resp, err := Collect(f, []Document{
		{Name: "out.json", Data: []byte(`{"answers": {"What are you trying to accomplish?": "Refactor"}}`)},
		{Name: "reply", Data: []byte("security and tests; correctness")},
	}, nil)
	if err == nil {
		t.Fatalf("an unreadable bare reply was accepted: %v", resp.Responses)
	}
	resp, err = Collect(f, []Document{
		{Name: "out.json", Data: []byte(`{"answers": {"What are you trying to accomplish?": "Refactor"}}`)},
		{Name: "reply", Data: []byte("Security, tests\n")},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"security", "tests"}, resp.Responses["focus"]); diff != "" {
		t.Errorf("focus (-want +got):\n%s", diff)
	}
}

func FuzzCollectDocuments(f *testing.F) {
	forms := formtest.Forms(f)
	f.Add(`{"goal": "Refactor"}`, "focus: 1, 3")
	f.Add(`[{"answers": {"approach": {"answers": ["x"]}}}]`, "approach: 2\nnotes:\n1. a")
	f.Add(`{"answers": {"Which areas matter here?": "tests"}}`, "Fix a bug")
	f.Fuzz(func(t *testing.T, doc, reply string) {
		for _, data := range forms {
			fm := formtest.MustParse(t, data)
			_, err := Collect(fm, []Document{{Name: "doc", Data: []byte(doc)}, {Name: "reply", Format: FormatMarkdown, Data: []byte(reply)}}, nil)
			if err == nil {
				continue
			}
			var fail *Failure
			if !errors.As(err, &fail) || len(fail.Problems) == 0 {
				t.Fatalf("error is %T %v", err, err)
			}
			if fail.Reask != nil {
				for _, id := range fail.Reask.FieldIDs {
					if fm.Field(id) == nil {
						t.Fatalf("re-ask of unknown field %q", id)
					}
				}
			}
		}
	})
}

// TestNumberLabelsReply: a reply to options that are numbers names them by
// their labels (what the MCP reply and form collect read), and the
// questionnaire lists them unnumbered so that no position invites a
// misreading.
func TestNumberLabelsReply(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title":"S","fields":[{"id":"p","text":"Points?","type":"single_select","options":["1","2","3","5","8","13"]},
		{"id":"m","text":"Also?","type":"multi_select","options":["1","2","3","5","8","13"],"required":false}]}`))
	tests := []struct {
		reply string
		want  map[string]any
		probs []string
	}{
		{"p: 5", map[string]any{"p": "5"}, nil},
		{"p: 13\nm: 8, 13", map[string]any{"p": "13", "m": []string{"8", "13"}}, nil},
		{"p: 4", nil, []string{`answers.p: reply line 1: "4" is not one of the options ("1", "2", "3", "5", "8", "13"): these options are numbers, so a number names the option itself, not its place in the list`}},
	}
	for _, tt := range tests {
		r, err := Collect(f, []Document{{Name: "reply", Format: FormatMarkdown, Data: []byte(tt.reply)}}, nil)
		var got map[string]any
		if r != nil {
			got = r.Responses
		}
		var fail *Failure
		errors.As(err, &fail)
		var probs []string
		if fail != nil {
			probs = fail.Problems.Strings()
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q: responses (-want +got):\n%s", tt.reply, diff)
		}
		if diff := cmp.Diff(tt.probs, probs); diff != "" {
			t.Errorf("%q: problems (-want +got):\n%s", tt.reply, diff)
		}
	}
	md := NewReask(f, problem.List{{Path: "answers.p", Message: "x"}}, "").Markdown
	if !strings.Contains(md, "\n- 5\n- 8\n- 13\n") || strings.Contains(md, "4. 5") {
		t.Errorf("the options are not listed by their labels alone:\n%s", md)
	}
}

// TestByteOrderMark: a UTF-8 byte order mark at the start of an outside
// document (the form, JSON answers of any shape, a markdown reply) is no
// part of it; one anywhere else is text, and refused where text is not
// allowed.
func TestByteOrderMark(t *testing.T) {
	const bom = "\ufeff"
	f, err := form.Parse([]byte(bom + `{"title": "T", "fields": [{"id": "gate", "text": "Go?", "type": "boolean"},
		{"id": "note", "text": "Note?", "type": "text_input", "required": false}]}`))
	if err != nil {
		t.Fatalf("form with a BOM: %v", err)
	}
	tests := []struct {
		name, doc string
		format    Format
		want      map[string]any
	}{
		{"answers by id", bom + `{"gate": "Yes"}`, FormatAuto, map[string]any{"gate": "Yes"}},
		{"answers by id, format json", bom + `{"gate": "Yes"}`, FormatJSON, map[string]any{"gate": "Yes"}},
		{"a list of tool outputs", bom + `[{"answers": {"Go?": "No"}}]`, FormatAuto, map[string]any{"gate": "No"}},
		{"a markdown reply", bom + "gate: yes\nnote: \ufeffkept", FormatAuto, map[string]any{"gate": "Yes", "note": "\ufeffkept"}},
		{"a markdown reply, format markdown", bom + "gate: no", FormatMarkdown, map[string]any{"gate": "No"}},
	}
	for _, tt := range tests {
		r, err := Collect(f, []Document{{Name: "doc", Format: tt.format, Data: []byte(tt.doc)}}, nil)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if diff := cmp.Diff(tt.want, r.Responses); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	if _, err := ParseAnswers(f, []byte(`{"gate": "Yes"}`+bom)); err == nil {
		t.Error("a BOM after the JSON was taken")
	}
}

// TestReaskSameQuestionText: the re-ask of a field whose question text an
// earlier field has asks it as every render does ("Proceed? [b]"), so the
// host's answer, keyed by that text, maps back to it and not to a.
func TestReaskSameQuestionText(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title":"x","fields":[{"id":"a","text":"Proceed?","type":"boolean"},{"id":"b","text":"Proceed?","type":"boolean"}]}`))
	_, err := Collect(f, []Document{{Name: "first", Data: []byte(`{"a":"Yes","b":"perhaps"}`)}}, nil)
	var fail *Failure
	if !errors.As(err, &fail) || fail.Reask == nil {
		t.Fatalf("err = %v, want a failure with a re-ask", err)
	}
	rendered := ask.Render(f).AskUserQuestion[0].Questions[1]
	asked := fail.Reask.AskUserQuestion[0].Questions
	if len(asked) != 1 || asked[0].Question != rendered.Question || rendered.Question != "Proceed? [b]" {
		t.Fatalf("re-asked %+v, rendered %q", asked, rendered.Question)
	}
	again := hostAnswers(t, &ask.Result{AskUserQuestion: fail.Reask.AskUserQuestion}, map[string]string{asked[0].Header: "No"})
	resp, err := Collect(f, []Document{{Name: "first", Data: []byte(`{"a":"Yes"}`)}, {Name: "again", Data: again}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"a": "Yes", "b": "No"}, resp.Responses); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}

// TestFieldOf: a problem's path names the longest field id it is at or
// under, at a '.' or '[' boundary.
func TestFieldOf(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title":"t","fields":[
		{"id":"a","text":"A?","type":"boolean"},
		{"id":"a.b","text":"AB?","type":"boolean"},
		{"id":"ab","text":"Ab?","type":"boolean"}]}`))
	tests := map[string]string{
		"answers.a":          "a",
		"answers.a[2]":       "a",
		"answers.a.row":      "a",
		"answers.a.b":        "a.b",
		"answers.a.b[0]":     "a.b",
		"answers.a.b.c.d":    "a.b",
		"answers.ab":         "ab",
		"answers.abc":        "",
		"answers.b":          "",
		"answers.":           "",
		"fields[0].options":  "",
		"answers.a.b[1].x.y": "a.b",
	}
	byID := f.ByID()
	for path, want := range tests {
		if got := fieldOf(byID, path); got != want {
			t.Errorf("fieldOf(%q) = %q, want %q", path, got, want)
		}
	}
}
