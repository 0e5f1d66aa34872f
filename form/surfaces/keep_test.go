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
)

// regionForm is a 5-option select (a two-tier picker on AskUserQuestion
// and request_user_input) and a boolean.
func regionForm(t *testing.T) *form.Form {
	t.Helper()
	f, err := form.Parse([]byte(`{"title": "Deploy", "fields": [
		{"id": "region", "text": "Which region?", "type": "single_select",
		 "options": ["eu-west", "eu-north", "us-east", "us-west", "ap-south"]},
		{"id": "ok", "text": "Enable backups?", "type": "boolean"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// firstTier is the region's first-tier question and its first group's label.
func firstTier(t *testing.T, r *ask.Result) (question, group string) {
	t.Helper()
	for _, in := range r.AskUserQuestion {
		for _, q := range in.Questions {
			if strings.HasPrefix(q.Question, "Which region?") {
				return q.Question, q.Options[0].Label
			}
		}
	}
	t.Fatalf("no first tier for region in %+v", r.AskUserQuestion)
	return "", ""
}

func failure(t *testing.T, err error) *Failure {
	t.Helper()
	var fail *Failure
	if !errors.As(err, &fail) {
		t.Fatalf("collect error = %v, want a *Failure", err)
	}
	return fail
}

// TestCollectKeepsEveryAnswerThatHolds: one problem in a document (a
// two-tier picker's second tier not asked yet, a question text no question
// has, a wrong value) costs only its own field; the other answers of the
// same document are kept and never re-asked.
func TestCollectKeepsEveryAnswerThatHolds(t *testing.T) {
	f := regionForm(t)
	q, group := firstTier(t, ask.Render(f))
	for _, c := range []struct {
		name, doc  string
		wantReask  []string
		wantInProb string
	}{
		{"second tier not asked", `{"answers": {"` + q + `": "` + group + `", "Enable backups?": "Yes"}}`, []string{"region"}, "follow-up"},
		{"unknown question text", `{"answers": {"Which regin? (choose a group first)": "x", "Enable backups?": "Yes"}}`, []string{"region"}, `closest: "` + q + `"`},
		{"by id, one wrong value", `{"region": "mars", "ok": "Yes"}`, []string{"region"}, "mars"},
		{"by id, unknown key", `{"regoin": "eu-west", "ok": "Yes"}`, []string{"region"}, "regoin"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Collect(f, []Document{{Name: "answers", Data: []byte(c.doc)}}, nil)
			fail := failure(t, err)
			if fail.Reask == nil || !slices.Equal(fail.Reask.FieldIDs, c.wantReask) {
				t.Errorf("re-ask %+v, want only %v", fail.Reask, c.wantReask)
			}
			if fail.Kept["ok"] != "Yes" {
				t.Errorf("kept %v, want ok: true kept", fail.Kept)
			}
			if !strings.Contains(fail.Problems.Error(), c.wantInProb) {
				t.Errorf("problems %q do not mention %q", fail.Problems.Error(), c.wantInProb)
			}
			for _, p := range fail.Problems {
				if strings.Contains(p.Path, "answers.ok") {
					t.Errorf("a problem about the answered ok: %s", p)
				}
			}
		})
	}
}

// TestCollectContinuesFromKept: round two passes the kept answers back and
// only the new ones; the result is the validated whole, and a new answer to
// a kept field replaces it (the person changed their mind).
func TestCollectContinuesFromKept(t *testing.T) {
	f := regionForm(t)
	_, err := Collect(f, []Document{{Name: "answers", Data: []byte(`{"region": "mars", "ok": "Yes"}`)}}, nil)
	kept, _ := json.Marshal(failure(t, err).Kept)
	r, err := Collect(f, []Document{{Name: "continue", Format: FormatJSON, Data: kept, Kept: true},
		{Name: "reply", Data: []byte("region: us-east")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Responses["region"] != "us-east" || r.Responses["ok"] != "yes" && r.Responses["ok"] != "Yes" {
		t.Errorf("answers %v, want region us-east and ok true", r.Responses)
	}
	r, err = Collect(f, []Document{{Name: "continue", Format: FormatJSON, Data: kept, Kept: true},
		{Name: "answers", Data: []byte(`{"region": "eu-west", "ok": "No"}`)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Responses["ok"] != "no" && r.Responses["ok"] != "No" {
		t.Errorf("ok = %v, want the new answer false to replace the kept true", r.Responses["ok"])
	}
}

// TestReaskSpeaksTheSurface: a re-ask for codex is request_user_input's,
// for ask AskUserQuestion's, for markdown the chat message, each with only
// the payload for its surface.
func TestReaskSpeaksTheSurface(t *testing.T) {
	f := regionForm(t)
	_, err := Collect(f, []Document{{Name: "answers", Data: []byte(`{"region": "mars", "ok": "Yes"}`)}}, nil)
	probs := failure(t, err).Problems
	codexIDs := map[string]bool{}
	for _, in := range codex.Render(f).RequestUserInput {
		for _, q := range in.Questions {
			codexIDs[q.ID] = true
		}
	}
	for _, s := range []form.Surface{form.SurfaceCodex, form.SurfaceAsk, form.SurfaceMarkdown} {
		r := NewReask(f, probs, s)
		if r.Surface != s || !slices.Equal(r.FieldIDs, []string{"region"}) {
			t.Errorf("%s: re-ask %+v", s, r)
		}
		switch s {
		case form.SurfaceCodex:
			if len(r.RequestUserInput) == 0 || len(r.AskUserQuestion) > 0 || r.Markdown != "" {
				t.Errorf("codex re-ask is not request_user_input only: %+v", r)
			}
			for _, in := range r.RequestUserInput {
				for _, q := range in.Questions {
					if !codexIDs[q.ID] {
						t.Errorf("codex re-ask asks %q, which the form's render does not", q.ID)
					}
				}
			}
		case form.SurfaceAsk:
			if len(r.AskUserQuestion) == 0 || len(r.RequestUserInput) > 0 || r.Markdown != "" || r.Followups == nil {
				t.Errorf("ask re-ask is not AskUserQuestion with follow-ups only: %+v", r)
			}
		case form.SurfaceMarkdown:
			if r.Markdown == "" || len(r.AskUserQuestion) > 0 || !strings.Contains(r.Markdown, "mars") {
				t.Errorf("markdown re-ask is not the chat message with the problem: %+v", r)
			}
		}
	}
}

// TestNoPreference: Claude Code's "[No preference]" (a skipped question)
// leaves an optional field unanswered and re-asks a required one, keeping
// the rest.
func TestNoPreference(t *testing.T) {
	f, err := form.Parse([]byte(`{"title": "T", "fields": [
		{"id": "size", "text": "Which size?", "type": "single_select", "options": ["S", "M"], "required": false},
		{"id": "color", "text": "Which color?", "type": "single_select", "options": ["red", "blue"]},
		{"id": "ok", "text": "Ship it?", "type": "boolean"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	text := `The user answered: "Which size?"="[No preference]", "Which color?"="[No preference]", "Ship it?"="Yes".`
	_, err = Collect(f, []Document{{Name: "reply", Data: []byte(text)}}, nil)
	fail := failure(t, err)
	if !slices.Equal(fail.Reask.FieldIDs, []string{"color"}) || fail.Kept["ok"] != "Yes" {
		t.Errorf("re-ask %v, kept %v: want only color re-asked and ok kept", fail.Reask.FieldIDs, fail.Kept)
	}
	if !strings.Contains(fail.Problems.Error(), "skipped ([No preference]), but it is required") {
		t.Errorf("problems: %v", fail.Problems)
	}
	r, err := Collect(f, []Document{{Name: "reply", Data: []byte(text)}, {Name: "again", Data: []byte(`"Which color?"="blue"`)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, answered := r.Responses["size"]; answered || r.Responses["color"] != "blue" {
		t.Errorf("responses %v: want size skipped, color blue", r.Responses)
	}
}
