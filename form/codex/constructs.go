package codex

import (
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/internal/chatplan"
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
		p := planFor(&pt.Field, uniqueID(snake(pt.Field.ID), used), used, true)
		if p.Unsupported != "" {
			return []*plan{{chatplan.Plan[Question]{Field: f, Unsupported: pt.What + ": " + p.Unsupported}}}
		}
		p.Edit = pt.Edit
		h := form.Header(pt.Header, maxHeader)
		p.Question.Header = h
		for k := range p.Groups {
			p.Groups[k].Question.Header = h
		}
		out = append(out, p)
	}
	return out
}

// editHint says how to correct an assumption with request_user_input: its
// free-text answer.
const editHint = "(accept, reject, or pick Other and write the corrected assumption)"
