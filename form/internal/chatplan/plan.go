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
