package codex

import (
	"fmt"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/internal/chatplan"
	"github.com/elicit/elicit/form/markdown"
)

// The limits of the Codex CLI's request_user_input tool (codex 0.171).
const (
	maxQuestions = 3
	minOptions   = 2
	maxOptions   = 3
	maxHeader    = 12
	// twoTierMax is the most options the two-tier picker offers: 3 groups
	// of 3.
	twoTierMax = maxOptions * maxOptions
)

// Result is a form rendered for request_user_input.
type Result struct {
	Success     bool   `json:"success"`
	Title       string `json:"title"`
	Description string `json:"description"`
	// RequestUserInput holds one ready-to-send tool input per call.
	RequestUserInput []Input `json:"request_user_input"`
	// Followups are the second tier of two-tier pickers, to ask after the
	// first tier's answer.
	Followups []followup `json:"followups,omitempty"`
	// Unsupported lists the fields the tool cannot ask, with why and which
	// surface can.
	Unsupported []form.Unsupported `json:"unsupported"`
	// MarkdownFollowup asks those fields in one chat message.
	MarkdownFollowup *markdown.Followup `json:"markdown_followup,omitempty"`
	// ChangeSome, for a form whose every question is a guess, is the whole
	// form's render: RequestUserInput then holds one question that shows
	// every guess (Keep all, or Change some), and ChangeSome is what to ask
	// after "Change some".
	ChangeSome *Result `json:"change_some,omitempty"`
	// Problems, for a form that breaks a definition rule (see
	// form.Validate), name every problem; Success is then false and nothing
	// else is rendered.
	Problems []string `json:"problems,omitempty"`
}

// Input is one request_user_input call: {questions: [...]}.
type Input struct {
	Questions []Question `json:"questions"`
}

// Question is one question of a call. Every key is required and no other
// is allowed.
type Question struct {
	ID       string   `json:"id"`
	Header   string   `json:"header"`
	Question string   `json:"question"`
	Options  []Option `json:"options"`
}

// Option is one option: a label of 1-5 words and a one-sentence
// description, both required.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// followup is the second tier of a two-tier picker: when the first tier's
// answer is a group's label, ask that group's question. After is the first
// tier's question id.
type followup = form.Followup[Question]

// followupGroup is the question to ask when the first tier's answer is Label.
type followupGroup = form.FollowupGroup[Question]

// Render renders f for request_user_input. Fields the tool cannot ask are
// listed in Unsupported and asked in the markdown follow-up instead. A form
// whose every question is a guess is one question confirming them all, the
// whole form in ChangeSome (confirm.go).
//
// A form that breaks a definition rule is not rendered: Success is false and
// Problems names every problem.
func Render(f *form.Form) *Result {
	if err := f.Check(); err != nil {
		return &Result{Problems: form.ProblemStrings(err), RequestUserInput: []Input{}, Unsupported: []form.Unsupported{}}
	}
	ps := plans(f)
	r := render(f, ps)
	if c := confirmAll(f, ps, r); c != nil {
		return c
	}
	return r
}

// render renders f, whose questions are planned as ps.
func render(f *form.Form, ps []*plan) *Result {
	r := &Result{Success: true, Title: f.Title, Description: f.Description,
		RequestUserInput: []Input{}, Unsupported: []form.Unsupported{}}
	var batch []Question
	var ids []string
	for _, p := range ps {
		if p.Unsupported != "" {
			r.Unsupported = append(r.Unsupported, form.UnsupportedHere(p.Field, p.Unsupported, markdown.FollowupSurface(p.Field)))
			ids = append(ids, p.Field.ID)
			continue
		}
		batch = append(batch, p.Question)
		if len(p.Groups) > 0 {
			r.Followups = append(r.Followups, p.Followup(p.Question.ID))
		}
		if len(batch) == maxQuestions {
			r.RequestUserInput = append(r.RequestUserInput, Input{Questions: batch})
			batch = nil
		}
	}
	if len(batch) > 0 {
		r.RequestUserInput = append(r.RequestUserInput, Input{Questions: batch})
	}
	r.MarkdownFollowup = markdown.NewFollowup(f, ids, followupLead)
	return r
}

// followupLead introduces the markdown follow-up of the tool's questions.
const followupLead = "A few more questions that need a typed answer: reply in one message."

// plan is how one field is asked; the answer reader uses the same plans.
type plan struct{ chatplan.Plan[Question] }

// plans decides how to ask every field, with unique snake_case ids; a
// construct that expands is asked as one question per row or rank slot
// (constructs.go).
func plans(f *form.Form) []*plan {
	used := map[string]bool{}
	ids := make([]string, len(f.Fields))
	for i := range f.Fields {
		ids[i] = uniqueID(snake(f.Fields[i].ID), used)
	}
	out := make([]*plan, 0, len(f.Fields))
	for i := range f.Fields {
		if f.Fields[i].Type.Expands() {
			out = append(out, partPlans(&f.Fields[i], used)...)
			continue
		}
		out = append(out, planFor(&f.Fields[i], ids[i], used, false))
	}
	return out
}

// snake makes a field id snake_case: lower case letters and digits joined
// by single underscores, starting with a letter.
func snake(id string) string {
	var b strings.Builder
	under := false
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			under = false
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r - 'A' + 'a')
			under = false
		case !under && b.Len() > 0:
			b.WriteByte('_')
			under = true
		}
	}
	s := strings.TrimRight(b.String(), "_")
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		s = "q_" + s
	}
	return strings.TrimRight(s, "_")
}

func uniqueID(id string, used map[string]bool) string {
	out := id
	for n := 2; used[out]; n++ {
		out = fmt.Sprintf("%s_%d", id, n)
	}
	used[out] = true
	return out
}

