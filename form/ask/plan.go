package ask

import (
	"fmt"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/internal/chatplan"
)

// plan is how one field is asked through AskUserQuestion; the answer reader
// uses the same plan to map the tool's answers back. Its choice's badge
// marks the recommended option: form.RecommendedSuffix, or
// form.SuggestedSuffix for the questions a construct expands into.
type plan struct{ chatplan.Plan[Question] }

// askedFields are the form's fields as AskUserQuestion asks them: a field
// whose question text an earlier field already has gets its id appended
// ("Which? [b]"), since the tool's answers come back keyed by question text.
func askedFields(f *form.Form) []*form.Field {
	out := make([]*form.Field, len(f.Fields))
	seen := make(map[string]bool, len(f.Fields))
	for i := range f.Fields {
		fl := &f.Fields[i]
		if seen[fl.Text] {
			c := *fl
			c.Text += " [" + fl.ID + "]"
			fl = &c
		}
		seen[fl.Text] = true
		out[i] = fl
	}
	return out
}

// planFor decides how to ask f.
func planFor(f *form.Field) *plan {
	p := new(plan)
	p.plan(f)
	return p
}

// plan fills p with how to ask f: its question, with Skip where it fits.
func (p *plan) plan(f *form.Field) {
	p.planAs(f, form.RecommendedSuffix)
	p.addSkip()
}

// addSkip offers Skip on an optional question with no default where it has
// room: beside its options, or beside a two-tier picker's groups. (The
// rows and slots of a construct get none: the construct is skipped whole.)
func (p *plan) addSkip() {
	if p.Unsupported != "" || !p.Choice.Skippable() || len(p.Question.Options) >= maxOptions {
		return
	}
	p.Question.Options = append(p.Question.Options, Option{Label: form.SkipLabel, Description: form.SkipNote})
	p.Choice.Skip = true
}

// planAs fills p with how to ask f, marking its recommendation with badge.
func (p *plan) planAs(f *form.Field, badge string) {
	*p = plan{chatplan.Plan[Question]{Field: f, Choice: form.NewChatChoice(f, badge)}}
	if p.Unsupported = unsupportedReason(f); p.Unsupported != "" {
		return
	}
	if p.Unsupported = optionsProblem(f, p.Choice.Options); p.Unsupported != "" {
		return
	}
	opts := p.askOptions()
	q := Question{Question: questionText(f), Header: form.Header(f.ID, maxHeader), MultiSelect: f.Type == form.MultiSelect}
	if len(opts) <= maxOptions {
		q.Options = opts
		p.Question = q
		return
	}
	p.twoTier(q, opts)
}

// noControl says why a rich type cannot be asked ("" for the others).
func noControl(t form.Type) string {
	switch t {
	case form.Number:
		return "AskUserQuestion has no number control"
	case form.Date:
		return "AskUserQuestion has no date control"
	case form.Textarea:
		return "AskUserQuestion has no textarea control"
	}
	return ""
}

func unsupportedReason(f *form.Field) string {
	switch {
	case f.DisplayOnly():
		return "a display-only progress report has nothing to ask: narrate it (the markdown follow-up shows it)"
	case f.Type.RichControl():
		return noControl(f.Type)
	case f.IsPath():
		return pathUnsupported
	}
	return ""
}

// pathUnsupported says why a path field is asked as text instead: the
// person types the path (the widget and the local page offer a picker).
const pathUnsupported = "a path is typed: AskUserQuestion has no text box beside its options (the widget offers a path picker)"

func optionsProblem(f *form.Field, opts []string) string {
	switch n := len(opts); {
	case n == 0:
		return "free text with no suggestions: AskUserQuestion needs 2 to 4 options to show"
	case n == 1:
		return "only one option: AskUserQuestion needs 2 to 4"
	case n > twoTierMax:
		return fmt.Sprintf("%d options: the two-tier picker offers at most %d", n, twoTierMax)
	}
	if f.Type == form.MultiSelect {
		for _, o := range opts {
			if strings.Contains(o, ",") {
				return fmt.Sprintf("option %q contains a comma: AskUserQuestion joins multi-select answers with commas, so the answer could not be mapped back", o)
			}
		}
	}
	return ""
}

