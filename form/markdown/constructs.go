package markdown

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/elicit/elicit/form"
)

// How the questionnaire asks the constructs that take one answer per row
// or rank slot. A triage board and an assumption review list their rows,
// each under its dotted key ("findings.sqli"), and are answered one line per
// row: a disposition (its number or name), or for an assumption accept,
// reject or the corrected text. A ranking lists its options and is
// answered on one line, best first ("themes: 2, 1, 3", numbers or names),
// or one line per rank ("themes.1: Reliability"). Collect folds the dotted
// answers back.

// partIndex maps the dotted key of every row and rank slot to its part,
// and lists each expanding field's dotted keys in order.
func partIndex(f *form.Form) (map[string]*form.Part, map[string][]string) {
	idx := map[string]*form.Part{}
	ids := map[string][]string{}
	for i := range f.Fields {
		parts := f.Fields[i].Parts()
		for k := range parts {
			// Numbers follow the list the questionnaire shows, not a
			// suggestion moved first.
			parts[k].Field.Default = nil
			idx[parts[k].Field.ID] = &parts[k]
			ids[f.Fields[i].ID] = append(ids[f.Fields[i].ID], parts[k].Field.ID)
		}
	}
	return idx, ids
}

// lineKey is how the questionnaire writes key: on one line, each run of
// white space (a row label may hold a line break) one space. Validation
// refuses rows whose keys differ only in white space, so it names one row.
func lineKey(key string) string {
	if !strings.ContainsFunc(key, unicode.IsSpace) {
		return key
	}
	return strings.Join(strings.Fields(key), " ")
}

// field is the field or the row or rank slot an answer line names.
func (p *parser) field(id string) *form.Field {
	if pt := p.parts[id]; pt != nil {
		return &pt.Field
	}
	return p.byID[id]
}

// editAnswer reads an assumption's line: accept or reject (by name or
// number), "edit: new text", or the corrected text itself.
func (p *parser) editAnswer(fl *form.Field, text string) {
	s := strings.TrimSpace(text)
	if s == "" {
		return
	}
	if v, msg := fl.Typed(s); msg == "" && v != nil {
		form.EditAnswer(p.out, fl.ID, v.(string))
		return
	}
	if k, rest, ok := strings.Cut(s, ":"); ok && strings.EqualFold(strings.TrimSpace(k), form.RulingEdit) {
		s = strings.TrimSpace(rest)
	}
	form.EditAnswer(p.out, fl.ID, s)
}

// constructKind says what answer a construct that expands takes.
func constructKind(f *form.Field) string {
	switch f.Type {
	case form.Triage:
		return "one ruling per row: " + strings.Join(f.Dispositions, ", ")
	case form.AssumptionReview:
		return "per row: accept, reject, or write the corrected assumption"
	case form.Ranking:
		if f.TopN > 0 {
			return fmt.Sprintf("order your top %d, best first", f.TopN)
		}
		return "order them all, best first"
	}
	return ""
}

// constructLines writes a construct's rows, or a ranking's options and
// proposed order; ok is false for the other types.
func constructLines(b *strings.Builder, f *form.Field) bool {
	if f.Type.Expands() && f.Rationale != "" {
		b.WriteString("\n_Why: " + esc(f.Rationale) + "_\n")
	}
	switch f.Type {
	case form.Triage, form.AssumptionReview:
		b.WriteString("\n")
		for _, it := range f.Items() {
			line := "- `" + lineKey(f.ID+"."+it.Key()) + "` " + esc(it.Text())
			if r := f.SuggestedRuling(it.Key()); r != "" {
				line += " **(suggested: " + esc(r) + ")**"
			}
			b.WriteString(line + "\n")
		}
		if f.Type == form.Triage {
			b.WriteString("\nRulings: " + numbered(f.Dispositions) + ".\n")
		}
		return true
	case form.Ranking:
		b.WriteString("\n")
		numbers := form.NumberLabels(f.Options)
		for i, o := range f.Options {
			if numbers {
				b.WriteString("- " + esc(o)) // answered by the numbers themselves
			} else {
				b.WriteString(fmt.Sprintf("%d. %s", i+1, esc(o)))
			}
			if note := f.OptionNote(o); note != "" {
				b.WriteString(" — " + esc(note))
			}
			b.WriteString("\n")
		}
		if len(f.Suggested.Order) > 0 {
			b.WriteString("\nProposed order: **" + esc(strings.Join(f.Suggested.Order, ", ")) + "** (write it to keep it).\n")
		}
		return true
	}
	return false
}

func numbered(items []string) string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = fmt.Sprintf("%d. %s", i+1, esc(s))
	}
	return strings.Join(out, ", ")
}

// skeletonKeys are the reply skeleton's keys for f: one per row of a
// triage board or an assumption review, else the field's own.
func skeletonKeys(f *form.Field) []string {
	if f.Type != form.Triage && f.Type != form.AssumptionReview {
		return []string{f.ID}
	}
	keys := make([]string, 0, len(f.Items()))
	for _, it := range f.Items() {
		keys = append(keys, lineKey(f.ID+"."+it.Key()))
	}
	return keys
}
