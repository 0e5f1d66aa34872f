package codex

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/spelling"
)

// Answers maps request_user_input's answers back onto field ids. Each
// argument is the "answers" object of one tool result,
// {"<question id>": {"answers": ["<label or Other text>"]}}; pass one per
// call. Labels map to options (badges stripped), Not now to no answer,
// anything else is the person's free text, kept for collect to judge; a
// two-tier picker's two answers make one (form.ChatAnswers, shared with
// AskUserQuestion's reader).
func Answers(f *form.Form, answers ...map[string]any) (map[string]any, error) {
	r, into := NewReader(f), form.NewChatAnswers()
	for _, a := range answers {
		r.Read(into, "", a)
	}
	return into.Result()
}

// target is what a question id stands for: a field's question (group 0)
// or the follow-up of group k of its two-tier picker.
type target struct {
	plan  *plan
	group int
}

// Reader reads request_user_input results for one form.
type Reader struct {
	idx map[string]target
}

// NewReader plans f as Render does, to read its answers back.
func NewReader(f *form.Form) *Reader {
	idx := map[string]target{}
	ps := plans(f)
	for _, p := range ps {
		if p.Unsupported != "" {
			continue
		}
		idx[p.Question.ID] = target{p, 0}
		for k, g := range p.Groups {
			idx[g.Question.ID] = target{p, k + 1}
		}
	}
	if p := confirmPlan(f, ps); p != nil {
		idx[p.Question.ID] = target{p, 0}
	}
	return &Reader{idx: idx}
}

// Read adds one result's answers object to into. prefix goes before the
// paths of its problems ("[2]." for the third result of a list).
func (r *Reader) Read(into *form.ChatAnswers, prefix string, answers map[string]any) {
	into.Each(prefix, answers, func(path, qid string, v any) {
		t, ok := r.idx[qid]
		if !ok {
			into.Problem(path, "no question of this form has this id%s", form.ClosestQuestion(qid, slices.Sorted(maps.Keys(r.idx))))
			return
		}
		if answer, ok := picked(into, path, v); ok {
			into.Add(path, form.ChatQuestion{Choice: t.plan.Choice, Group: t.group, Edit: t.plan.Edit}, answer)
		}
	})
}

// picked reads one question's {"answers": [...]}: its one answer, or false
// when it was skipped or is malformed (reported).
func picked(into *form.ChatAnswers, path string, raw any) (string, bool) {
	obj, ok := raw.(map[string]any)
	list, listOK := obj["answers"].([]any)
	if !ok || !listOK {
		into.Problem(path, `must be {"answers": ["<chosen label or your text>"]}, as request_user_input answers (got %s)`, describeAnswer(obj, raw))
		return "", false
	}
	var given []string
	for i, e := range list {
		s, ok := e.(string)
		if !ok {
			into.Problem(fmt.Sprintf("%s.answers[%d]", path, i), "must be a string (got %s)", form.DescribeValue(e))
			return "", false
		}
		if strings.TrimSpace(s) != "" {
			given = append(given, s)
		}
	}
	switch {
	case len(given) == 0:
		return "", false // skipped: no answer
	case len(given) > 1:
		into.Problem(path+".answers", "holds %d answers; request_user_input asks for one", len(given))
		return "", false
	}
	return given[0], true
}

// describeAnswer names what a malformed answer is: an object by its keys,
// with the one meant for "answers" when one is close.
func describeAnswer(obj map[string]any, raw any) string {
	if obj == nil {
		return form.DescribeValue(raw)
	}
	if v, ok := obj["answers"]; ok {
		return `an object whose "answers" is ` + form.DescribeValue(v)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if spelling.Closest(k, []string{"answers"}, 2) != "" {
			return fmt.Sprintf("an object with %q: did you mean \"answers\"?", k)
		}
	}
	return fmt.Sprintf("an object with the keys %s", strings.Join(quoteAll(keys), ", "))
}

func quoteAll(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = fmt.Sprintf("%q", k)
	}
	return out
}
