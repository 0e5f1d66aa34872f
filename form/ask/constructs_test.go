package ask

import (
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/google/go-cmp/cmp"
)

// TestConstructRoundTrip answers every question a construct expands into
// the way AskUserQuestion reports it (by question text, labels with their
// badges, "Other" text) and checks that collect folds them back.
func TestConstructRoundTrip(t *testing.T) {
	tests := []struct {
		form    string
		answers func(r *Result) map[string]any
		want    map[string]any
	}{
		{"triage", func(r *Result) map[string]any {
			qs := r.AskUserQuestion[0].Questions
			return map[string]any{qs[0].Question: "fix now (Suggested)", qs[1].Question: "defer", qs[2].Question: "dismiss"}
		}, map[string]any{"findings": map[string]string{"sqli": "fix now", "Unused import in the util package": "defer", "race": "dismiss"}}},
		{"assumptions", func(r *Result) map[string]any {
			qs := r.AskUserQuestion[0].Questions
			return map[string]any{qs[0].Question: "accept (Suggested)", qs[1].Question: "PostgreSQL and Redis", qs[2].Question: "reject"}
		}, map[string]any{"assumed": map[string]any{"go": "accept", "db": map[string]any{"edit": "PostgreSQL and Redis"}, "Deploys go through the CI pipeline": "reject"}}},
		{"ranking", func(r *Result) map[string]any {
			qs := r.AskUserQuestion[0].Questions
			hires1, hires2 := r.Followups[0].Groups, r.Followups[1].Groups
			return map[string]any{
				qs[0].Question: "Onboarding", qs[1].Question: "Reliability", qs[2].Question: "Performance (Suggested)",
				qs[3].Question: "Group 1", hires1[0].Question.Question: "SRE",
				r.AskUserQuestion[1].Questions[0].Question: "Group 2", hires2[1].Question.Question: "Data",
			}
		}, map[string]any{"themes": []string{"Onboarding", "Reliability", "Performance"}, "hires": []string{"SRE", "Data"}}},
		{"confirm", func(r *Result) map[string]any {
			qs := r.AskUserQuestion[0].Questions
			return map[string]any{qs[0].Question: "Abort", qs[1].Question: "Deploy"}
		}, map[string]any{"drop": "Abort", "deploy": "Deploy"}},
		{"deliberation", func(r *Result) map[string]any {
			return map[string]any{r.AskUserQuestion[0].Questions[0].Question: "PostgreSQL (Recommended)"}
		}, map[string]any{"engine": "PostgreSQL"}},
	}
	for _, tt := range tests {
		t.Run(tt.form, func(t *testing.T) {
			f := formtest.MustParse(t, formtest.Forms(t)[tt.form])
			answers, err := Answers(f, tt.answers(Render(f)))
			if err != nil {
				t.Fatal(err)
			}
			r, err := form.Collect(f, answers, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, r.Responses); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
		})
	}
}

// TestConstructUnsupported checks that a construct AskUserQuestion cannot
// carry whole is listed as unsupported, never asked in part.
func TestConstructUnsupported(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [
		{"id": "r", "text": "Rank them", "type": "ranking", "options": ["a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q"], "top_n": 2},
		{"id": "t", "text": "Rule", "type": "triage", "triage_items": [{"label": "x"}], "dispositions": ["fix, now", "later"]},
		{"id": "ok", "text": "OK?", "type": "boolean"}]}`))
	r := Render(f)
	want := []form.Unsupported{
		{QuestionID: "r", Type: form.Ranking, Reason: "rank 1 of 2: 17 options: the two-tier picker offers at most 16", Surface: "markdown"},
	}
	if diff := cmp.Diff(want, r.Unsupported); diff != "" {
		t.Errorf("unsupported (-want +got):\n%s", diff)
	}
	if len(r.Batches) != 1 || len(r.Batches[0]) != 2 {
		t.Errorf("batches = %+v, want the triage row and the boolean", r.Batches)
	}
}

// TestDuplicateQuestionTexts checks that two fields asking the same text
// (attune-forms allows it) are told apart on AskUserQuestion, whose answers
// are keyed by question text, and map back to their own fields.
func TestDuplicateQuestionTexts(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [
		{"id": "a", "type": "single_select", "text": "Which?", "options": ["x", "y"]},
		{"id": "b", "type": "single_select", "text": "Which?", "options": ["x", "y"]}]}`))
	qs := Render(f).AskUserQuestion[0].Questions
	if qs[0].Question != "Which?" || qs[1].Question != "Which? [b]" {
		t.Fatalf("questions %q, %q", qs[0].Question, qs[1].Question)
	}
	got, err := Answers(f, map[string]any{"Which?": "x", "Which? [b]": "y"})
	if err != nil || got["a"] != "x" || got["b"] != "y" {
		t.Errorf("answers = %v, %v", got, err)
	}
}
