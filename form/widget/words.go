package widget

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/elicit/elicit/form"
)

// What the person at the widget (and the local page, and the MCP app) is
// told about an answer, in their words: collect's messages are written for
// the agent ("required, but not answered (a ruling for every row: {row
// key: ...})", "no ruling for "race"" naming a row by its key), so the
// widget says what to do, and names rows by their labels.

// need is what a required field left unanswered says.
func need(f *form.Field) string {
	switch {
	case f.Type == form.Triage || f.Type == form.AssumptionReview:
		return "Give every row a ruling."
	case f.Type == form.Ranking:
		return fmt.Sprintf("Choose an option for each of the %d ranks.", f.RankSlots())
	case f.Type == form.MultiSelect:
		return "Choose at least one."
	case f.Type == form.Boolean:
		return "Choose Yes or No."
	case f.Type.SingleChoice():
		return "Choose one."
	case f.Type == form.Number:
		return "Enter a number."
	case f.Type == form.Date:
		return "Pick a date."
	}
	return "Write an answer."
}

// reword says collect's message about field f for a person; rest is the
// problem's path below answers.<id> (".race" for a row, "[2]" for an item).
func reword(f *form.Field, rest, msg string) string {
	if strings.HasPrefix(msg, "required, but not answered") {
		return need(f)
	}
	if keys, ok := unruled(msg); ok {
		return "Give a ruling for " + rowLabels(f, keys) + "."
	}
	msg = strings.Replace(msg, "characters, over max_length", "characters, over the limit of", 1)
	if key, ok := strings.CutPrefix(rest, "."); ok && (f.Type == form.Triage || f.Type == form.AssumptionReview) {
		return rowLabels(f, []string{strings.TrimSuffix(key, form.EditTextSuffix)}) + ": " + msg
	}
	if rest != "" {
		return rest + ": " + msg // an item of a list, "[2]: …"
	}
	return msg
}

// unruled reads the row keys of collect's "no ruling for "a", "b" (every
// row needs one)", or false for another message.
func unruled(msg string) ([]string, bool) {
	list, ok := strings.CutPrefix(msg, "no ruling for ")
	if !ok {
		return nil, false
	}
	list, ok = strings.CutSuffix(list, " (every row needs one)")
	if !ok {
		return nil, false
	}
	var keys []string
	for list != "" {
		q, err := strconv.QuotedPrefix(list)
		if err != nil {
			break // "… 3 more"
		}
		k, _ := strconv.Unquote(q)
		keys = append(keys, k)
		list = strings.TrimPrefix(list[len(q):], ", ")
	}
	return keys, len(keys) > 0
}

// rowLabels names rows by their labels, in quotes: “Counter updated
// without a lock”, “Unused import”.
func rowLabels(f *form.Field, keys []string) string {
	label := make(map[string]string, len(f.Items()))
	for _, it := range f.Items() {
		label[it.Key()] = it.Label
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		l := label[k]
		if l == "" {
			l = k
		}
		out[i] = "“" + l + "”"
	}
	return strings.Join(out, ", ")
}
