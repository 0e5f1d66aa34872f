package markdown

import (
	"fmt"
	"slices"
	"strings"

	"github.com/elicit/elicit/form"
)

// Result is a form rendered as a markdown questionnaire.
type Result struct {
	Success bool   `json:"success"`
	Title   string `json:"title"`
	// Markdown is the questionnaire, ready to send as one chat message.
	Markdown string `json:"markdown"`
	// FieldIDs are the fields it asks, in order.
	FieldIDs []string `json:"field_ids"`
	// Unsupported lists the fields it does not ask (see Carries).
	Unsupported []form.Unsupported `json:"unsupported"`
	// Problems, for a form that breaks a definition rule (see
	// form.Validate), name every problem; Success is then false and nothing
	// else is rendered.
	Problems []string `json:"problems,omitempty"`
}

// Options shape a questionnaire. A nil *Options asks every field.
type Options struct {
	// Only restricts it to these fields (a follow-up, a re-ask). Questions
	// keep the number they have in the whole form, so a reply that names
	// questions by number means the same questions either way.
	Only []string
	// Problems are shown under their fields (a re-ask): id -> messages.
	Problems map[string][]string
	// Lead is a line under the title saying why these questions come now.
	Lead string
}

// Render renders f as a questionnaire a person answers in one chat reply. A
// whole form of guesses only is one confirm of them (confirm.go). A form
// that breaks a definition rule is not rendered: Success is false and
// Problems names every problem.
func Render(f *form.Form, opts *Options) *Result {
	if err := f.Check(); err != nil {
		return &Result{Problems: form.ProblemStrings(err), FieldIDs: []string{}, Unsupported: []form.Unsupported{}}
	}
	if opts == nil {
		opts = &Options{}
	}
	var b strings.Builder
	b.WriteString("**" + esc(f.Title) + "**")
	if f.Description != "" {
		b.WriteString(hardBreak + esc(f.Description))
	}
	b.WriteString("\n")
	if opts.Lead != "" {
		b.WriteString("\n" + esc(opts.Lead) + "\n")
	}
	if confirms(f, opts) {
		ids := confirm(&b, f)
		return &Result{Success: true, Title: f.Title, Markdown: b.String(), FieldIDs: ids, Unsupported: []form.Unsupported{}}
	}
	var asked []*form.Field
	ids := []string{}
	unsupported := []form.Unsupported{}
	var only map[string]bool
	if opts.Only != nil {
		only = make(map[string]bool, len(opts.Only))
		for _, id := range opts.Only {
			only[id] = true
		}
	}
	for i := range f.Fields {
		fl := &f.Fields[i]
		if only != nil && !only[fl.ID] {
			continue
		}
		if !Carries(fl) {
			unsupported = append(unsupported, form.UnsupportedHere(fl,
				"the "+string(fl.Type)+" construct is not asked in markdown yet", form.SurfaceWidget))
			continue
		}
		ids = append(ids, fl.ID)
		b.WriteString("\n")
		question(&b, i+1, fl, opts.Problems[fl.ID])
		if !fl.DisplayOnly() {
			asked = append(asked, fl)
		}
	}
	if len(asked) > 0 {
		replyHelp(&b, asked)
	}
	return &Result{Success: true, Title: f.Title, Markdown: b.String(), FieldIDs: ids, Unsupported: unsupported}
}

// Carries reports whether a markdown questionnaire asks f: every type.
func Carries(*form.Field) bool { return true }

// FollowupSurface is where a field a chat tool cannot ask goes: the
// markdown follow-up when markdown carries it, else the widget.
func FollowupSurface(f *form.Field) form.Surface {
	if Carries(f) {
		return form.SurfaceMarkdown
	}
	return form.SurfaceWidget
}

// Followup is the markdown for the fields another surface cannot ask: one
// chat message whose reply collect reads back (merged with the other
// surface's answers).
type Followup struct {
	FieldIDs []string `json:"field_ids"`
	Markdown string   `json:"markdown"`
}

// NewFollowup asks the fields ids of f in markdown, or returns nil when
// there are none.
func NewFollowup(f *form.Form, ids []string, lead string) *Followup {
	byID := f.ByID()
	ids = slices.DeleteFunc(slices.Clone(ids), func(id string) bool {
		fl := byID[id]
		return fl == nil || !Carries(fl)
	})
	if len(ids) == 0 {
		return nil
	}
	asks := false
	for _, id := range ids {
		if fl := byID[id]; fl != nil && !fl.DisplayOnly() {
			asks = true
		}
	}
	if !asks {
		lead = "" // only a report to show
	}
	r := Render(f, &Options{Only: ids, Lead: lead})
	return &Followup{FieldIDs: r.FieldIDs, Markdown: r.Markdown}
}

var esc = form.EscapeMarkdown

// question writes one field: a paragraph with its number, text, id and
// what kind of answer it takes, the construct's rationale, the help text
// and any problems (one per line: hard breaks); then the progress report
// and the options as lists; then what an empty answer keeps.
func question(b *strings.Builder, n int, f *form.Field, problems []string) {
	lines := []string{fmt.Sprintf("**%d. %s** `%s` · %s", n, esc(f.Text), f.ID, kind(f))}
	lines = append(lines, details(f)...)
	for _, p := range problems {
		lines = append(lines, "⚠ "+esc(p))
	}
	b.WriteString(strings.Join(lines, hardBreak) + "\n")
	if constructLines(b, f) {
		return
	}
	if report := progressLines(f); len(report) > 0 {
		b.WriteString("\n" + strings.Join(report, "\n") + "\n")
	}
	if choices := f.Choices(); !f.DisplayOnly() && f.Type != form.Boolean && len(choices) > 0 {
		b.WriteString("\n")
		for i, o := range choices {
			marker := fmt.Sprintf("%d. ", i+1)
			if f.ListStyle == "unordered" || form.NumberLabels(choices) {
				marker = "- " // options that are numbers are answered by them
			}
			b.WriteString(marker + esc(o) + badges(f, o) + "\n")
		}
	}
	if d := defaultLine(f); d != "" {
		b.WriteString("\n" + d + "\n")
	}
}

