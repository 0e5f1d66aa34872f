package codex

import (
	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/internal/chatplan"
	"github.com/elicit/elicit/form/markdown"
)

// The one-tap confirm (form/confirmall.go) on request_user_input: a form
// whose every question is a guess is asked as one question showing every
// guess, "Keep all (Recommended)" or "Change some", unless the whole form
// is already one question (its guess first and recommended). The whole
// form's render is ChangeSome, to ask after "Change some".

// confirmPlan is the confirm of f, whose questions are planned as ps, or
// nil when f is not all guesses. Its id is form.ConfirmID, numbered when a
// question has it.
func confirmPlan(f *form.Form, ps []*plan) *plan {
	if !f.AllGuessed() {
		return nil
	}
	used := map[string]bool{}
	for _, p := range ps {
		used[p.Question.ID] = true
		for _, g := range p.Groups {
			used[g.Question.ID] = true
		}
	}
	c := form.NewConfirmChoice(f, uniqueID(form.ConfirmID, used))
	keep, change := form.ConfirmNotes()
	q := Question{ID: c.Field.ID, Header: form.ConfirmHeader, Question: c.Field.Text, Options: []Option{
		{Label: c.Label(form.KeepAll), Description: keep},
		{Label: c.Label(form.ChangeSome), Description: change},
	}}
	return &plan{chatplan.Plan[Question]{Field: c.Field, Choice: c, Question: q}}
}

// confirmAll is full, the render of an all-guessed form f planned as ps,
// as its one-tap confirm, or nil when f is not all guesses or full is one
// question already. Display-only reports stay in the markdown follow-up.
func confirmAll(f *form.Form, ps []*plan, full *Result) *Result {
	if !f.AllGuessed() || oneTap(f, full) {
		return nil
	}
	p := confirmPlan(f, ps)
	r := &Result{Success: true, Title: f.Title, Description: f.Description,
		RequestUserInput: []Input{{Questions: []Question{p.Question}}}, ChangeSome: full}
	var reports []string
	r.Unsupported, reports = chatplan.Reports(f, full.Unsupported)
	r.MarkdownFollowup = markdown.NewFollowup(f, reports, followupLead)
	return r
}

// oneTap reports whether a render of f asks one question and nothing else
// (but reports to narrate).
func oneTap(f *form.Form, r *Result) bool {
	if len(r.RequestUserInput) != 1 || len(r.RequestUserInput[0].Questions) != 1 || len(r.Followups) > 0 {
		return false
	}
	return chatplan.OnlyReports(f, r.Unsupported)
}
