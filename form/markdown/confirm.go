package markdown

import (
	"strings"

	"github.com/elicit/elicit/form"
)

// The one-tap confirm (form/confirmall.go) in markdown: a whole form of two
// or more questions, every one a guess, is one message listing each guess,
// its value and why, answered "keep all" (or yes, ok, looks good...) or
// "change some", which collect answers with a re-ask of the questions; a
// reply of `id: answer` lines changes those and keeps the rest. A form of
// one question is asked as it is: its guess is its default, and a reply
// such as "ok" that answers nothing else keeps it (form.ConfirmReply).

// confirms reports whether Render asks f as the confirm.
func confirms(f *form.Form, opts *Options) bool {
	return opts.Only == nil && f.AllGuessed() && f.Asks() >= 2
}

// confirm writes the confirm of f, after the display-only reports (which
// stay questions of their own); it returns the ids of the fields it asks.
func confirm(b *strings.Builder, f *form.Form) []string {
	ids := []string{}
	for i := range f.Fields {
		fl := &f.Fields[i]
		ids = append(ids, fl.ID)
		if fl.DisplayOnly() {
			b.WriteString("\n")
			question(b, i+1, fl, nil)
		}
	}
	gs := f.Guesses()
	lead := "**Keep these guesses?** Every answer below is a guess from context."
	if len(gs) == 1 {
		lead = "**Keep this guess?**"
	}
	b.WriteString("\n" + lead + "\n\n")
	for _, g := range gs {
		b.WriteString("- **" + esc(g.Field.Text) + "** `" + g.Field.ID + "`: **" + esc(g.Value) + "** (" + esc(g.Field.InferredFrom) + ")\n")
	}
	b.WriteString("\nReply **keep all** (or yes, ok) to keep every guess, or **change some** to answer the questions. " +
		"To change one or two now, reply one line `id: answer` for each; the others keep their guess.\n")
	return ids
}
