package form

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
)

// Label suffixes AskUserQuestion shows and collect strips again.
const (
	suffixRecommended  = " (Recommended)"
	suffixUserPosition = " (your approach)"
)

// askPlan is how one field is asked through AskUserQuestion; collect uses the
// same plan to map the tool's answers back.
type askPlan struct {
	field       *Field
	unsupported string
	options     []string // in asking order
	question    AskQuestion
	groups      []FollowupGroup
}

// planAsk decides how to ask f.
func planAsk(f *Field) *askPlan {
	p := new(askPlan)
	p.plan(f)
	return p
}

// plan fills p with how to ask f.
func (p *askPlan) plan(f *Field) {
	*p = askPlan{field: f}
	if p.unsupported = unsupportedReason(f); p.unsupported != "" {
		return
	}
	p.options = orderedOptions(f)
	if p.unsupported = optionsProblem(f, p.options); p.unsupported != "" {
		return
	}
	opts := p.askOptions()
	q := AskQuestion{Question: questionText(f), Header: header(f.ID), MultiSelect: f.Type == MultiSelect}
	if len(opts) <= AskMaxOptions {
		q.Options = opts
		p.question = q
		return
	}
	p.twoTier(q, opts)
}

// noControl says a rich type cannot be asked.
var noControl = map[Type]string{
	Number:   "AskUserQuestion has no number control",
	Date:     "AskUserQuestion has no date control",
	Textarea: "AskUserQuestion has no textarea control",
}

func unsupportedReason(f *Field) string {
	switch {
	case f.DisplayOnly():
		return "a display-only progress report has nothing to ask: narrate it, or show it on the widget"
	case f.Type.richControl():
		return noControl[f.Type]
	}
	return ""
}

func optionsProblem(f *Field, opts []string) string {
	switch n := len(opts); {
	case n == 0:
		return "free text with no suggestions: AskUserQuestion needs 2 to 4 options to show"
	case n == 1:
		return "only one option: AskUserQuestion needs 2 to 4"
	case n > TwoTierMax:
		return fmt.Sprintf("%d options: the two-tier picker offers at most %d", n, TwoTierMax)
	}
	if f.Type == MultiSelect {
		for _, o := range opts {
			if strings.Contains(o, ",") {
				return fmt.Sprintf("option %q contains a comma: AskUserQuestion joins multi-select answers with commas, so the answer could not be mapped back", o)
			}
		}
	}
	return ""
}

// recommendation is the option to put first and badge "(Recommended)": the
// construct's recommendation, or a single-choice field's default.
func recommendation(f *Field) string {
	if f.Recommended != "" {
		return f.Recommended
	}
	if s, ok := f.Default.(string); ok && f.Type != MultiSelect {
		return s
	}
	return ""
}

// orderedOptions lists what AskUserQuestion offers, recommendation first.
func orderedOptions(f *Field) []string {
	opts := f.Options
	switch f.Type {
	case Boolean:
		opts = []string{"Yes", "No"}
	case TextInput:
		if d, ok := f.Default.(string); ok && !contains(opts, d) {
			opts = append([]string{d}, opts...)
		}
	}
	rec := recommendation(f)
	if rec == "" || len(opts) == 0 || opts[0] == rec {
		return opts
	}
	out := make([]string, 0, len(opts))
	out = append(out, rec)
	for _, o := range opts {
		if o != rec {
			out = append(out, o)
		}
	}
	return out
}

// askOptions labels and describes the options.
func (p *askPlan) askOptions() []AskOption {
	rec := recommendation(p.field)
	out := make([]AskOption, len(p.options))
	for i, o := range p.options {
		out[i] = AskOption{Label: p.label(o, rec), Description: optionDescription(p.field, o)}
	}
	return out
}

// label is how AskUserQuestion shows option o: badged when it is the
// recommendation (rec) of a single choice, and when it is the user's own
// position.
func (p *askPlan) label(o, rec string) string {
	label := o
	if o == rec && p.field.Type != MultiSelect {
		label += suffixRecommended
	}
	if o == p.field.UserPosition {
		label += suffixUserPosition
	}
	return label
}

func optionDescription(f *Field, o string) string {
	note := f.OptionNotes[o]
	if note == "" && f.Type == Progress {
		for _, it := range f.ProgressItems {
			if it.Label == o {
				note = it.Detail
			}
		}
	}
	if f.Inferred() && isDefault(f, o) {
		note = joinNonEmpty(" ", note, "Guessed from "+f.InferredFrom+".")
	}
	return note
}

