package form

import (
	"fmt"
	"strconv"
	"strings"
)

// How the later constructs are presented, shared by every surface.

// Label suffix of a triage row's or an assumption's suggested ruling and of
// a ranking slot's proposed option on the chat-tool surfaces; their answer
// readers strip it again.
const SuggestedSuffix = " (Suggested)"

// EndorsementNote names the voices behind a deliberation's option:
// "Endorsed by architect, security." or "".
func (f *Field) EndorsementNote(o string) string {
	if voices := f.Endorsements[o]; len(voices) > 0 {
		return "Endorsed by " + strings.Join(voices, ", ") + "."
	}
	return ""
}

// text is the consequence as one phrase: its label, severity in brackets
// and detail after a colon: "Every table is dropped [high]: 42 tables".
func (c Consequence) text() string {
	s := c.Label
	if c.Severity != "" {
		s += " [" + c.Severity + "]"
	}
	if c.Detail != "" {
		s += ": " + c.Detail
	}
	return s
}

// ConsequenceReport is a confirm's consequences as one line: "If approved:
// a [high]: detail; b."
func (f *Field) ConsequenceReport() string {
	parts := make([]string, len(f.Consequences))
	for i, c := range f.Consequences {
		parts[i] = c.text()
	}
	return "If approved: " + strings.Join(parts, "; ") + "."
}

// Text is the row as one phrase: "[tag] label (detail; from source)".
func (it Item) Text() string {
	s := it.Label
	if it.Tag != "" {
		s = "[" + it.Tag + "] " + s
	}
	var notes []string
	if it.Detail != "" {
		notes = append(notes, it.Detail)
	}
	if it.Source != "" {
		notes = append(notes, "from "+it.Source)
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, "; ") + ")"
	}
	return s
}

// SuggestedRuling is the ruling the agent suggested for row key, or "".
func (f *Field) SuggestedRuling(key string) string { return f.Suggested.Rulings[key] }

// SuggestedAt is a ranking's proposed option for slot k (from 1), or "".
func (f *Field) SuggestedAt(k int) string {
	if k >= 1 && k <= len(f.Suggested.Order) {
		return f.Suggested.Order[k-1]
	}
	return ""
}

// RankLabel names rank slot k (from 1) of a ranking: "rank 1 of 3".
func (f *Field) RankLabel(k int) string {
	return fmt.Sprintf("rank %d of %d", k, f.RankSlots())
}

// formatAnswer renders a validated answer to f for people: a ranking as
// "1. a; 2. b", a triage board's or an assumption review's rulings row by
// row as "label: ruling" ("label: edit → new text"), anything else as
// FormatValue does.
func (f *Field) formatAnswer(v any) string {
	switch f.Type {
	case Ranking:
		if order, ok := stringList(v); ok {
			parts := make([]string, len(order))
			for i, o := range order {
				parts[i] = fmt.Sprintf("%d. %s", i+1, o)
			}
			return strings.Join(parts, "; ")
		}
	case Triage, AssumptionReview:
		var parts []string
		for _, it := range f.Items() {
			if r, ok := rulingOf(v, it.Key()); ok {
				parts = append(parts, it.Label+": "+r)
			}
		}
		return strings.Join(parts, "; ")
	}
	return FormatValue(v)
}

// rulingOf reads row key's ruling from a rulings answer.
func rulingOf(v any, key string) (string, bool) {
	var r any
	switch m := v.(type) {
	case map[string]string:
		s, ok := m[key]
		return s, ok
	case map[string]any:
		var ok bool
		if r, ok = m[key]; !ok {
			return "", false
		}
	default:
		return "", false
	}
	switch x := r.(type) {
	case string:
		return x, true
	case map[string]any:
		return fmt.Sprintf("%s → %v", RulingEdit, x[RulingEdit]), true
	case map[string]string:
		return RulingEdit + " → " + x[RulingEdit], true
	}
	return fmt.Sprint(r), true
}

// EditHint ends an assumption part's question; a surface with a better
// way to say how to type the correction replaces it.
const EditHint = "(accept, reject, or answer with the corrected assumption)"

// Part is one single choice a triage board, an assumption review or a
// ranking is asked as, on surfaces that ask one choice at a time
// (AskUserQuestion, Codex's request_user_input, a terminal). Its answer
// comes back under the dotted key Collect folds.
type Part struct {
	// Field is a single_select under the dotted key ("<id>.<row key>",
	// "<id>.<slot>"); the agent's suggestion is its Default.
	Field Field
	// What names the row or slot in messages: `row "sqli"`, "rank 1 of 3".
	What string
	// Header is what a short chip header is made from: the row's key, or
	// "Rank 1".
	Header string
	// Edit says free text is the corrected assumption (EditAnswer).
	Edit bool
}

// Parts expands a triage board, an assumption review or a ranking into one
// single choice per row or rank slot (nil for other types): a row offers
// the dispositions; an assumption "accept" and "reject", free text being
// the corrected assumption; a rank slot every option. The construct's
// rationale leads the first part's text and its help text goes with it;
// rows that read alike get their key appended.
func (f *Field) Parts() []Part {
	var out []Part
	switch f.Type {
	case Triage, AssumptionReview:
		texts := make(map[string]int, len(f.Items()))
		for _, it := range f.Items() {
			texts[it.Text()]++
		}
		for _, it := range f.Items() {
			text := it.Text()
			if texts[text] > 1 {
				text += " [" + it.Key() + "]"
			}
			p := Part{What: "row " + strconv.Quote(it.Key()), Header: it.Key(), Edit: f.Type == AssumptionReview}
			p.Field = Field{ID: f.ID + "." + it.Key(), Text: f.Text + " — " + text, Type: SingleSelect,
				Required: f.Required, Options: f.Dispositions}
			if p.Edit {
				p.Field.Text += " " + EditHint
				p.Field.Options = []string{RulingAccept, RulingReject}
				p.Field.OptionNotes = map[string]string{RulingAccept: "It holds as stated.", RulingReject: "It is wrong: drop it."}
			}
			if r := f.SuggestedRuling(it.Key()); r != "" {
				p.Field.Default = r
			}
			out = append(out, p)
		}
	case Ranking:
		for k := 1; k <= f.RankSlots(); k++ {
			p := Part{What: f.RankLabel(k), Header: "Rank " + strconv.Itoa(k)}
			p.Field = Field{ID: f.ID + "." + strconv.Itoa(k), Text: f.Text + " — " + f.RankLabel(k) + " (each option once)",
				Type: SingleSelect, Required: f.Required, Options: f.Options, OptionNotes: f.OptionNotes}
			if o := f.SuggestedAt(k); o != "" {
				p.Field.Default = o
			}
			out = append(out, p)
		}
	}
	if len(out) > 0 {
		first := &out[0].Field
		if f.Rationale != "" {
			first.Text = f.Rationale + " " + first.Text
		}
		first.HelpText = f.HelpText
	}
	return out
}

// EditAnswer puts an assumption part's answer under its dotted keys:
// "accept" or "reject" as given, any other text as an edit with that text
// ("<key>" = "edit", "<key>.text" = text).
func EditAnswer(out map[string]any, key, answer string) {
	if answer == RulingAccept || answer == RulingReject {
		out[key] = answer
		return
	}
	out[key] = RulingEdit
	out[key+EditTextSuffix] = answer
}
