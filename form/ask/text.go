package ask

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/elicit/elicit/form"
)

// What Claude Code shows the model after AskUserQuestion is not the tool's
// JSON output but a sentence (claude-code 2.1.332,
// mapToolResultToToolResultBlockParam):
//
//	Your questions have been answered: "Q1"="A1", "Q2"="A2". You can now continue with these answers in mind.
//
// Each answered question is `"<question>"="<answer>"`, neither escaped;
// pairs are joined with ", "; a multi-select answer is its labels joined
// with ", " (a label holding ", " or a quote JSON-quoted); a question with
// only notes reads `"<question>"=(no option selected)`; notes and a
// chosen preview follow a pair as ` notes: ...` and ` selected
// preview:\n...`. Other leads and tails wrap the same pairs ("The user
// answered: ...", an idle user's "Before going idle the user had selected:
// ...", a follow-up's "So far they answered: ...").
const (
	textNoOption = "(no option selected)"
	textPreview  = "\" selected preview:\n"
	textNotes    = "\" notes: "
)

// textTails end the list of pairs, most telling first.
var textTails = []string{
	". You can now continue with these answers in mind.",
	". Read the answers carefully",
	". They also wrote: \"",
	". Call ",
}

// textPair is one `"<question>"=` found in the text.
type textPair struct {
	question string
	start    int // of the opening quote of the question
	value    int // just after the '='
}

// ReadText adds the answers in Claude Code's AskUserQuestion result text to
// into and reports whether the text has any: a `"<question>"=` whose
// question is one of the form's. Answers are mapped as Read maps the
// tool's JSON output; a problem's path is `answers["<question>"]`, and a
// question the text answers more than once is one problem however often.
func (r *Reader) ReadText(into *form.ChatAnswers, text string) bool {
	pairs := r.textPairs(text)
	type read struct {
		question string
		answers  []string // each once, in order
		bad      bool     // an answer could not be read
	}
	var order []*read
	byQuestion := map[string]*read{}
	for i, p := range pairs {
		end := len(text)
		if i+1 < len(pairs) {
			end = pairs[i+1].start
		}
		v := text[p.value:end]
		if i+1 < len(pairs) {
			v = strings.TrimSuffix(v, ", ")
		} else {
			v = cutTail(v)
		}
		if strings.HasPrefix(v, textNoOption) {
			continue // notes only: not an answer
		}
		rd := byQuestion[p.question]
		if rd == nil {
			rd = &read{question: p.question}
			byQuestion[p.question] = rd
			order = append(order, rd)
		}
		if answer, ok := textAnswer(v); !ok {
			rd.bad = true
		} else if !slices.Contains(rd.answers, answer) {
			rd.answers = append(rd.answers, answer)
		}
	}
	for _, rd := range order {
		path := fmt.Sprintf("answers[%q]", rd.question)
		switch {
		case len(rd.answers) > 1:
			shown := rd.answers[:min(3, len(rd.answers))]
			quoted := make([]string, len(shown))
			for i, a := range shown {
				quoted[i] = strconv.Quote(a)
			}
			more := ""
			if len(rd.answers) > len(shown) {
				more = fmt.Sprintf(" and %d more", len(rd.answers)-len(shown))
			}
			into.Problem(path, "answered %d different ways in the text (%s%s); give one answer", len(rd.answers), strings.Join(quoted, ", "), more)
		case len(rd.answers) == 1:
			t := r.idx[rd.question]
			into.Add(path, form.ChatQuestion{Choice: t.plan.Choice, Group: t.group, Edit: t.plan.Edit}, rd.answers[0])
		case rd.bad:
			into.Problem(path, "could not read the answer: want \"ANSWER\" after %q= (the text AskUserQuestion's result shows, unchanged)", rd.question)
		}
	}
	return len(pairs) > 0
}

// textPairs finds, in order, every `"<question>"=` followed by a quote or
// "(no option selected)" whose question is one of the form's: the longest
// such question ending at each `"=`, starting after the previous pair's
// '='.
func (r *Reader) textPairs(text string) []textPair {
	if r.lengths == nil {
		for q := range r.idx {
			r.lengths = append(r.lengths, len(q))
		}
		slices.Sort(r.lengths)
		r.lengths = slices.Compact(r.lengths)
	}
	var pairs []textPair
	from := 0
	for {
		i := strings.Index(text[from:], "\"=")
		if i < 0 {
			return pairs
		}
		eq := from + i // the quote that closes the question
		after := text[eq+2:]
		from = eq + 1
		if !strings.HasPrefix(after, "\"") && !strings.HasPrefix(after, textNoOption) {
			continue
		}
		floor := 0
		if len(pairs) > 0 {
			floor = pairs[len(pairs)-1].value
		}
		for _, n := range slices.Backward(r.lengths) {
			s := eq - n - 1
			if s < floor || text[s] != '"' {
				continue
			}
			if q := text[s+1 : eq]; r.idx[q].plan != nil {
				pairs = append(pairs, textPair{question: q, start: s, value: eq + 2})
				from = eq + 2
				break
			}
		}
	}
}

// cutTail cuts the last pair's value before the sentence that ends the
// list, if there is one.
func cutTail(v string) string {
	for _, tail := range textTails {
		if i := strings.LastIndex(v, tail); i >= 0 {
			return v[:i]
		}
	}
	return v
}

// textAnswer is the answer in a pair's value: `"<answer>"`, maybe followed
// by a preview, notes or the final full stop.
func textAnswer(v string) (string, bool) {
	if !strings.HasPrefix(v, "\"") {
		return "", false
	}
	end := -1
	for _, after := range []string{textPreview, textNotes} {
		if i := strings.Index(v[1:], after); i >= 0 && (end < 0 || i+1 < end) {
			end = i + 1
		}
	}
	if end < 0 {
		end = strings.LastIndex(v, "\"")
	}
	if end < 1 {
		return "", false
	}
	return v[1:end], true
}
