package formrun

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/responselog"
)

// Recall offers, for each field of f that asks for it ("recall": "last")
// and has no default, the last answer given to it in this project (the
// Who's) to the same form as the default, with an inferred_from naming the
// day and the response: infer, then let the person confirm. An answer that
// no longer holds (the options changed, say) is not offered, and nothing
// is skipped: the person still sees every field. It returns what it
// offered; it offers nothing without a log or with NoRecall, and when the
// log cannot be read (a warning says why).
func (d *Door) Recall(f *Form) []responselog.Recalled {
	if d.Log == nil || f == nil || f.Form == nil {
		return nil
	}
	var ids []string
	for i := range f.Fields {
		if fl := &f.Fields[i]; fl.Recall == form.RecallLast && fl.Default == nil {
			ids = append(ids, fl.ID)
		}
	}
	if len(ids) == 0 || d.NoRecall != nil && d.NoRecall() {
		return nil
	}
	s, err := d.Log.Read()
	if err != nil {
		return nil
	}
	defer s.Close()
	last, err := s.LastAnswers(responselog.TemplateID(f.Template), f.FormID, responselog.Shape(f.Form), d.Who.Project, ids)
	if err != nil || len(last) == 0 {
		return nil
	}
	var out []responselog.Recalled
	for _, id := range ids {
		r, ok := last[id]
		if !ok {
			continue
		}
		if v, ok := holds(f.Form, id, r); ok {
			i := slices.IndexFunc(f.Fields, func(fl form.Field) bool { return fl.ID == id })
			f.Fields[i].Default, f.Fields[i].InferredFrom = v, inferredFrom(r)
			r.Answer = v
			out = append(out, r)
		}
	}
	return out
}

// inferredFrom says where a recalled default came from.
func inferredFrom(r responselog.Recalled) string {
	return "your answer on " + r.Time.UTC().Format(time.DateOnly) + ", " + r.ResponseID
}

// holds reports whether r's answer is still a valid default of field id of
// f, and gives it as the form holds defaults (a multi_select's as a
// []string): a copy of f with the default set must pass Parse's rules.
func holds(f *form.Form, id string, r responselog.Recalled) (any, bool) {
	c := *f
	c.Fields = slices.Clone(f.Fields)
	i := slices.IndexFunc(c.Fields, func(fl form.Field) bool { return fl.ID == id })
	c.Fields[i].Default, c.Fields[i].InferredFrom = r.Answer, inferredFrom(r)
	data, err := json.Marshal(&c)
	if err != nil {
		return nil, false
	}
	parsed, err := form.Parse(data)
	if err != nil {
		return nil, false
	}
	return parsed.Fields[i].Default, true
}
