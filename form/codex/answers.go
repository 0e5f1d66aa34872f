package codex

import (
	"fmt"
	"slices"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/problem"
)

// Answers maps request_user_input's answers back onto field ids. Each
// argument is the "answers" object of one tool result,
// {"<question id>": {"answers": ["<label or Other text>"]}}; pass one per
// call. Labels map to options ("(Recommended)" and "(your approach)"
// stripped), Not now to no answer, anything else is the person's free
// text, kept for collect to judge; a two-tier picker's two answers make one.
func Answers(f *form.Form, answers ...map[string]any) (map[string]any, error) {
	idx := map[string]target{}
	for _, p := range plans(f) {
		if p.unsupported != "" {
			continue
		}
		idx[p.question.ID] = target{p, 0}
		for k, g := range p.groups {
			idx[g.Question.ID] = target{p, k + 1}
		}
	}
	m := &mapper{out: map[string]any{}, tier1: map[string]int{}, answered: map[string]bool{}}
	for _, a := range answers {
		keys := make([]string, 0, len(a))
		for k := range a {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, qid := range keys {
			m.answer(idx, qid, a[qid])
		}
	}
	for _, p := range plans(f) {
		if k, ok := m.tier1[p.field.ID]; ok && !m.answered[p.field.ID] {
			m.probs.Add("answers."+p.field.ID, "the first tier chose %s but its follow-up question (%s) was not answered", p.groups[k-1].Label, p.groups[k-1].Question.ID)
		}
	}
	if len(m.probs) > 0 {
		return nil, m.probs
	}
	return m.out, nil
}

// target is what a question id stands for: a field's question (group 0)
// or the follow-up of group k of its two-tier picker.
type target struct {
	plan  *plan
	group int
}

type mapper struct {
	out      map[string]any
	tier1    map[string]int  // field id -> group chosen in the first tier
	answered map[string]bool // field id -> a follow-up was answered
	probs    problem.List
}

func (m *mapper) answer(idx map[string]target, qid string, raw any) {
	path := fmt.Sprintf("answers[%q]", qid)
	t, ok := idx[qid]
	if !ok {
		m.probs.Add(path, "no question of this form has this id")
		return
	}
	obj, ok := raw.(map[string]any)
	list, listOK := obj["answers"].([]any)
	if !ok || !listOK {
		m.probs.Add(path, `must be {"answers": ["<chosen label or your text>"]}, as request_user_input answers (got %s)`, form.DescribeValue(raw))
		return
	}
	var picked []string
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			m.probs.Add(fmt.Sprintf("%s.answers[%d]", path, i), "must be a string (got %s)", form.DescribeValue(e))
			return
		}
		if strings.TrimSpace(s) != "" {
			picked = append(picked, s)
		}
	}
	switch {
	case len(picked) == 0:
		return // skipped: no answer
	case len(picked) > 1:
		m.probs.Add(path+".answers", "holds %d answers; request_user_input asks for one", len(picked))
		return
	}
	p, answer := t.plan, picked[0]
	if t.group == 0 && len(p.groups) > 0 {
		if k := p.groupNumber(answer); k > 0 {
			m.tier1[p.field.ID] = k
			return
		}
	}
	if t.group > 0 {
		m.answered[p.field.ID] = true
	}
	if p.edit {
		form.EditAnswer(m.out, p.field.ID, p.unlabel(answer))
		return
	}
	m.out[p.field.ID] = p.unlabel(answer)
}

func (p *plan) groupNumber(label string) int {
	for k, g := range p.groups {
		if strings.EqualFold(strings.TrimSpace(label), g.Label) {
			return k + 1
		}
	}
	return 0
}

// unlabel maps a label back to its option; Not now is no answer; anything
// else is free text, returned as written.
func (p *plan) unlabel(s string) string {
	t := strings.TrimSpace(s)
	rec := p.field.Recommendation()
	for _, o := range p.options {
		if l := p.label(o, rec); l == t || o == t {
			if o == form.NotNow && p.field.NeedsNotNow() {
				return ""
			}
			return o
		}
	}
	for _, suf := range []string{form.RecommendedSuffix, form.UserPositionSuffix} {
		t = strings.TrimSuffix(t, suf)
	}
	return t
}
