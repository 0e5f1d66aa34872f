package codex

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/markdown"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/internal/golden"
	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
)

func TestRenderGolden(t *testing.T) {
	for name, f := range formtest.All(t) {
		t.Run(name, func(t *testing.T) {
			golden.Check(t, name+".json", golden.JSON(t, Render(f)))
		})
	}
}

// TestRenderMatchesHostSchema validates every tool input (and every
// two-tier follow-up, sent as a call of its own) against the schema of
// request_user_input in hosts.md, and checks what a schema cannot say.
func TestRenderMatchesHostSchema(t *testing.T) {
	data, err := os.ReadFile("testdata/request_user_input.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	schema, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range formtest.All(t) {
		r := Render(f)
		var inputs []Input
		if r.ChangeSome != nil { // the one-tap confirm: one question, the form after it
			inputs = append(inputs, r.RequestUserInput...)
			r = r.ChangeSome
		}
		inputs = append(inputs, r.RequestUserInput...)
		for _, fu := range r.Followups {
			for _, g := range fu.Groups {
				inputs = append(inputs, Input{Questions: []Question{g.Question}})
			}
		}
		ids := map[string]bool{}
		for _, in := range inputs {
			raw, _ := json.Marshal(in)
			var v any
			json.Unmarshal(raw, &v)
			if err := schema.Validate(v); err != nil {
				t.Errorf("%s: %s does not match the host's schema: %v", name, raw, err)
			}
			for _, q := range in.Questions {
				if ids[q.ID] {
					t.Errorf("%s: question id %q used twice", name, q.ID)
				}
				ids[q.ID] = true
				if form.UTF16Len(q.Header) > maxHeader {
					t.Errorf("%s: header %q over 12 UTF-16 units", name, q.Header)
				}
				for i, o := range q.Options {
					if n := len(strings.Fields(o.Label)); n < 1 || n > 5 {
						t.Errorf("%s: %q label %q has %d words, want 1-5", name, q.ID, o.Label, n)
					}
					if strings.EqualFold(o.Label, "Other") {
						t.Errorf("%s: %q offers Other (the client adds it)", name, q.ID)
					}
					if i > 0 && strings.HasSuffix(o.Label, form.RecommendedSuffix) {
						t.Errorf("%s: %q recommends option %d, not the first", name, q.ID, i+1)
					}
				}
			}
		}
		asked := map[string]bool{}
		for _, p := range plans(f) {
			if p.Unsupported == "" {
				asked[p.Field.ID] = true
			}
		}
		for _, u := range r.Unsupported {
			carried := markdown.Carries(f.Field(u.QuestionID))
			if asked[u.QuestionID] || u.Reason == "" || carried != (u.Surface == "markdown") {
				t.Errorf("%s: bad unsupported entry %+v", name, u)
			}
			asked[u.QuestionID] = true
			inFollowup := r.MarkdownFollowup != nil && strings.Contains(r.MarkdownFollowup.Markdown, "`"+u.QuestionID+"`")
			if inFollowup != carried {
				t.Errorf("%s: %s in the markdown follow-up: %t", name, u.QuestionID, inFollowup)
			}
		}
		for _, fl := range f.Fields {
			if !asked[fl.ID] && !askedInParts(asked, &fl) {
				t.Errorf("%s: field %s dropped", name, fl.ID)
			}
		}
	}
}

