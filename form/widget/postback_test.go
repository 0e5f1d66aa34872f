package widget

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

func TestReadPostback(t *testing.T) {
	f := formtest.MustParse(t, formtest.Bench(t))
	id := FormID(f)
	other := formtest.MustParse(t, testForms(t)["decision"])
	tests := []struct {
		name string
		doc  map[string]any
		want map[string]any
		errs []string
	}{
		{"form id and title", map[string]any{Marker: true, "form_id": id, "title": "Release plan", "answers": map[string]any{"track": "beta"}},
			map[string]any{"track": "beta"}, nil},
		{"title only, as older widgets sent", map[string]any{Marker: true, "title": "Release plan", "answers": map[string]any{}},
			map[string]any{}, nil},
		{"another form's id", map[string]any{Marker: true, "form_id": FormID(other), "title": "Release plan", "answers": map[string]any{}}, nil,
			[]string{fmt.Sprintf(`form_id: %q is another form's id; these answers were given to a different form than "Release plan" (form_id %q): collect them with the form the widget was rendered from, or render this form again`, FormID(other), id)}},
		{"another form's title", map[string]any{Marker: true, "title": "Focused session plan", "answers": map[string]any{}}, nil,
			[]string{`title: "Focused session plan" is not this form's title "Release plan": these answers were given to another form`}},
		{"no identity", map[string]any{Marker: true, "answers": map[string]any{}}, nil,
			[]string{fmt.Sprintf(`form_id: missing (a postback names the form it answers with form_id, or at least title; this form's form_id is %q)`, id)}},
		{"everything wrong", map[string]any{Marker: "yes", "form_id": 7.0, "title": nil, "answers": []any{}, "extra": 1.0, "more": true}, nil,
			[]string{
				"extra: not a key of the widget's postback (keys: __elicitation_response__, form_id, title, answers)",
				"more: not a key of the widget's postback (keys: __elicitation_response__, form_id, title, answers)",
				`__elicitation_response__: must be true (got string "yes")`,
				"form_id: must be a string (got number 7)",
				"title: must be a string (got null)",
				"answers: must be an object of answers keyed by field id (got a list)",
			}},
		{"no answers", map[string]any{Marker: true, "form_id": id}, nil,
			[]string{"answers: missing (the postback carries the answers keyed by field id)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadPostback(f, tt.doc)
			var errs []string
			if err != nil {
				errs = err.(problem.List).Strings()
			}
			if diff := cmp.Diff(tt.errs, errs); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExtract(t *testing.T) {
	block := `{"__elicitation_response__":true,"title":"T","answers":{"a":"x \u0060\u0060\u0060 y"}}`
	tests := []struct {
		name, msg, want string
		ok              bool
	}{
		{"the widget's message", message([]byte(block)), block, true},
		{"a bare object", "  " + block + "\n", block, true},
		{"a plain fence", "answers:\n```\n" + block + "\n```\n", block, true},
		{"the second block", "```json\n{\"other\": 1}\n```\ntext\n```json\n" + block + "\n```", block, true},
		{"an indented fence", "  ```json\n  " + block + "\n  ```", block, true},
		{"an unclosed fence", "```json\n" + block, block, true},
		{"no postback", "```json\n{\"a\": 1}\n```", "", false},
		{"no block", "Elicitation form submitted", "", false},
		{"a bare object without the marker", `{"a": "x"}`, `{"a": "x"}`, false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Extract([]byte(tt.msg))
			if ok != tt.ok || (ok && string(got) != tt.want) {
				t.Errorf("Extract = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestMessageEscapesFences: an answer holding ``` cannot close the fence.
func TestMessageEscapesFences(t *testing.T) {
	data, _ := json.Marshal(map[string]any{Marker: true, "title": "T", "answers": map[string]any{"a": "```\nx"}})
	msg := message(data)
	got, ok := Extract([]byte(msg))
	var doc map[string]any
	if !ok || json.Unmarshal(got, &doc) != nil || doc["answers"].(map[string]any)["a"] != "```\nx" {
		t.Errorf("Extract(%q) = %q, %v", msg, got, ok)
	}
}

func TestFieldProblems(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [
		{"id": "a", "text": "A?", "type": "multi_select", "options": ["x"]},
		{"id": "a.b", "text": "AB?", "type": "text_input"},
		{"id": "n", "text": "N?", "type": "number"}]}`))
	probs := problem.List{
		{Path: "answers.a[1]", Message: "must be one of the options as a string (got null)"},
		{Path: "answers.a", Message: `"z" not among the options ("x")`},
		{Path: "answers.a.b", Message: "required, but not answered (some text)"},
		{Path: "answers.zz", Message: "no field has this id"},
		{Path: "form_id", Message: "another form"},
	}
	want := map[string]string{
		"a":   `[1]: must be one of the options as a string (got null); "z" not among the options ("x")`,
		"a.b": "Write an answer.",
		"":    "answers.zz: no field has this id; form_id: another form",
	}
	if diff := cmp.Diff(want, FieldProblems(f, probs)); diff != "" {
		t.Errorf("FieldProblems (-want +got):\n%s", diff)
	}
}

// FuzzPostback reads arbitrary chat messages as the agent's collect call
// would: no panic, and either answers or a problem list.
func FuzzPostback(f *testing.F) {
	forms := testForms(f)
	f.Add(message([]byte(`{"__elicitation_response__":true,"title":"Release plan","answers":{"track":"beta"}}`)))
	f.Add("```json\n{\"__elicitation_response__\": 1, \"form_id\": [], \"answers\": null}\n```")
	f.Add("```\n```\n```json\n{\"__elicitation_response__\":true}")
	f.Add(`{"__elicitation_response__": true, "answers": {"x": 1e999}, "title": "\ud800"}`)
	f.Fuzz(func(t *testing.T, msg string) {
		block, ok := Extract([]byte(msg))
		if !ok {
			return
		}
		doc, err := form.DecodeJSON(block, "answers", false)
		if err != nil {
			if _, ok := err.(problem.List); !ok {
				t.Fatalf("DecodeJSON error is %T", err)
			}
			return
		}
		m, ok := doc.Value.(map[string]any)
		if !ok || !IsPostback(m) {
			return
		}
		for _, data := range forms {
			fm := formtest.MustParse(t, data)
			answers, err := ReadPostback(fm, m)
			if err != nil {
				if _, ok := err.(problem.List); !ok {
					t.Fatalf("ReadPostback error is %T", err)
				}
				continue
			}
			if _, err := form.Collect(fm, answers, nil); err != nil {
				if _, ok := err.(problem.List); !ok {
					t.Fatalf("Collect error is %T", err)
				}
			}
		}
	})
}

// TestFieldProblemsInPeoplesWords: what the page and the app show beside a
// field is for the person who fills it: what to do, rows by their labels,
// never collect's notation for the agent ({row key: ...}) or a row's
// internal key.
func TestFieldProblemsInPeoplesWords(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [
		{"id": "findings", "text": "Rule on each finding", "type": "triage", "dispositions": ["fix", "defer"],
		 "triage_items": [{"id": "sqli", "label": "String-built SQL"}, {"id": "race", "label": "Counter without a lock"}, {"label": "Unused import"}]},
		{"id": "assumed", "text": "Check these", "type": "assumption_review", "assumptions": [{"id": "db", "label": "PostgreSQL only"}]},
		{"id": "notes", "text": "Notes?", "type": "text_input", "max_length": 5}]}`))
	_, err := form.Collect(f, map[string]any{"findings": map[string]any{"sqli": "fix", "race": "later"}, "notes": "too long"}, nil)
	probs, _ := err.(problem.List)
	got := FieldProblems(f, probs)
	want := map[string]string{
		"findings": `“Counter without a lock”: "later" is not one of the dispositions ("fix", "defer"); Give a ruling for “Unused import”.`,
		"assumed":  "Give every row a ruling.",
		"notes":    "is 8 characters, over the limit of 5",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FieldProblems (-want +got):\n%s\nfrom %v", diff, probs)
	}
	for id, msg := range got {
		if strings.Contains(msg, "row key") || strings.Contains(msg, "{") || strings.Contains(msg, `"race"`) {
			t.Errorf("%s: developer's words %q", id, msg)
		}
	}
	html := Render(f, nil).HTML
	if strings.Contains(html, "row key") || !strings.Contains(html, `data-r="Give every row a ruling."`) {
		t.Errorf("the widget's messages for an unanswered board are not the person's")
	}
}
