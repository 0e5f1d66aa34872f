package term

import (
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/problem"
)

// How a field reads on a terminal, in the interactive widgets and in the
// line-by-line mode alike: plain text, no markup.

// The terminal asks every type: the constructs that take one answer per
// row or rank slot ask one question per part.

// kind says what answer a field takes.
func kind(f *form.Field) string {
	var k string
	switch {
	case f.Type == form.MultiSelect:
		k = "pick one or more"
	case f.Type == form.Boolean:
		k = "yes or no"
	case f.Type.SingleChoice():
		k = "pick one"
	case f.Type == form.Number:
		k = "a number" + f.RangeText()
	case f.Type == form.Date:
		k = "a date, YYYY-MM-DD"
	case f.Type == form.Textarea:
		k = "text, several lines are fine"
	case f.IsPath():
		k = f.PathNoun()
	case len(f.Options) > 0:
		k = "a suggestion or your own words"
	default:
		k = "your own words"
	}
	if f.MaxLength > 0 {
		k += ", at most " + form.FormatValue(float64(f.MaxLength)) + " characters"
	}
	if !f.Required {
		k = "optional, " + k
	}
	return k
}

// details are the lines under a question: the construct's rationale, the
// progress report in its buckets, a confirm's consequences, the help text
// and the guess.
func details(f *form.Field) []string {
	var out []string
	switch f.Type {
	case form.Decision, form.Deliberation, form.Confirm:
		if f.Rationale != "" {
			out = append(out, "Why: "+f.Rationale)
		}
		if f.Type == form.Confirm {
			out = append(out, f.ConsequenceReport())
		}
	case form.Pushback:
		if f.Rationale != "" {
			out = append(out, "Why I'd push back: "+f.Rationale)
		}
	case form.Progress:
		out = append(out, f.ProgressLines()...)
		if f.Rationale != "" {
			out = append(out, "Summary: "+f.Rationale)
		}
	}
	if f.HelpText != "" {
		out = append(out, f.HelpText)
	}
	if note := f.PathNote(); note != "" {
		out = append(out, note)
	}
	if f.Inferred() {
		out = append(out, "Guessed: "+form.FormatValue(f.Default)+" (from "+f.InferredFrom+")")
	}
	return out
}

// badges mark an option: the recommendation in the construct's words, the
// user's own position, the default, a guess.
func badges(f *form.Field, o string) []string {
	var out []string
	if o == f.Recommendation() && f.Type != form.MultiSelect {
		switch {
		case f.Type == form.Pushback:
			out = append(out, "I'd suggest instead")
		case f.Type == form.Progress:
			out = append(out, "suggested next")
		case f.Type == form.Deliberation:
			out = append(out, "synthesis pick")
		case f.Recommended != "":
			out = append(out, "Recommended")
		default:
			out = append(out, "default")
		}
	}
	if o == f.UserPosition {
		out = append(out, "your approach")
	}
	if f.Type == form.MultiSelect && f.IsDefault(o) {
		out = append(out, "default")
	}
	if f.GuessNote(o) != "" {
		out = append(out, "guessed")
	}
	return out
}

// note is what the form says beside an option.
func note(f *form.Field, o string) string {
	return strings.TrimSpace(strings.Join([]string{f.OptionNote(o), f.EndorsementNote(o)}, " "))
}

// check validates one answer with collect's own rules and returns collect's
// message, or "".
func check(f *form.Form, fl *form.Field, v any) string {
	err := form.CheckAnswer(fl, v)
	probs, ok := err.(problem.List)
	if !ok || len(probs) == 0 {
		return ""
	}
	msgs := make([]string, len(probs))
	for i, p := range probs {
		msgs[i] = p.Message
		if rest, ok := strings.CutPrefix(p.Path, "answers."+fl.ID); ok && rest != "" {
			msgs[i] = rest + ": " + p.Message
		}
	}
	return strings.Join(msgs, "; ")
}

// read checks typed text: form.Field.Typed, then collect's rules.
func read(f *form.Form, fl *form.Field, text string) (any, string) {
	v, msg := fl.Typed(text)
	if msg != "" {
		return nil, msg
	}
	return v, check(f, fl, v)
}

// guesses lists the guessed answers, one line each.
func guesses(f *form.Form) []string {
	var out []string
	for i := range f.Fields {
		fl := &f.Fields[i]
		if fl.Inferred() {
			out = append(out, fl.Text+" "+form.FormatValue(fl.Default)+" (guessed from "+fl.InferredFrom+")")
		}
	}
	return out
}