func TestSnake(t *testing.T) {
	for in, want := range map[string]string{"done_when": "done_when", "Ship-Date": "ship_date", "a..b": "a_b", "2fa": "q_2fa", "_x_": "x"} {
		if got := snake(in); got != want {
			t.Errorf("snake(%q) = %q, want %q", in, got, want)
		}
	}
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [
		{"id": "a-b", "text": "1?", "type": "boolean"}, {"id": "a_b", "text": "2?", "type": "boolean"},
		{"id": "x", "text": "3?", "type": "single_select", "options": ["1", "2", "3", "4"]},
		{"id": "x_group_1", "text": "4?", "type": "boolean"}]}`))
	var ids []string
	for _, p := range plans(f) {
		ids = append(ids, p.Question.ID)
		for _, g := range p.Groups {
			ids = append(ids, g.Question.ID)
		}
	}
	want := []string{"a_b", "a_b_2", "x", "x_group_1_2", "x_group_2", "x_group_1"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
}

func TestAnswers(t *testing.T) {
	forms := formtest.All(t)
	tests := []struct {
		form    string
		answers []string
		want    map[string]any
	}{
		{"session-contract", []string{`{"mode": {"answers": ["Group 1"]}, "effort_cap": {"answers": ["2 hours"]}}`, `{"mode_group_1": {"answers": ["Fix what is broken"]}}`},
			map[string]any{"mode": "Fix what is broken", "effort_cap": "2 hours"}},
		{"session-contract", []string{`{"effort_cap": {"answers": ["an afternoon"]}}`}, map[string]any{"effort_cap": "an afternoon"}},
		{"decision", []string{`{"approach": {"answers": ["Verifiable backlog loop (Recommended)"]}}`}, map[string]any{"approach": "Verifiable backlog loop"}},
		{"pushback", []string{`{"retries": {"answers": ["Fixed 3x retry (your approach)"]}}`}, map[string]any{"retries": "Fixed 3x retry"}},
		{"progress-single", []string{`{"exec": {"answers": ["Not now"]}}`}, map[string]any{"exec": ""}},
		{"progress-single", []string{`{"exec": {"answers": ["T6 consumer wiring (Recommended)"]}}`}, map[string]any{"exec": "T6 consumer wiring"}},
		{"six", []string{`{"track": {"answers": []}, "notify": {"answers": ["No"]}}`}, map[string]any{"notify": "No"}},
	}
	for _, tt := range tests {
		f := forms[tt.form]
		var all []map[string]any
		for _, a := range tt.answers {
			var m map[string]any
			if err := json.Unmarshal([]byte(a), &m); err != nil {
				t.Fatal(err)
			}
			all = append(all, m)
		}
		got, err := Answers(f, all...)
		if err != nil {
			t.Errorf("%s: %v", tt.form, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.form, diff)
		}
	}
}

func TestAnswersProblems(t *testing.T) {
	f := formtest.All(t)["session-contract"]
	var a map[string]any
	json.Unmarshal([]byte(`{"mode": {"answers": ["Group 2"]}, "outcome": {"answers": ["x"]}, "effort_cap": "2 hours",
		"nope": {"answers": ["x"]}}`), &a)
	_, err := Answers(f, a, map[string]any{"effort_cap": map[string]any{"answers": []any{"a", "b"}}})
	want := []string{
		`answers["effort_cap"]: must be {"answers": ["<chosen label or your text>"]}, as request_user_input answers (got string "2 hours")`,
		`answers["nope"]: no question of this form has this id`,
		`answers["outcome"]: no question of this form has this id`,
		`answers["effort_cap"].answers: holds 2 answers; request_user_input asks for one`,
		`answers.mode: the first tier chose "Explore and learn – Review…" but its follow-up question (mode_group_2) was not answered`,
	}
	probs, _ := err.(problem.List)
	if diff := cmp.Diff(want, probs.Strings()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func FuzzAnswers(f *testing.F) {
	forms := formtest.All(f)
	f.Add(`{"mode": {"answers": ["Group 1"]}, "mode_group_1": {"answers": ["x"]}}`)
	f.Add(`{"exec": {"answers": ["Not now", 1]}}`)
	f.Fuzz(func(t *testing.T, doc string) {
		var m map[string]any
		if json.Unmarshal([]byte(doc), &m) != nil {
			return
		}
		for _, fm := range forms {
			answers, err := Answers(fm, m)
			if err != nil {
				if _, ok := err.(problem.List); !ok {
					t.Fatalf("error is %T", err)
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

// TestReportStyleNotNowSaysNothingBlocked: the second choice beside the
// only option of a report-style progress (a neutral digest: nothing is
// blocked) does not speak of leaving it blocked.
func TestReportStyleNotNowSaysNothingBlocked(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [{"id": "digest", "text": "Pull more on a topic?",
		"type": "progress", "progress_style": "report", "required": false, "options": ["Memory architecture"],
		"progress_items": [{"label": "Memory architecture", "status": "project context"}, {"label": "Old notes", "status": "archive"}]}]}`))
	opts := Render(f).RequestUserInput[0].Questions[0].Options
	if len(opts) != 2 || opts[1].Label != "Not now" {
		t.Fatalf("options = %+v, want the topic and Not now", opts)
	}
	if d := opts[1].Description; strings.Contains(strings.ToLower(d), "blocked") || d == "" {
		t.Errorf("Not now is described %q, want words for going no deeper", d)
	}
}

// TestOptionalSelectCanBeSkipped: an optional question with no default
// offers Skip where request_user_input's three options leave room, and
// choosing it is no answer.
func TestOptionalSelectCanBeSkipped(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [
		{"id": "two", "text": "Two?", "type": "single_select", "required": false, "options": ["a", "b"]},
		{"id": "three", "text": "Three?", "type": "single_select", "required": false, "options": ["a", "b", "c"]},
		{"id": "five", "text": "Five?", "type": "single_select", "required": false, "options": ["a", "b", "c", "d", "e"]},
		{"id": "must", "text": "Must?", "type": "boolean"}]}`))
	r := Render(f)
	skips := map[string]bool{}
	for _, in := range r.RequestUserInput {
		for _, q := range in.Questions {
			for _, o := range q.Options {
				if o.Label == "Skip" {
					skips[q.ID] = o.Description != ""
				}
			}
		}
	}
	if diff := cmp.Diff(map[string]bool{"two": true, "five": true}, skips); diff != "" {
		t.Errorf("questions with Skip (-want +got):\n%s", diff)
	}
	skip := map[string]any{"answers": []any{"Skip"}}
	got, err := Answers(f, map[string]any{"two": skip, "five": skip, "must": map[string]any{"answers": []any{"No"}}})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := form.Collect(f, got, nil)
	if err != nil || !cmp.Equal(map[string]any{"must": "No"}, resp.Responses) {
		t.Errorf("responses %v, %v; want only must", resp, err)
	}
}
