package term

import (
	"errors"
	"slices"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/termui"
)

// skipLabel is the extra choice of an optional select without a default.
const skipLabel = "(skip)"

// Ask asks every field of f on a terminal, one widget per field, and
// returns the answers keyed by field id, each checked with collect's rules
// as it is given. When every field is a guess, the form is one Confirm of
// the guesses (No asks each field, the guesses preselected). Escape or
// Ctrl-C returns ErrCancelled. s comes from Open (a terminal) or
// NewSession (any reader and writer).
func Ask(f *form.Form, s *Session) (map[string]any, error) {
	if f == nil {
		return nil, errors.New("term: Ask needs a form: parse one with form.Parse")
	}
	if s == nil || s.ui == nil {
		return nil, errors.New("term: Ask needs a session: open one with term.Open (a terminal) or term.NewSession (any reader and writer)")
	}
	ui := s.ui
	if err := f.Check(); err != nil {
		return nil, err
	}
	head := []termui.Line{termui.Styled(f.Title, termui.Bold)}
	if f.Description != "" {
		head = append(head, termui.Styled(f.Description, termui.Dim))
	}
	ui.Print(head...)
	answers := map[string]any{}
	if f.AllGuessed() {
		lines := dim(guesses(f))
		v, err := ui.Confirm(termui.Confirm{Title: "Use these guesses?", Lines: lines, Value: 1, Required: true})
		if err != nil {
			return nil, err
		}
		if v == 1 {
			for i := range f.Fields {
				if fl := &f.Fields[i]; fl.Default != nil {
					answers[fl.ID] = fl.Default
				}
			}
			return answers, nil
		}
	}
	for i := range f.Fields {
		fl := &f.Fields[i]
		if fl.DisplayOnly() {
			ui.Print(append([]termui.Line{termui.Styled(fl.Text, termui.Bold)}, dim(details(fl))...)...)
			continue
		}
		if fl.Type.Expands() {
			if err := askParts(f, fl, ui, answers); err != nil {
				return nil, err
			}
			continue
		}
		v, err := askField(f, fl, ui)
		if err != nil {
			return nil, err
		}
		if v != nil {
			answers[fl.ID] = v
		}
	}
	return answers, nil
}

func dim(lines []string) []termui.Line {
	out := make([]termui.Line, len(lines))
	for i, l := range lines {
		out[i] = termui.Styled(l, termui.Dim)
	}
	return out
}

func title(fl *form.Field) string { return fl.Text + " (" + kind(fl) + ")" }

// askField asks one field with the widget for its type.
func askField(f *form.Form, fl *form.Field, ui *termui.Session) (any, error) {
	lines := dim(details(fl))
	switch {
	case fl.Type == form.MultiSelect:
		return askMulti(fl, ui, lines)
	case fl.Type == form.Boolean:
		return askBool(fl, ui, lines)
	case fl.Type.SingleChoice():
		return askChoice(fl, ui, lines)
	case fl.Type == form.Textarea:
		v, err := ui.Text(termui.Text{Title: title(fl), Lines: lines, Value: defaultText(fl), Validate: validator(f, fl)})
		return typed(fl, v), err
	}
	in := termui.Input{Title: title(fl), Lines: lines, Value: defaultText(fl), Validate: validator(f, fl)}
	switch fl.Type {
	case form.Date:
		in.Placeholder = "YYYY-MM-DD"
	case form.TextInput:
		in.Suggestions = fl.Options
		if fl.IsPath() {
			in.Suggestions = fl.PathOptions // Tab offers them; the note lists the first
		}
	}
	v, err := ui.Input(in)
	return typed(fl, v), err
}

func defaultText(fl *form.Field) string {
	if fl.Default == nil {
		return ""
	}
	return form.FormatValue(fl.Default)
}

// validator checks typed text as collect would.
func validator(f *form.Form, fl *form.Field) func(string) string {
	return func(s string) string {
		_, msg := read(f, fl, s)
		return msg
	}
}

// typed is the validated value of accepted text.
func typed(fl *form.Field, s string) any {
	v, _ := fl.Typed(s)
	return v
}

func options(fl *form.Field, choices []string) []termui.Option {
	out := make([]termui.Option, len(choices))
	for i, o := range choices {
		out[i] = termui.Option{Label: o, Badges: badges(fl, o), Note: note(fl, o)}
	}
	return out
}

func askChoice(fl *form.Field, ui *termui.Session, lines []termui.Line) (any, error) {
	choices := fl.Choices()
	opts := options(fl, choices)
	if !fl.Required && fl.Default == nil {
		opts = append(opts, termui.Option{Label: skipLabel, Note: "leave it unanswered"})
	}
	// A confirm is never a default: nothing is under the cursor at first.
	i, err := ui.Select(termui.Select{Title: title(fl), Lines: lines, Options: opts, Unchosen: fl.Type == form.Confirm})
	if err != nil || i >= len(choices) {
		return nil, err
	}
	return choices[i], nil
}

func askMulti(fl *form.Field, ui *termui.Session, lines []termui.Line) (any, error) {
	sel := make([]bool, len(fl.Options))
	for i, o := range fl.Options {
		sel[i] = fl.IsDefault(o)
	}
	min := 0
	if fl.Required {
		min = 1
	}
	idx, err := ui.MultiSelect(termui.MultiSelect{Title: title(fl), Lines: lines, Options: options(fl, fl.Options), Selected: sel, Min: min})
	if err != nil || len(idx) == 0 {
		return nil, err
	}
	out := make([]string, len(idx))
	for i, k := range idx {
		out[i] = fl.Options[k]
	}
	return out, nil
}

func askBool(fl *form.Field, ui *termui.Session, lines []termui.Line) (any, error) {
	start := -1
	if d, ok := fl.Default.(string); ok {
		start = slices.Index([]string{"No", "Yes"}, d)
	}
	v, err := ui.Confirm(termui.Confirm{Title: title(fl), Lines: lines, Value: start, Required: fl.Required && fl.Default == nil})
	if err != nil || v < 0 {
		return nil, err
	}
	return []string{"No", "Yes"}[v], nil
}
