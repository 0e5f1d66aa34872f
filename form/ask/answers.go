package ask

import (
	"maps"
	"slices"

	"github.com/elicit/elicit/form"
)

// target is what one AskUserQuestion question text stands for.
type target struct {
	plan  *plan
	group int // -1: the field's own question; 0: a two-tier first tier; k: group k
}

// index maps every question text elicit would send for f back to its
// field; a field's plain text maps too, for agents that asked a question the
// host cannot show as free text.
func index(f *form.Form) map[string]target {
	idx := make(map[string]target, len(f.Fields))
	if p := confirmPlan(f); p != nil {
		idx[p.Question.Question] = target{plan: p, group: -1}
	}
	for _, fl := range askedFields(f) {
		plans, reason := askPlans(fl)
		if !fl.Type.Expands() {
			idx[fl.Text] = target{plan: plans[0], group: -1}
		}
		if reason != "" {
			continue
		}
		for _, p := range plans {
			if len(p.Groups) == 0 {
				idx[p.Question.Question] = target{plan: p, group: -1}
				continue
			}
			idx[p.Question.Question] = target{plan: p, group: 0}
			for k, g := range p.Groups {
				idx[g.Question.Question] = target{plan: p, group: k + 1}
				idx[legacyGroupQuestion(p, k+1)] = target{plan: p, group: k + 1}
			}
		}
	}
	return idx
}

// Answers maps the AskUserQuestion tool's answers (keyed by
// question text, multi-select labels joined with commas, free "Other" text,
// and both tiers of a two-tier picker) back onto field ids. answers may come
// from several calls: pass each call's answers object. A question answered
// differently twice is a problem.
func Answers(f *form.Form, answers ...map[string]any) (map[string]any, error) {
	r, into := NewReader(f), form.NewChatAnswers()
	for _, a := range answers {
		r.Read(into, "", a)
	}
	return into.Result()
}

// Reader reads AskUserQuestion outputs for one form.
type Reader struct {
	idx     map[string]target
	lengths []int // of the question texts, each once, ascending; for ReadText
}

// NewReader plans f as Render does, to read its answers back.
func NewReader(f *form.Form) *Reader { return &Reader{idx: index(f)} }

// Read adds one output's answers object to into. prefix goes before the
// paths of its problems ("[2]." for the third output of a list).
func (r *Reader) Read(into *form.ChatAnswers, prefix string, answers map[string]any) {
	into.Each(prefix, answers, func(path, q string, v any) {
		t, ok := r.idx[q]
		if !ok {
			into.Problem(path, "no question of this form has this text%s", form.ClosestQuestion(q, slices.Sorted(maps.Keys(r.idx))))
			return
		}
		s, ok := v.(string)
		if !ok {
			into.Problem(path, "must be a string, as AskUserQuestion answers are (got %s)", form.DescribeValue(v))
			return
		}
		into.Add(path, form.ChatQuestion{Choice: t.plan.Choice, Group: t.group, Edit: t.plan.Edit}, s)
	})
}
