package ask

import (
	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/internal/chatplan"
	"github.com/elicit/elicit/form/markdown"
)

// The one-tap confirm (form/confirmall.go) on AskUserQuestion: a form whose
// every question is a guess is asked as one question showing every guess,
// "Keep all (Recommended)" or "Change some", unless the whole form is
// already one single-choice question (its guess first and recommended: one
// tap either way). The whole form's render is ChangeSome, to ask after
// "Change some".

// confirmPlan is the confirm of f, or nil when f is not all guesses. The
// reader indexes it for every such form (its text is no field's).
func confirmPlan(f *form.Form) *plan {
	if !f.AllGuessed() {
		return nil
	}
	c := form.NewConfirmChoice(f, form.ConfirmID)
	keep, change := form.ConfirmNotes()
	q := Question{Question: c.Field.Text, Header: form.ConfirmHeader, Options: []Option{
		{Label: c.Label(form.KeepAll), Description: keep},
		{Label: c.Label(form.ChangeSome), Description: change},
	}}
	return &plan{chatplan.Plan[Question]{Field: c.Field, Choice: c, Question: q}}
}

// confirmAll is full, the render of an all-guessed form f, as its one-tap
// confirm, or nil when f is not all guesses or full is one tap already.
// Display-only reports stay in the markdown follow-up.
func confirmAll(f *form.Form, full *Result) *Result {
	if !f.AllGuessed() || oneTap(f, full) {
		return nil
	}
	p := confirmPlan(f)
	r := &Result{Success: true, Title: f.Title, Description: f.Description,
		Batches: [][]Payload{{{QuestionID: form.ConfirmID, Question: p.Question.Question, Type: string(form.SingleSelect),
			Options: p.Choice.Options, Default: form.KeepAll,
			HelpText: "Every answer is a guess: keep them all, or change some (then each question is asked: change_some)."}}},
		AskUserQuestion: []Input{{Questions: []Question{p.Question}}}, ChangeSome: full}
	var reports []string
	r.Unsupported, reports = chatplan.Reports(f, full.Unsupported)
	r.MarkdownFollowup = markdown.NewFollowup(f, reports, followupLead)
	return r
}

// oneTap reports whether a render of f asks one single-choice question
// and nothing else (but reports to narrate).
func oneTap(f *form.Form, r *Result) bool {
	if len(r.AskUserQuestion) != 1 || len(r.AskUserQuestion[0].Questions) != 1 || len(r.Followups) > 0 {
		return false
	}
	return chatplan.OnlyReports(f, r.Unsupported) && !r.AskUserQuestion[0].Questions[0].MultiSelect
}
