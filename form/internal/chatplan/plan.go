// Package chatplan is how the chat-tool surfaces plan a field: form/ask
// for Claude Code's AskUserQuestion and form/codex for Codex's
// request_user_input, each over its own question type. Each surface's
// answer reader maps the tool's answers back with the same plans.
package chatplan

import "github.com/elicit/elicit/form"

// Plan is how one field is asked through a chat tool whose questions are
// of type Q.
type Plan[Q any] struct {
	Field *form.Field
	// Unsupported says why the tool cannot ask Field ("" when it can).
	Unsupported string
	// Choice is the field's options in asking order and their labels
	// (form.ChatChoice); its badge marks the recommended option.
	Choice *form.ChatChoice
	// Question is what the tool asks: for a two-tier picker, the first
	// tier.
	Question Q
	// Groups are a two-tier picker's second tier, one question per group;
	// nil when the options fit one question.
	Groups []form.FollowupGroup[Q]
	// Edit says the question is an assumption's: "Other" text is the
	// corrected assumption.
	Edit bool
}

// Followup is the plan's second tier, asked after the first-tier question
// the tool knows as after.
func (p *Plan[Q]) Followup(after string) form.Followup[Q] {
	return form.Followup[Q]{QuestionID: p.Field.ID, After: after, Groups: p.Groups}
}

// Reports are the entries of us that are display-only reports of f (a
// progress with nothing to pick), which a chat tool's one-tap confirm of
// f's guesses leaves to the markdown follow-up, and their ids.
func Reports(f *form.Form, us []form.Unsupported) ([]form.Unsupported, []string) {
	out, ids := []form.Unsupported{}, []string(nil)
	for _, u := range us {
		if fl := f.Field(u.QuestionID); fl != nil && fl.DisplayOnly() {
			out = append(out, u)
			ids = append(ids, u.QuestionID)
		}
	}
	return out, ids
}

// OnlyReports reports whether every entry of us is a display-only report
// of f: a render that asks one question and has only these beside it is
// one tap already.
func OnlyReports(f *form.Form, us []form.Unsupported) bool {
	reports, _ := Reports(f, us)
	return len(reports) == len(us)
}