// noControl says why a type cannot be asked ("" for the types it can).
func noControl(t form.Type) string {
	switch t {
	case form.MultiSelect:
		return "request_user_input has no multi-select"
	case form.Number:
		return "request_user_input has no number control"
	case form.Date:
		return "request_user_input has no date control"
	case form.Textarea:
		return "request_user_input has no multi-line text control"
	}
	return ""
}

// pathUnsupported says why a path field is asked as text instead: the
// person types the path (the widget and the local page offer a picker).
const pathUnsupported = "a path is typed: request_user_input has no text box beside its options (the widget offers a path picker)"

// planFor plans f's question under id; part says f is a row or rank slot
// of a construct (asked whole: no Skip of its own).
func planFor(f *form.Field, id string, used map[string]bool, part bool) *plan {
	p := &plan{chatplan.Plan[Question]{Field: f, Choice: form.NewChatChoice(f, form.RecommendedSuffix)}}
	switch {
	case f.DisplayOnly():
		p.Unsupported = "a display-only progress report has nothing to ask: narrate it (the markdown follow-up shows it)"
		return p
	case noControl(f.Type) != "":
		p.Unsupported = noControl(f.Type)
		return p
	case f.IsPath():
		p.Unsupported = pathUnsupported
		return p
	}
	switch n := len(p.Choice.Options); {
	case n == 0:
		p.Unsupported = "free text with no suggestions: request_user_input needs 2 to 3 options to show"
		return p
	case n == 1:
		p.Unsupported = "only one option: request_user_input needs 2 to 3"
		return p
	case n > twoTierMax:
		p.Unsupported = fmt.Sprintf("%d options: the two-tier picker offers at most %d", n, twoTierMax)
		return p
	}
	opts := p.askOptions()
	q := Question{ID: id, Header: form.Header(f.ID, maxHeader), Question: questionText(f)}
	if len(opts) <= maxOptions {
		q.Options = opts
		p.Question = q
	} else {
		p.twoTier(q, opts, used)
	}
	if !part {
		p.addSkip()
	}
	return p
}

// addSkip offers Skip on an optional question with no default where it has
// room: beside its options, or beside a two-tier picker's groups.
func (p *plan) addSkip() {
	if !p.Choice.Skippable() || len(p.Question.Options) >= maxOptions {
		return
	}
	p.Question.Options = append(p.Question.Options, Option{Label: form.SkipLabel, Description: form.SkipNote})
	p.Choice.Skip = true
}

// askOptions labels and describes the options; every description is a
// sentence (the tool requires one).
func (p *plan) askOptions() []Option {
	f := p.Field
	rec := f.Recommendation()
	out := make([]Option, len(p.Choice.Options))
	for i, o := range p.Choice.Options {
		full := ""
		if p.Choice.Shortened(o) {
			full = o // the label is cut to the tool's 1-5 words
		}
		desc := form.Sentences(full, f.OptionNote(o), f.EndorsementNote(o), f.GuessNote(o))
		switch {
		case f.Type == form.Confirm && i == 0:
			desc = form.Sentences(desc, f.ConsequenceReport())
		case o == form.NotNow && f.NeedsNotNow():
			desc = f.NotNowNote()
		case o == rec && f.Type == form.Pushback && f.Rationale != "":
			desc = form.Sentences(desc, "I'd push back: "+f.Rationale)
		case o == rec && (f.Type == form.Decision || f.Type == form.Deliberation) && f.Rationale != "":
			desc = form.Sentences(desc, "Why: "+f.Rationale)
		}
		if desc == "" {
			desc = defaultDescription(f, o, rec)
		}
		out[i] = Option{Label: p.Choice.Label(o), Description: desc}
	}
	return out
}

// defaultDescription is the sentence for an option the form says nothing
// about.
func defaultDescription(f *form.Field, o, rec string) string {
	switch {
	case o == rec:
		return "The suggested answer."
	case f.Type == form.TextInput:
		return "A suggested answer; pick Other to write your own."
	case f.Type == form.Boolean:
		return map[string]string{"Yes": "Answer yes.", "No": "Answer no."}[o]
	}
	return "Choose " + o + "."
}

// twoTier asks 4 to 9 options as a first tier of 2-3 groups, each with a
// follow-up question for its options.
func (p *plan) twoTier(q Question, opts []Option, used map[string]bool) {
	tier1 := q
	start := 0
	p.Choice.SetGroups(form.Groups(len(opts), maxOptions))
	for k, size := range p.Choice.Groups {
		group := opts[start : start+size]
		start += size
		label := p.Choice.GroupNames[k]
		labels := make([]string, len(group))
		for i, o := range group {
			labels[i] = strings.TrimSuffix(o.Label, form.RecommendedSuffix)
		}
		tier1.Options = append(tier1.Options, Option{Label: label, Description: strings.Join(labels, "; ") + "."})
		second := Question{ID: uniqueID(fmt.Sprintf("%s_group_%d", q.ID, k+1), used), Header: q.Header, Question: q.Question, Options: group}
		p.Groups = append(p.Groups, followupGroup{Label: label, Question: second})
		p.Choice.Followups = append(p.Choice.Followups, second.ID)
	}
	tier1.Question = strings.TrimRight(q.Question, "?") + ": which group holds your answer?"
	p.Question = tier1
}

// questionText is the question as one sentence: the field's text, with a
// progress report's state folded in.
func questionText(f *form.Field) string {
	if f.Type != form.Progress {
		return f.Text
	}
	q := strings.TrimRight(f.Text, ".?") + " (" + strings.TrimSuffix(f.ProgressReport(), ".") + ")"
	if f.ProgressStyle == "report" {
		return q + ": which item should we go deeper on?"
	}
	return q + ": which blocked item should we tackle next?"
}
