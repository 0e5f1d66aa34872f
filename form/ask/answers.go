package ask

import (
	"fmt"
	"slices"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/problem"
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
	for _, fl := range askedFields(f) {
		plans, reason := askPlans(fl)
		if !fl.Type.Expands() {
			idx[fl.Text] = target{plan: plans[0], group: -1}
		}
		if reason != "" {
			continue
		}
		for _, p := range plans {
			if len(p.groups) == 0 {
				idx[p.question.Question] = target{plan: p, group: -1}
				continue
			}
			idx[p.question.Question] = target{plan: p, group: 0}
			for k, g := range p.groups {
				idx[g.Question.Question] = target{plan: p, group: k + 1}
			}
		}
	}
	return idx
}

// Answers maps the AskUserQuestion tool's answers (keyed by
// question text, multi-select labels joined with commas, free "Other" text,
// and both tiers of a two-tier picker) back onto field ids. answers may come
// from several calls: pass the merged answers objects.
func Answers(f *form.Form, answers ...map[string]any) (map[string]any, error) {
	idx := index(f)
	m := &mapper{out: map[string]any{}, tier1: map[string]string{}, answered: map[string][]int{}, plans: map[string]*plan{}}
	for _, a := range answers {
		keys := make([]string, 0, len(a))
		for k := range a {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, q := range keys {
			m.answer(idx, q, a[q])
		}
	}
	m.checkTiers()
	if len(m.probs) > 0 {
		return nil, m.probs
	}
	return m.out, nil
}

type mapper struct {
	out      map[string]any
	tier1    map[string]string // question id -> first-tier answer naming groups
	answered map[string][]int  // question id -> groups (from 1) whose follow-up was answered
	plans    map[string]*plan  // question id -> its plan, for two-tier pickers
	probs    problem.List
}

func (m *mapper) answer(idx map[string]target, q string, raw any) {
	path := fmt.Sprintf("answers[%q]", q)
	t, ok := idx[q]
	if !ok {
		m.probs.Add(path, "no question of this form has this text")
		return
	}
	s, ok := raw.(string)
	if !ok {
		m.probs.Add(path, "must be a string, as AskUserQuestion answers are (got %s)", form.DescribeValue(raw))
		return
	}
	f := t.plan.field
	if t.group > 0 {
		m.answered[f.ID] = append(m.answered[f.ID], t.group)
	}
	switch {
	case t.group == 0 && t.plan.namesGroups(s):
		m.tier1[f.ID] = s
		m.plans[f.ID] = t.plan
	case f.Type == form.MultiSelect:
		m.addMulti(f, t.plan.splitMulti(s))
	case t.plan.edit:
		form.EditAnswer(m.out, f.ID, t.plan.unlabel(s))
	default:
		m.out[f.ID] = t.plan.unlabel(s)
	}
}

// addMulti merges the choices of a multi-select answer (two-tier pickers
// answer in several questions), in option order.
func (m *mapper) addMulti(f *form.Field, chosen []string) {
	prev, _ := m.out[f.ID].([]string)
	all := append(slices.Clone(prev), chosen...)
	picked := make(map[string]bool, len(all))
	for _, c := range all {
		picked[c] = true
	}
	isOption := make(map[string]bool, len(f.Options))
	var ordered []string
	for _, o := range f.Options {
		isOption[o] = true
		if picked[o] {
			ordered = append(ordered, o)
			picked[o] = false // once, however often it was picked
		}
	}
	for _, c := range all {
		if !isOption[c] {
			ordered = append(ordered, c) // free text: collect reports it
		}
	}
	m.out[f.ID] = ordered
}

// checkTiers reports two-tier pickers whose first tier chose a group whose
// follow-up question was not answered.
func (m *mapper) checkTiers() {
	ids := make([]string, 0, len(m.tier1))
	for id := range m.tier1 {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		p := m.plans[id]
		var missing []string
		for _, label := range strings.Split(m.tier1[id], ",") {
			label = strings.TrimSpace(label)
			if k := p.groupNumber(label); k > 0 && !slices.Contains(m.answered[id], k) {
				missing = append(missing, label)
			}
		}
		if len(missing) > 0 {
			m.probs.Add("answers."+id, "the first tier chose %s but the follow-up question for it was not answered", strings.Join(missing, ", "))
		}
	}
}

// groupNumber is the number (from 1) of the group labelled label, or 0.
func (p *plan) groupNumber(label string) int {
	for k, g := range p.groups {
		if g.Label == label {
			return k + 1
		}
	}
	return 0
}

// namesGroups reports whether a first-tier answer names groups (one, or
// several comma-joined for a multi-select) rather than being "Other" text.
func (p *plan) namesGroups(answer string) bool {
	parts := []string{answer}
	if p.field.Type == form.MultiSelect {
		parts = strings.Split(answer, ",")
	}
	for _, part := range parts {
		if p.groupNumber(strings.TrimSpace(part)) == 0 {
			return false
		}
	}
	return true
}

// unlabel maps an option label back to the option; anything else is free
// "Other" text and comes back as written.
func (p *plan) unlabel(s string) string {
	t := strings.TrimSpace(s)
	if p.field.NeedsNotNow() && strings.EqualFold(t, form.NotNow) {
		return "" // no answer: nothing is tackled now
	}
	if i, ok := p.optionOf(s, t); ok {
		return p.options[i]
	}
	for _, suf := range []string{form.RecommendedSuffix, form.SuggestedSuffix, form.UserPositionSuffix} {
		t = strings.TrimSuffix(t, suf)
	}
	return t
}

// optionOf is the index of the first option whose label is s or t. Past a
// few options it looks the labels up in an index built once per plan, so
// that a long answer against many options stays linear.
func (p *plan) optionOf(s, t string) (int, bool) {
	if len(p.options) <= 16 {
		rec := p.field.Recommendation()
		for i, o := range p.options {
			if l := p.label(o, rec); l == s || l == t {
				return i, true
			}
		}
		return 0, false
	}
	if p.labels == nil {
		rec := p.field.Recommendation()
		p.labels = make(map[string]int, len(p.options))
		for i, o := range p.options {
			if l := p.label(o, rec); !mapHas(p.labels, l) {
				p.labels[l] = i
			}
		}
	}
	i, okS := p.labels[s]
	j, okT := p.labels[t]
	switch {
	case okS && okT:
		return min(i, j), true
	case okS:
		return i, true
	}
	return j, okT
}

func mapHas(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}

// splitMulti splits a comma-joined multi-select answer into options.
func (p *plan) splitMulti(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, p.unlabel(part))
		}
	}
	return out
}
