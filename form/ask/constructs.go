package ask

import (
	"fmt"
	"strings"

	"github.com/elicit/elicit/form"
)

// How the constructs whose answer is more than one choice are asked:
// AskUserQuestion asks one single choice per question, so a triage board
// becomes one question per row (its dispositions as options), an assumption
// review one question per assumption (accept or reject; "Other" text is the
// corrected assumption) and a ranking one question per rank slot (every
// option in every slot). Their answers come back under the dotted keys
// form.Collect folds: "<id>.<row key>", "<id>.<row key>.text", "<id>.<slot>".

// askPlans plans how f is asked: one question, or one per row or slot of a
// construct that expands. reason is why f cannot be asked at all ("" when
// it can); a construct is asked whole or not at all.
func askPlans(f *form.Field) (plans []*plan, reason string) {
	if !f.Type.Expands() {
		p := planFor(f)
		return []*plan{p}, p.Unsupported
	}
	parts := f.Parts()
	plans = make([]*plan, len(parts))
	for i := range parts {
		if parts[i].Edit {
			parts[i].Field.Text = strings.Replace(parts[i].Field.Text, form.EditHint, editHint, 1)
		}
		p := new(plan)
		p.planAs(&parts[i].Field, form.SuggestedSuffix)
		if p.Unsupported != "" {
			return nil, fmt.Sprintf("%s: %s", parts[i].What, p.Unsupported)
		}
		p.Edit = parts[i].Edit
		p.setHeader(form.Header(parts[i].Header, maxHeader))
		plans[i] = p
	}
	return plans, ""
}

// editHint says how to correct an assumption on AskUserQuestion: its own
// "Other" free text.
const editHint = "(accept, reject, or choose Other and type the corrected assumption)"

// setHeader replaces the chip header of the question and its follow-ups.
func (p *plan) setHeader(h string) {
	p.Question.Header = h
	for i := range p.Groups {
		p.Groups[i].Question.Header = h
	}
}
