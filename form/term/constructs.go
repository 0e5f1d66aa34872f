package term

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/termui"
)

// How the terminal asks the constructs that take one answer per row or
// rank slot: one question per part (form.Field.Parts), answered under the
// dotted keys collect folds. A rank slot offers only the options not yet
// ranked; an assumption offers accept, reject and "edit…", which asks for
// the corrected text (line by line, any other text is the correction).

// editLabel is the choice that asks for an assumption's corrected text.
const editLabel = "edit…"

// slotField is the question a part asks: a rank slot's options narrowed to
// those not yet ranked in answers.
func slotField(pt *form.Part, fl *form.Field, answers map[string]any) *form.Field {
	if fl.Type != form.Ranking {
		return &pt.Field
	}
	c := pt.Field
	c.Options = slices.DeleteFunc(slices.Clone(fl.Options), func(o string) bool {
		for k := 1; k <= fl.RankSlots(); k++ {
			if answers[fmt.Sprintf("%s.%d", fl.ID, k)] == o {
				return true
			}
		}
		return false
	})
	if d, ok := c.Default.(string); ok && !slices.Contains(c.Options, d) {
		c.Default = nil
	}
	return &c
}

// askParts asks a construct's parts with the interactive widgets.
func askParts(f *form.Form, fl *form.Field, ui *termui.Session, answers map[string]any) error {
	if lines := constructDetails(fl); len(lines) > 0 {
		ui.Print(append([]termui.Line{termui.Styled(fl.Text, termui.Bold)}, dim(lines)...)...)
	}
	parts := fl.Parts()
	for i := range parts {
		pt := &parts[i]
		part := slotField(pt, fl, answers)
		if i == 0 {
			part.Text = strings.TrimPrefix(part.Text, fl.Rationale+" ") // shown above
		}
		if pt.Edit {
			if err := askAssumption(part, ui, answers); err != nil {
				return err
			}
			continue
		}
		v, err := askChoice(part, ui, dim(partLines(pt)))
		if err != nil {
			return err
		}
		if v == nil && fl.Type == form.Ranking {
			return nil // an optional ranking skipped
		}
		if v != nil {
			answers[part.ID] = v
		}
	}
	return nil
}

// askAssumption asks one assumption: accept, reject, or edit… and then the
// corrected text.
func askAssumption(part *form.Field, ui *termui.Session, answers map[string]any) error {
	choices := append(part.Choices(), editLabel)
	opts := options(part, choices)
	opts[len(opts)-1] = termui.Option{Label: editLabel, Note: "type the corrected assumption"}
	i, err := ui.Select(termui.Select{Title: part.Text, Options: opts})
	if err != nil {
		return err
	}
	if choices[i] != editLabel {
		answers[part.ID] = choices[i]
		return nil
	}
	text, err := ui.Input(termui.Input{Title: "The corrected assumption", Validate: func(s string) string {
		if len(s) == 0 {
			return "write the corrected assumption"
		}
		return ""
	}})
	if err != nil {
		return err
	}
	form.EditAnswer(answers, part.ID, text)
	return nil
}

// askPartsLines asks a construct's parts line by line; asked counts the
// questions so far for the [n/total] prefix.
func askPartsLines(f *form.Form, fl *form.Field, in *bufio.Scanner, w io.Writer, answers map[string]any, asked *int, total int) error {
	lines := constructDetails(fl)
	if len(lines) > 0 {
		fmt.Fprintln(w, fl.Text)
		for _, l := range lines {
			fmt.Fprintln(w, "  "+l)
		}
	}
	parts := fl.Parts()
	for i := range parts {
		pt := &parts[i]
		part := slotField(pt, fl, answers)
		if i == 0 {
			part.Text = strings.TrimPrefix(part.Text, fl.Rationale+" ") // shown above
		}
		*asked++
		if i > 0 || len(lines) > 0 { // the form's loop set the first apart
			fmt.Fprintln(w)
		}
		prompt(w, part, *asked, total)
		if pt.Edit {
			fmt.Fprintln(w, "  Or type the corrected assumption.")
		}
		for {
			fmt.Fprint(w, "> ")
			text, ok := readAnswer(in, part)
			if !ok {
				fmt.Fprintln(w)
				return eof(in, named(part))
			}
			if pt.Edit {
				if v, msg := part.Typed(text); msg != "" || v == nil && text != "" {
					form.EditAnswer(answers, part.ID, text)
					break
				}
			}
			one := &form.Form{Title: f.Title, Fields: []form.Field{*part}}
			v, msg := read(one, part, text)
			if msg == "" {
				if v == nil {
					v = part.Default
				}
				if v == nil && fl.Type == form.Ranking {
					return nil // an optional ranking skipped
				}
				if v != nil {
					answers[part.ID] = v
				}
				break
			}
			fmt.Fprintln(w, "  ✘ "+msg)
		}
	}
	return nil
}

// constructDetails are the lines above a construct's parts: its rationale
// (its help text goes with the first part).
func constructDetails(fl *form.Field) []string {
	if fl.Rationale != "" {
		return []string{"Why: " + fl.Rationale}
	}
	return nil
}

// partLines are the lines under a part's question.
func partLines(pt *form.Part) []string {
	if pt.Edit {
		return []string{"accept, reject, or edit… to type the corrected assumption"}
	}
	return nil
}

// partCount is how many questions f asks: a construct's parts count one
// each.
func partCount(fl *form.Field) int {
	if fl.Type.Expands() {
		return len(fl.Parts())
	}
	return 1
}
