package form

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/elicit/elicit/problem"
)

// checkRulings validates a triage board's answer, {row key: disposition},
// or an assumption review's, {row key: "accept" | "reject" | {"edit":
// text}}. A required field needs a ruling for every row.
func checkRulings(f *Field, v any) (any, []answerProblem) {
	m, ok := v.(map[string]any)
	if !ok {
		if sm, isStrings := v.(map[string]string); isStrings {
			m = make(map[string]any, len(sm))
			for k, r := range sm {
				m[k] = r
			}
		} else {
			return nil, []answerProblem{{msg: fmt.Sprintf("must be an object mapping each row's key to its ruling (got %s)", DescribeValue(v))}}
		}
	}
	keys := itemKeys(f)
	isKey := memberOf(keys)
	isDisposition := dispositionCheck{memberOf(f.Dispositions), quote(f.Dispositions)}
	var probs []answerProblem
	var unknown []string
	for _, k := range sortedKeys(m) {
		if !isKey(k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		probs = append(probs, answerProblem{msg: fmt.Sprintf("%s not among the rows (%s)", quoteSome(unknown, ", "), quoteSome(keys, ", "))})
	}
	out := make(map[string]any, len(m))
	var missing []string
	for _, k := range keys {
		r, given := m[k]
		if !given || isNoAnswer(r) {
			missing = append(missing, k)
			continue
		}
		var val any
		var msg string
		if f.Type == Triage {
			val, msg = checkDisposition(f, isDisposition, r)
		} else {
			val, msg = checkAssumptionRuling(r)
		}
		if msg != "" {
			probs = append(probs, answerProblem{at: memberPath(k), msg: msg})
			continue
		}
		out[k] = val
	}
	if f.Required && len(missing) > 0 && len(missing) < len(keys) {
		probs = append(probs, answerProblem{msg: fmt.Sprintf("no ruling for %s (every row needs one)", quoteSome(missing, ", "))})
	}
	if len(probs) > 0 {
		return nil, probs
	}
	if len(out) == 0 {
		return nil, nil
	}
	if f.Type == Triage {
		rulings := make(map[string]string, len(out))
		for k, r := range out {
			rulings[k] = r.(string)
		}
		return rulings, nil
	}
	return out, nil
}

func itemKeys(f *Field) []string {
	items := f.Items()
	keys := make([]string, len(items))
	for i, it := range items {
		keys[i] = it.Key()
	}
	return keys
}

// memberPath is the answer path of member key of an object answer.
func memberPath(key string) string {
	if validID(key) {
		return "." + key
	}
	return "[" + strconv.Quote(key) + "]"
}

// dispositionCheck tells a triage board's dispositions and quotes them.
type dispositionCheck struct {
	is   func(string) bool
	list quoted
}

func checkDisposition(f *Field, isDisposition dispositionCheck, r any) (any, string) {
	s, ok := r.(string)
	if !ok {
		return nil, fmt.Sprintf("must be one of the dispositions as a string (got %s)", DescribeValue(r))
	}
	if !isDisposition.is(s) {
		return nil, fmt.Sprintf("%q is not one of the dispositions (%s)", s, isDisposition.list)
	}
	return s, ""
}

// checkAssumptionRuling validates one assumption's ruling: "accept",
// "reject", or {"edit": replacement text}.
func checkAssumptionRuling(r any) (any, string) {
	const want = `"accept", "reject" or {"edit": "the corrected assumption"}`
	switch x := r.(type) {
	case string:
		switch x {
		case RulingAccept, RulingReject:
			return x, ""
		case RulingEdit:
			return nil, `an edit needs its replacement text: {"edit": "the corrected assumption"}`
		}
		return nil, fmt.Sprintf("%q is not a ruling (give %s)", x, want)
	case map[string]any:
		text, ok := x[RulingEdit]
		if len(x) != 1 || !ok {
			return nil, fmt.Sprintf("an object ruling is an edit with one key, %q (give %s)", RulingEdit, want)
		}
		s, ok := text.(string)
		if !ok || strings.TrimSpace(s) == "" {
			return nil, fmt.Sprintf("an edit needs its replacement text as a non-empty string (got %s)", DescribeValue(text))
		}
		return map[string]any{RulingEdit: s}, ""
	case map[string]string:
		if s, ok := x[RulingEdit]; ok && len(x) == 1 && strings.TrimSpace(s) != "" {
			return map[string]any{RulingEdit: s}, ""
		}
	}
	return nil, fmt.Sprintf("must be %s (got %s)", want, DescribeValue(r))
}

// checkRankingAnswer validates a ranking's answer: a list of distinct
// options, exactly RankSlots long, best first.
func checkRankingAnswer(f *Field, v any) (any, []answerProblem) {
	list, ok := anyList(v)
	if !ok {
		return nil, []answerProblem{{msg: fmt.Sprintf("must be a list of options, best first (got %s)", DescribeValue(v))}}
	}
	var probs []answerProblem
	var bad, repeated []string
	order := make([]string, 0, len(list))
	isOption := memberOf(f.Options)
	inOrder := make(map[string]bool, len(list))
	for i, e := range list {
		s, ok := e.(string)
		switch {
		case !ok:
			probs = append(probs, answerProblem{at: fmt.Sprintf("[%d]", i), msg: fmt.Sprintf("must be one of the options as a string (got %s)", DescribeValue(e))})
			continue
		case !isOption(s):
			bad = append(bad, s)
		case inOrder[s]:
			repeated = append(repeated, s)
		}
		inOrder[s] = true
		order = append(order, s)
	}
	var msgs []string
	if len(bad) > 0 {
		msgs = append(msgs, fmt.Sprintf("%s not among the options (%s)", quoteSome(bad, ", "), quoteSome(f.Options, ", ")))
	}
	if len(repeated) > 0 {
		msgs = append(msgs, fmt.Sprintf("ranks %s more than once", quoteSome(repeated, ", ")))
	}
	if want := f.RankSlots(); len(list) != want {
		msgs = append(msgs, fmt.Sprintf("ranks %d option(s); rank exactly %d (%s)", len(list), want, slotsWhy(f)))
	}
	if len(msgs) > 0 {
		probs = append(probs, answerProblem{msg: strings.Join(msgs, "; ")})
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return order, nil
}

// foldDotted gathers the dotted answers of the fields that expand on flat
// surfaces back into one answer each: "<id>.<row key>" into a triage
// board's or an assumption review's rulings (with "<id>.<row key>.text"
// as an edit's replacement text) and "<id>.<slot>" (from 1) into a
// ranking's order. It returns answers unchanged when there is nothing to
// fold, and never changes the caller's map; reported holds the fields whose
// dotted answers had problems, which are not checked again.
func foldDotted(f *Form, answers map[string]any, probs *problem.List) (folded map[string]any, reported map[string]bool) {
	dottedOf := dottedKeys(f, answers)
	for i := range f.Fields {
		fl := &f.Fields[i]
		if !fl.Type.Expands() {
			continue
		}
		dotted := dottedOf[fl.ID]
		if len(dotted) == 0 {
			continue
		}
		if folded == nil {
			folded = make(map[string]any, len(answers))
			for k, v := range answers {
				folded[k] = v
			}
		}
		sort.Strings(dotted)
		for _, k := range dotted {
			delete(folded, k)
		}
		n := len(*probs)
		var v any
		if _, both := answers[fl.ID]; both {
			probs.Add("answers."+fl.ID, "given both whole and as dotted keys (%s): give one shape", strings.Join(dotted, ", "))
		} else if fl.Type == Ranking {
			v = foldSlots(fl, answers, dotted, probs)
		} else {
			v = foldRulings(fl, answers, dotted, probs)
		}
		if v != nil {
			folded[fl.ID] = v
		} else if len(*probs) > n {
			// Nothing to check: the problems already say what is wrong.
			if reported == nil {
				reported = map[string]bool{}
			}
			reported[fl.ID] = true
		}
	}
	if folded == nil {
		return answers, nil
	}
	return folded, reported
}

// dottedKeys lists, for each field that expands, the answer keys under its
// id ("<id>.<row>"), looking each key's prefixes up once rather than
// matching every key against every field.
func dottedKeys(f *Form, answers map[string]any) map[string][]string {
	var expands map[string]bool
	for i := range f.Fields {
		if f.Fields[i].Type.Expands() {
			if expands == nil {
				expands = map[string]bool{}
			}
			expands[f.Fields[i].ID] = true
		}
	}
	if expands == nil {
		return nil
	}
	out := map[string][]string{}
	for k := range answers {
		// Ids are at most 64 bytes: only a dot within them can end one.
		for i := 0; i < len(k) && i <= 64; i++ {
			if k[i] == '.' && expands[k[:i]] {
				out[k[:i]] = append(out[k[:i]], k)
			}
		}
	}
	return out
}

// foldSlots turns "<id>.1", "<id>.2", ... into a ranking's order.
func foldSlots(f *Field, answers map[string]any, dotted []string, probs *problem.List) any {
	slots := map[int]any{}
	from := map[int]string{}
	n := f.RankSlots()
	for _, k := range dotted {
		suffix := strings.TrimPrefix(k, f.ID+".")
		slot, err := strconv.Atoi(suffix)
		switch {
		case err != nil || suffix == "" || suffix[0] < '0' || suffix[0] > '9':
			probs.Add("answers."+k, "not a rank slot of ranking %q (the slots are %s.1 to %s.%d)", f.ID, f.ID, f.ID, n)
			continue
		case slot < 1 || slot > n:
			probs.Add("answers."+k, "there is no rank %d (ranking %q has slots 1 to %d)", slot, f.ID, n)
			continue
		case from[slot] != "":
			probs.Add("answers."+k, "rank %d is also given as %s (give each slot once)", slot, from[slot])
			continue
		}
		from[slot] = k
		if !isNoAnswer(answers[k]) {
			slots[slot] = answers[k]
		}
	}
	if len(slots) == 0 {
		return nil
	}
	var missing []string
	order := make([]any, 0, n)
	for s := 1; s <= n; s++ {
		v, ok := slots[s]
		if !ok {
			missing = append(missing, strconv.Itoa(s))
			continue
		}
		order = append(order, v)
	}
	if len(missing) > 0 {
		probs.Add("answers."+f.ID, "rank %s not given (a ranking fills every slot from 1 to %d)", strings.Join(missing, ", "), n)
		return nil
	}
	return order
}

// foldRulings turns "<id>.<row key>" (and "<id>.<row key>.text" for an
// assumption's edit) into {row key: ruling}.
func foldRulings(f *Field, answers map[string]any, dotted []string, probs *problem.List) any {
	rulings := map[string]any{}
	texts := map[string]any{}
	for _, k := range dotted {
		key := strings.TrimPrefix(k, f.ID+".")
		if f.Type == AssumptionReview && strings.HasSuffix(key, EditTextSuffix) {
			texts[strings.TrimSuffix(key, EditTextSuffix)] = answers[k]
			continue
		}
		rulings[key] = answers[k]
	}
	for _, key := range sortedKeys(texts) {
		r, ruled := rulings[key]
		switch {
		case !ruled && isNoAnswer(texts[key]):
		case !ruled:
			probs.Add("answers."+f.ID+"."+key+EditTextSuffix, "replacement text for a row with no ruling (give %s.%s: %q with it)", f.ID, key, RulingEdit)
		case r == RulingEdit:
			rulings[key] = map[string]any{RulingEdit: texts[key]}
		case !isNoAnswer(texts[key]) && r != nil:
			probs.Add("answers."+f.ID+"."+key+EditTextSuffix, "replacement text, but the ruling is %s (text is read only with %q)", DescribeValue(r), RulingEdit)
		}
	}
	if len(rulings) == 0 {
		return nil
	}
	return rulings
}
