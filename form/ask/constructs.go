package ask

import (
	"fmt"
	"strconv"

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
		return []*plan{p}, p.unsupported
	}
	subs := expand(f)
	plans = make([]*plan, len(subs))
	for i := range subs {
		p := new(plan)
		p.planAs(&subs[i].field, form.SuggestedSuffix)
		if p.unsupported != "" {
			return nil, fmt.Sprintf("%s: %s", subs[i].what, p.unsupported)
		}
		p.edit = f.Type == form.AssumptionReview
		p.setHeader(form.Header(subs[i].header, MaxHeader))
		plans[i] = p
	}
	return plans, ""
}

// sub is one question a construct expands into.
type sub struct {
	field  form.Field // a single_select under the dotted key
	what   string     // the row or slot, for messages
	header string     // what the chip header is made from
}

// expand turns a triage board, an assumption review or a ranking into one
// single choice per row or rank slot. The agent's suggestion becomes the
// sub-question's default, shown first and marked as suggested. The
// construct's rationale and help text lead the first question only.
func expand(f *form.Field) []sub {
	var out []sub
	switch f.Type {
	case form.Triage, form.AssumptionReview:
		texts := map[string]int{}
		for _, it := range f.Items() {
			texts[it.Text()]++
		}
		for _, it := range f.Items() {
			text := it.Text()
			if texts[text] > 1 {
				text += " [" + it.Key() + "]" // rows that read alike
			}
			s := sub{what: "row " + strconv.Quote(it.Key()), header: it.Key()}
			s.field = form.Field{ID: f.ID + "." + it.Key(), Text: f.Text + " — " + text, Type: form.SingleSelect,
				Required: f.Required, Options: f.Dispositions}
			if f.Type == form.AssumptionReview {
				s.field.Text += " (accept, reject, or choose Other and type the corrected assumption)"
				s.field.Options = []string{form.RulingAccept, form.RulingReject}
				s.field.OptionNotes = map[string]string{form.RulingAccept: "It holds as stated.", form.RulingReject: "It is wrong: drop it."}
			}
			if r := f.SuggestedRuling(it.Key()); r != "" {
				s.field.Default = r
			}
			out = append(out, s)
		}
	case form.Ranking:
		for k := 1; k <= f.RankSlots(); k++ {
			s := sub{what: f.RankLabel(k), header: "Rank " + strconv.Itoa(k)}
			s.field = form.Field{ID: f.ID + "." + strconv.Itoa(k), Text: f.Text + " — " + f.RankLabel(k) + " (each option once)",
				Type: form.SingleSelect, Required: f.Required, Options: f.Options, OptionNotes: f.OptionNotes}
			if o := f.SuggestedAt(k); o != "" {
				s.field.Default = o
			}
			out = append(out, s)
		}
	}
	if len(out) > 0 {
		first := &out[0].field
		first.Text = joinNonEmpty(" ", f.Rationale, first.Text)
		first.HelpText = f.HelpText
	}
	return out
}

// setHeader replaces the chip header of the question and its follow-ups.
func (p *plan) setHeader(h string) {
	p.question.Header = h
	for i := range p.groups {
		p.groups[i].Question.Header = h
	}
}

// editAnswer maps an assumption question's answer onto the dotted keys:
// accept or reject as given, any other text as an edit with that text.
func editAnswer(out map[string]any, id, answer string) {
	if answer == form.RulingAccept || answer == form.RulingReject {
		out[id] = answer
		return
	}
	out[id] = form.RulingEdit
	out[id+form.EditTextSuffix] = answer
}