// hardBreak ends a line inside a paragraph (two spaces, then a newline), so
// a rendered questionnaire keeps the lines apart as the raw text does.
const hardBreak = "  \n"

// kind says what answer a field takes.
func kind(f *form.Field) string {
	var k string
	switch {
	case f.DisplayOnly():
		return "a report: nothing to answer"
	case f.Type == form.Progress && f.ProgressStyle != "report":
		k = "pick the blocked item to tackle next"
	case f.Type.Expands():
		k = constructKind(f)
	case f.Type.SingleChoice():
		k = "pick one"
	case f.Type == form.MultiSelect:
		k = "pick one or more"
	case f.Type == form.Boolean:
		k = "yes or no"
	case f.Type == form.Number:
		k = "a number" + f.RangeText()
	case f.Type == form.Date:
		k = "a date (YYYY-MM-DD)"
	case f.Type == form.Textarea:
		k = "your own words, several lines are fine" + maxLength(f)
	case f.IsPath():
		k = f.PathNoun() + maxLength(f)
	case len(f.Options) > 0:
		k = "pick a suggestion or write your own" + maxLength(f)
	default:
		k = "your own words" + maxLength(f)
	}
	if !f.Required {
		k = "optional, " + k
	}
	return k
}

func maxLength(f *form.Field) string {
	if f.MaxLength > 0 {
		return fmt.Sprintf(", at most %d characters", f.MaxLength)
	}
	return ""
}

// details are the lines a field shows under its question: the construct's
// rationale or report, and the help text.
func details(f *form.Field) []string {
	var out []string
	switch f.Type {
	case form.Decision:
		if f.Rationale != "" {
			out = append(out, "_Why: "+esc(f.Rationale)+"_")
		}
	case form.Pushback:
		if f.Rationale != "" {
			out = append(out, "_Why I'd push back: "+esc(f.Rationale)+"_")
		}
	case form.Progress:
		if f.Rationale != "" {
			out = append(out, "_Summary: "+esc(f.Rationale)+"_")
		}
	case form.Deliberation, form.Confirm:
		if f.Rationale != "" {
			out = append(out, "_Why: "+esc(f.Rationale)+"_")
		}
		if f.Type == form.Confirm {
			out = append(out, esc(f.ConsequenceReport()))
		}
	}
	if f.HelpText != "" {
		out = append(out, "_"+esc(f.HelpText)+"_")
	}
	if note := f.PathNote(); note != "" {
		out = append(out, "_"+esc(note)+"_")
	}
	return out
}

// progressLines are the report as a list: the done / in flight / blocked
// buckets, or in report style each item with its tag.
func progressLines(f *form.Field) []string {
	lines := f.ProgressLines()
	for i, l := range lines {
		lines[i] = "- " + esc(capitalize(l))
	}
	return lines
}

func capitalize(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// badges mark an option: recommended (in the construct's words), the
// user's own position, the default, a guess; then its note.
func badges(f *form.Field, o string) string {
	var marks []string
	if o == f.Recommendation() && f.Type != form.MultiSelect {
		marks = append(marks, recommendedWord(f))
	}
	if o == f.UserPosition {
		marks = append(marks, "your approach")
	}
	if f.IsDefault(o) && f.Recommended == "" && f.Type == form.MultiSelect {
		marks = append(marks, "default")
	}
	if f.GuessNote(o) != "" {
		marks = append(marks, "guessed")
	}
	s := ""
	if len(marks) > 0 {
		s = " **(" + strings.Join(marks, ", ") + ")**"
	}
	if note := form.Sentences(f.OptionNote(o), f.EndorsementNote(o)); note != "" {
		s += " — " + esc(note)
	}
	return s
}

// recommendedWord is how each construct badges its recommendation (the
// seed's words); a plain field's default is simply the default.
func recommendedWord(f *form.Field) string {
	switch {
	case f.Type == form.Pushback:
		return "I'd suggest instead"
	case f.Type == form.Progress:
		return "suggested next"
	case f.Type == form.Deliberation:
		return "synthesis pick"
	case f.Recommended != "":
		return "recommended"
	}
	return "default"
}

// defaultLine says what an empty answer keeps, and why it was guessed.
func defaultLine(f *form.Field) string {
	if f.Default == nil {
		return ""
	}
	line := "Left empty, this keeps **" + esc(form.FormatValue(f.Default)) + "**"
	if f.Inferred() {
		line += " (guessed from " + esc(f.InferredFrom) + ")"
	}
	return line + "."
}

// replyHelp writes how to answer and the reply skeleton to fill in.
func replyHelp(b *strings.Builder, asked []*form.Field) {
	b.WriteString("\nReply with one line per question, `id: answer`: an option's number or name " +
		"(several, separated by commas, where you may pick more than one), yes or no, a date, or your own words; " +
		"an empty answer keeps the default or skips an optional question.")
	for _, f := range asked {
		if f.Type == form.Textarea {
			b.WriteString(" Longer text may go on the lines under its `id:`.")
			break
		}
	}
	b.WriteString("\n\n```\n")
	for _, f := range asked {
		for _, k := range skeletonKeys(f) {
			b.WriteString(k + ":\n")
		}
	}
	b.WriteString("```\n")
}
