package codex

import (
	"strings"

	"github.com/elicit/elicit/form"
)

// partPlans plans a triage board, an assumption review or a ranking as one
// question per row or rank slot (form.Field.Parts), each under a snake_case
// id of its dotted answer key; the answers come back under the dotted keys
// collect folds. A construct is asked whole or not at all: when one part
// cannot be asked, the one plan returned says why, for the whole field.
func partPlans(f *form.Field, used map[string]bool) []*plan {
	parts := f.Parts()
	out := make([]*plan, 0, len(parts))
	for i := range parts {
		pt := &parts[i]
		if pt.Edit {
			pt.Field.Text = strings.Replace(pt.Field.Text, form.EditHint, editHint, 1)
		}
		p := planFor(&pt.Field, uniqueID(snake(pt.Field.ID), used), used)
		if p.unsupported != "" {
			return []*plan{{field: f, unsupported: pt.What + ": " + p.unsupported}}
		}
		p.edit = pt.Edit
		h := form.Header(pt.Header, MaxHeader)
		p.question.Header = h
		for k := range p.groups {
			p.groups[k].Question.Header = h
		}
		out = append(out, p)
	}
	return out
}

// editHint says how to correct an assumption with request_user_input: its
// free-text answer.
const editHint = "(accept, reject, or pick Other and write the corrected assumption)"
