package form

import (
	"fmt"
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

// Text is the consequence as one phrase: its label, severity in brackets
// and detail after a colon: "Every table is dropped [high]: 42 tables".
func (c Consequence) Text() string {
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
		parts[i] = c.Text()
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

// FormatAnswer renders a validated answer to f for people: a ranking as
// "1. a; 2. b", a triage board's or an assumption review's rulings row by
// row as "label: ruling" ("label: edit → new text"), anything else as
// FormatValue does.
func (f *Field) FormatAnswer(v any) string {
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