// askOptions labels and describes the options.
func (p *plan) askOptions() []Option {
	out := make([]Option, len(p.Choice.Options))
	for i, o := range p.Choice.Options {
		out[i] = Option{Label: p.Choice.Label(o), Description: form.Sentences(fullText(p.Choice, o), p.Field.OptionNote(o), p.Field.EndorsementNote(o), p.Field.DefaultNote(o), p.Field.GuessNote(o))}
		if o == form.NotNow && p.Field.NeedsNotNow() {
			out[i].Description = p.Field.NotNowNote()
		}
	}
	return out
}

// fullText is option o's whole text when its label is cut to the host's
// 1-5 words, for its description; else "".
func fullText(c *form.ChatChoice, o string) string {
	if c.Shortened(o) {
		return o
	}
	return ""
}

// twoTier splits more than 4 options into 2-4 balanced groups: the first
// tier picks a group, the follow-up picks within it.
func (p *plan) twoTier(q Question, opts []Option) {
	sizes := form.Groups(len(opts), maxOptions)
	p.Choice.SetGroups(sizes)
	tier1 := q
	tier1.Question = q.Question + tierOneSuffix
	tier1.Options = make([]Option, 0, len(sizes))
	start := 0
	for k, size := range sizes {
		end := start + size
		group := opts[start:end]
		label := p.Choice.GroupNames[k]
		tier1.Options = append(tier1.Options, Option{Label: label, Description: groupDescription(group)})
		second := q
		second.Question = groupQuestion(q, label)
		second.Options = group
		p.Groups = append(p.Groups, followupGroup{Label: label, Question: second})
		start = end
	}
	p.Question = tier1
}

// groupQuestion is the second tier's question for the group named label.
func groupQuestion(q Question, label string) string {
	return fmt.Sprintf("%s (%s)", q.Question, label)
}

// legacyGroupQuestion is group k's second-tier question as elicit asked it
// before groups were named by their options ("Which region? (Group 1)"),
// read back still.
func legacyGroupQuestion(p *plan, k int) string {
	return strings.TrimSuffix(p.Question.Question, tierOneSuffix) + " (" + form.GroupLabel(k) + ")"
}

// tierOneSuffix ends the first tier's question.
const tierOneSuffix = " (choose a group first)"

func groupDescription(group []Option) string {
	labels := make([]string, len(group))
	for i, o := range group {
		labels[i] = o.Label
	}
	return strings.Join(labels, "; ")
}

// questionText folds what the host cannot show beside a question into it:
// a construct's rationale as the lead-in, a progress report's statuses, and
// the help text.
func questionText(f *form.Field) string {
	q := f.Text
	switch f.Type {
	case form.Decision:
		q = joinNonEmpty(" ", f.Rationale, q)
	case form.Pushback:
		if f.Rationale != "" {
			q = "I'd push back: " + f.Rationale + " " + q
		}
	case form.Progress:
		q = progressText(f)
	case form.Deliberation:
		if f.Rationale != "" {
			q = "Synthesis: " + f.Rationale + " " + q
		}
	case form.Confirm:
		q = joinNonEmpty(" ", q, f.ConsequenceReport(), f.Rationale)
	}
	if f.HelpText != "" {
		q += " (" + f.HelpText + ")"
	}
	return q
}

func progressText(f *form.Field) string {
	q := joinNonEmpty(" ", f.Text+" — "+f.ProgressReport(), f.Rationale)
	if f.ProgressStyle != "report" && !strings.HasSuffix(strings.TrimSpace(f.Text), "?") {
		q += " Which blocked item should we tackle next?"
	}
	return q
}
