package native

import (
	"strconv"

	"github.com/elicit/elicit/form"
)

// How the constructs whose answer is more than one choice are asked: the
// dialog's properties are flat primitives, so a triage board becomes one
// choice per row, an assumption review one ruling per assumption plus an
// optional text for an edit, and a ranking one choice per rank slot (a
// multi-select array cannot carry an order). They are named by the dotted
// keys form.Collect folds back: "<id>.<row key>", "<id>.<row key>.text",
// "<id>.<slot>".

// expandedProperty is one dialog property of a construct that expands.
type expandedProperty struct {
	name     string
	prop     map[string]any
	required bool
}

// expandProperties lists the properties of a triage board, an assumption
// review or a ranking, in asking order. The construct's rationale and help
// text describe its first property.
func expandProperties(f *form.Field) []expandedProperty {
	var out []expandedProperty
	switch f.Type {
	case form.Triage, form.AssumptionReview:
		for _, it := range f.Items() {
			choices := f.Rulings()
			p := choiceProperty(f.Text+" — "+it.Text(), choices, f.SuggestedRuling(it.Key()), nil)
			out = append(out, expandedProperty{name: f.ID + "." + it.Key(), prop: p, required: f.Required})
			if f.Type == form.AssumptionReview {
				out = append(out, expandedProperty{name: f.ID + "." + it.Key() + form.EditTextSuffix, prop: map[string]any{
					"type": "string", "title": "If edit: " + it.Label,
					"description": "The corrected assumption, read only when the ruling is edit.",
				}})
			}
		}
	case form.Ranking:
		for k := 1; k <= f.RankSlots(); k++ {
			p := choiceProperty(f.Text+" — "+f.RankLabel(k)+" (each option once)", f.Options, f.SuggestedAt(k), f.OptionNote)
			out = append(out, expandedProperty{name: f.ID + "." + strconv.Itoa(k), prop: p, required: f.Required})
		}
	}
	if len(out) > 0 {
		if d := joinNonEmpty(" ", f.Rationale, f.HelpText); d != "" {
			out[0].prop["description"] = d
		}
	}
	return out
}

// choiceProperty is a titled single choice; the suggestion is the default,
// listed first and marked as suggested. note gives an option's note.
func choiceProperty(title string, choices []string, suggested string, note func(string) string) map[string]any {
	ordered := make([]string, 0, len(choices))
	if suggested != "" {
		ordered = append(ordered, suggested)
	}
	for _, c := range choices {
		if c != suggested {
			ordered = append(ordered, c)
		}
	}
	one := make([]any, len(ordered))
	for i, c := range ordered {
		t := c
		if c == suggested {
			t += form.SuggestedSuffix
		}
		if note != nil && note(c) != "" {
			t += " — " + note(c)
		}
		one[i] = map[string]any{"const": c, "title": t}
	}
	p := map[string]any{"type": "string", "title": title, "oneOf": one}
	if suggested != "" {
		p["default"] = suggested
	}
	return p
}