func isDefault(f *Field, o string) bool {
	switch d := f.Default.(type) {
	case string:
		return d == o
	case []string:
		return contains(d, o)
	}
	return false
}

// twoTier splits more than 4 options into 2-4 balanced groups: the first
// tier picks a group, the follow-up picks within it.
func (p *askPlan) twoTier(q AskQuestion, opts []AskOption) {
	n := len(opts)
	g := (n + AskMaxOptions - 1) / AskMaxOptions
	tier1 := q
	tier1.Question = q.Question + " (choose a group first)"
	tier1.Options = make([]AskOption, 0, g)
	start := 0
	for k := range g {
		end := start + n/g
		if k < n%g {
			end++
		}
		group := opts[start:end]
		label := fmt.Sprintf("Group %d", k+1)
		tier1.Options = append(tier1.Options, AskOption{Label: label, Description: groupDescription(group)})
		second := q
		second.Question = fmt.Sprintf("%s (%s)", q.Question, label)
		second.Options = group
		p.groups = append(p.groups, FollowupGroup{Label: label, Question: second})
		start = end
	}
	p.question = tier1
}

func groupDescription(group []AskOption) string {
	labels := make([]string, len(group))
	for i, o := range group {
		labels[i] = o.Label
	}
	return strings.Join(labels, "; ")
}

func (p *askPlan) followup() Followup {
	return Followup{QuestionID: p.field.ID, After: p.question.Question, Groups: p.groups}
}

// questionText folds what the host cannot show beside a question into it:
// a construct's rationale as the lead-in, a progress report's statuses, and
// the help text.
func questionText(f *Field) string {
	q := f.Text
	switch f.Type {
	case Decision:
		q = joinNonEmpty(" ", f.Rationale, q)
	case Pushback:
		if f.Rationale != "" {
			q = "I'd push back: " + f.Rationale + " " + q
		}
	case Progress:
		q = progressText(f)
	}
	if f.HelpText != "" {
		q += " (" + f.HelpText + ")"
	}
	return q
}

func progressText(f *Field) string {
	var report string
	if f.ProgressStyle == "report" {
		parts := make([]string, len(f.ProgressItems))
		for i, it := range f.ProgressItems {
			parts[i] = fmt.Sprintf("%s [%s]", itemText(it), it.Status)
		}
		report = strings.Join(parts, "; ") + "."
	} else {
		report = taskReport(f.ProgressItems)
	}
	q := f.Text + " — " + report
	q = joinNonEmpty(" ", q, f.Rationale)
	if f.ProgressStyle != "report" && !strings.HasSuffix(strings.TrimSpace(f.Text), "?") {
		q += " Which blocked item should we tackle next?"
	}
	return q
}

func taskReport(items []ProgressItem) string {
	var parts []string
	for _, s := range []struct{ status, name string }{{StatusDone, "done"}, {StatusInFlight, "in flight"}, {StatusBlocked, "blocked"}} {
		var labels []string
		for _, it := range items {
			if it.Status == s.status {
				labels = append(labels, itemText(it))
			}
		}
		if len(labels) > 0 {
			parts = append(parts, s.name+": "+strings.Join(labels, ", "))
		}
	}
	return strings.Join(parts, "; ") + "."
}

func itemText(it ProgressItem) string {
	if it.Detail == "" {
		return it.Label
	}
	return it.Label + " (" + it.Detail + ")"
}

// header derives the chip label from the field id: words capitalized, at
// most 12 characters (UTF-16 units, as the host counts), cut at a word
// boundary where one exists.
func header(id string) string {
	words := strings.FieldsFunc(id, func(r rune) bool { return r == '_' || r == '-' || r == '.' || unicode.IsSpace(r) })
	if len(words) == 0 {
		return "Question"
	}
	out := ""
	for _, w := range words {
		next := joinNonEmpty(" ", out, w)
		if utf16Len(next) > AskMaxHeader {
			break
		}
		out = next
	}
	if out == "" {
		out = cutUTF16(words[0], AskMaxHeader)
	}
	r := []rune(out)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

func cutUTF16(s string, max int) string {
	n := 0
	for i, r := range s {
		if n+utf16.RuneLen(r) > max {
			return s[:i]
		}
		n += utf16.RuneLen(r)
	}
	return s
}
