package form

import (
	"math"
	"slices"
	"strings"

	"github.com/elicit/elicit/internal/jsonnode"
)

// minRankOptions is the fewest options a ranking orders.
const minRankOptions = 2

// minDispositions is the fewest rulings a triage board offers: one ruling
// is a rubber stamp, not a choice.
const minDispositions = 2

// Rulings are the rulings each row of a triage (its dispositions) or an
// assumption review (accept, edit, reject) may get.
func (f *Field) Rulings() []string {
	if f.Type == AssumptionReview {
		return []string{RulingAccept, RulingEdit, RulingReject}
	}
	return f.Dispositions
}

// Items are the rows of a triage board or an assumption review (nil for
// other types).
func (f *Field) Items() []Item {
	switch f.Type {
	case Triage:
		return f.TriageItems
	case AssumptionReview:
		return f.Assumptions
	}
	return nil
}

// RankSlots is how many options a ranking's answer orders: top_n, or all.
func (f *Field) RankSlots() int {
	if f.TopN > 0 {
		return f.TopN
	}
	return len(f.Options)
}

// endorsements decodes {option: [voice, ...]}.
func (d *decoder) endorsements(path loc, v *jsonnode.Node) map[string][]string {
	if v.Kind != jsonnode.Object {
		d.add(path, "must be an object mapping options to the names of the voices that endorse them (got %s)", describe(v))
		return nil
	}
	if len(v.Members) == 0 {
		d.add(path, "is empty (a deliberation with no endorsements is a decision: name at least one voice behind an option)")
		return nil
	}
	out := make(map[string][]string, len(v.Members))
	for i := range v.Members {
		m := &v.Members[i]
		p := path.key(m.Key)
		if _, dup := out[m.Key]; dup {
			d.add(p, "duplicate key (give each option's voices once)")
			continue
		}
		if names, ok := d.voices(p, &m.Value); ok {
			out[m.Key] = names
		}
	}
	return out
}

// voices decodes one option's list of endorsing voices.
func (d *decoder) voices(path loc, v *jsonnode.Node) ([]string, bool) {
	if v.Kind != jsonnode.Array || len(v.Items) == 0 {
		d.add(path, "must be a list of 1 or more names of endorsing voices (got %s)", describe(v))
		return nil, false
	}
	names := make([]string, 0, len(v.Items))
	seen := make(map[string]int, len(v.Items))
	ok := true
	for i := range v.Items {
		n := &v.Items[i]
		switch j, dup := seen[n.Text]; {
		case n.Kind != jsonnode.String:
			d.add(path.at(i), "must be a string naming an endorsing voice (got %s)", describe(n))
			ok = false
		case strings.TrimSpace(n.Text) == "":
			d.add(path.at(i), "is empty (name the voice)")
			ok = false
		case dup:
			if d.probs.full() {
				d.probs.more++ // skip formatting the paths
			} else {
				d.add(path.at(i), "duplicate voice %q (same as %s)", n.Text, d.path(path.at(j)))
			}
			ok = false
		default:
			d.checkText(path.at(i), n.Text)
			seen[n.Text] = i
			names = append(names, n.Text)
		}
	}
	return names, ok
}

// items decodes the rows of a triage board or an assumption review:
// objects with a label and the spec's optional keys; keys must be unique.
func (d *decoder) items(path loc, v *jsonnode.Node, spec *rowSpec) []Item {
	if v.Kind != jsonnode.Array || len(v.Items) == 0 {
		d.add(path, "must be a list of 1 or more %s objects (got %s)", spec.shape(), describe(v))
		return nil
	}
	out := make([]Item, 0, len(v.Items))
	at := map[string]int{}
	alike := map[string]int{} // keys with their white space collapsed
	for i := range v.Items {
		p := path.at(i)
		vals, ok := d.row(p, &v.Items[i], spec)
		if !ok || vals[0] == "" {
			continue // not a row, or no label
		}
		it := Item{Label: vals[0], ID: vals[1], Detail: vals[2]}
		if spec == &triageRow {
			it.Tag = vals[3]
		} else {
			it.Source = vals[3]
		}
		if j, dup := at[it.Key()]; dup {
			d.add(p, "duplicate key %q (same as %s[%d]; a row's answer key is its id, or its label when it has none)", it.Key(), d.path(path), j)
			continue
		}
		line := strings.Join(strings.Fields(it.Key()), " ")
		if j, dup := alike[line]; dup {
			d.add(p, "key %q differs from the key of %s[%d] only in white space, so the two rows cannot be told apart where keys are typed (give one an id)", it.Key(), d.path(path), j)
			continue
		}
		at[it.Key()], alike[line] = i, i
		out = append(out, it)
	}
	return out
}

// consequences decodes a confirm's {label, severity?, detail?} list.
func (d *decoder) consequences(path loc, v *jsonnode.Node) []Consequence {
	if v.Kind != jsonnode.Array || len(v.Items) == 0 {
		d.add(path, "must be a list of 1 or more %s objects (got %s)", consequenceRow.shape(), describe(v))
		return nil
	}
	out := make([]Consequence, 0, len(v.Items))
	for i := range v.Items {
		if vals, ok := d.row(path.at(i), &v.Items[i], &consequenceRow); ok {
			out = append(out, Consequence{Label: vals[0], Severity: vals[1], Detail: vals[2]})
		}
	}
	return out
}

func (d *decoder) topN(path loc, v *jsonnode.Node) int {
	f, ok := d.number(path, v)
	if !ok {
		return 0
	}
	if f != math.Trunc(f) || f < 1 || f > math.MaxInt32 {
		d.add(path, "must be a positive whole number of options to rank (got %s)", v.Text)
		return 0
	}
	return int(f)
}

// checkConstruct enforces the rules of the later constructs, after every
// key of the field has been decoded.
func (d *decoder) checkConstruct(s *fieldState) {
	switch s.Type {
	case Deliberation:
		d.requireKey(s, "endorsements", "a deliberation maps options to the voices that endorse them: {option: [names]}")
		isOption, options := memberOf(s.Options), quote(s.Options)
		for _, opt := range sortedKeys(s.Endorsements) {
			if len(s.Options) > 0 && !isOption(opt) {
				d.add(s.path.key("endorsements").key(opt), "%q is not one of the options (%s)", opt, options)
			}
		}
	case Triage:
		d.requireKey(s, "triage_items", "a triage board lists the rows to rule on: [{label, id?, detail?, tag?}]")
		d.requireKey(s, "dispositions", "a triage board offers 2 or more rulings, e.g. [\"fix\", \"defer\", \"dismiss\"]")
		if s.has("dispositions") && len(s.Dispositions) < minDispositions && !s.hadProblem("dispositions") {
			d.add(s.path.key("dispositions"), "needs %d or more rulings to choose from (got %d)", minDispositions, len(s.Dispositions))
		}
		d.suggestedRulings(s, s.Dispositions, "dispositions")
	case Confirm:
		d.requireKey(s, "consequences", "a confirm lists what the action will do: [{label, severity?, detail?}]")
		switch {
		case !s.has("options"):
			s.Options = slices.Clone(confirmOptions)
		case len(s.Options) != 2 && !s.hadProblem("options"):
			d.add(s.path.key("options"), "a confirm has exactly 2 options, approve and abort (got %d; leave options out for %s)", len(s.Options), quoteList(confirmOptions, " and "))
		}
	case Ranking:
		d.checkRanking(s)
	case AssumptionReview:
		d.requireKey(s, "assumptions", "an assumption review lists what was inferred: [{label, id?, detail?, source?}]")
		labels := map[string]int{}
		for i, it := range s.Assumptions {
			p := s.path.key("assumptions").at(i)
			if j, dup := labels[it.Label]; dup {
				d.add(p.key("label"), "duplicate label %q (same as %s[%d]; two rows that read alike cannot be told apart)", it.Label, d.path(s.path.key("assumptions")), j)
			}
			labels[it.Label] = i
			if strings.HasSuffix(it.Key(), EditTextSuffix) {
				d.add(p, "key %q ends in %q, which flat surfaces use for an edit's replacement text (give the row another id)", it.Key(), EditTextSuffix)
			}
		}
		d.suggestedRulings(s, []string{RulingAccept}, "")
	}
}

func (d *decoder) requireKey(s *fieldState, key, what string) {
	if !s.has(key) {
		d.add(s.path.key(key), "missing (%s)", what)
	}
}

// suggestedRulings decodes a triage board's or an assumption review's
// suggested rulings: {item key: ruling}, each ruling one of allowed.
// allowedKey names the key allowed comes from, or "" for the fixed accept.
func (d *decoder) suggestedRulings(s *fieldState, allowed []string, allowedKey string) {
	v := s.suggestedNode
	if v == nil {
		return
	}
	path := s.path.key("suggested")
	if v.Kind != jsonnode.Object {
		d.add(path, "must be an object mapping row keys to suggested rulings (got %s)", describe(v))
		return
	}
	keys := make([]string, 0, len(s.Items()))
	for _, it := range s.Items() {
		keys = append(keys, it.Key())
	}
	isKey, isAllowed := memberOf(keys), memberOf(allowed)
	keysText, allowedText := quote(keys), quote(allowed)
	out := make(map[string]string, len(v.Members))
	for i := range v.Members {
		m := &v.Members[i]
		p := path.key(m.Key)
		if _, dup := out[m.Key]; dup {
			d.add(p, "duplicate key (suggest one ruling per row)")
			continue
		}
		r, ok := d.str(p, &m.Value)
		if !ok {
			continue
		}
		switch {
		case !isKey(m.Key):
			if len(keys) > 0 {
				d.add(p, "%q is not the key of a row (%s)", m.Key, keysText)
			}
		case allowedKey == "" && r != RulingAccept:
			d.add(p, "may only suggest %q (got %q): an edit or a rejection is the user's to make", RulingAccept, r)
		case allowedKey != "" && len(allowed) > 0 && !isAllowed(r):
			d.add(p, "%q is not one of the %s (%s)", r, allowedKey, allowedText)
		default:
			out[m.Key] = r
		}
	}
	s.Suggested.Rulings = out
}

// checkRanking enforces a ranking's rules: 2 or more options, top_n within
// them, and a suggested order of top_n (or all) distinct options.
func (d *decoder) checkRanking(s *fieldState) {
	n := len(s.Options)
	if s.has("options") && n > 0 && n < minRankOptions && !s.hadProblem("options") { // none: checkType said so
		d.add(s.path.key("options"), "a ranking orders %d or more options (got %d)", minRankOptions, n)
	}
	if s.TopN > n && n > 0 {
		d.add(s.path.key("top_n"), "is %d, but there are only %d options to rank", s.TopN, n)
		s.TopN = 0
	}
	v := s.suggestedNode
	if v == nil {
		return
	}
	path := s.path.key("suggested")
	if v.Kind != jsonnode.Array {
		d.add(path, "must be a list of options in the proposed order (got %s)", describe(v))
		return
	}
	order := make([]string, 0, len(v.Items))
	var bad, repeated []string
	isOption := memberOf(s.Options)
	inOrder := make(map[string]bool, len(v.Items))
	for i := range v.Items {
		o, ok := d.str(path.at(i), &v.Items[i])
		switch {
		case !ok:
			continue
		case !isOption(o):
			bad = append(bad, o)
		case inOrder[o]:
			repeated = append(repeated, o)
		}
		inOrder[o] = true
		order = append(order, o)
	}
	ok := len(bad) == 0 && len(repeated) == 0
	if len(bad) > 0 && n > 0 {
		d.add(path, "%s not among the options (%s)", quoteSome(bad, ", "), quoteSome(s.Options, ", "))
	}
	if len(repeated) > 0 {
		d.add(path, "proposes %s more than once (an order names each option once)", quoteSome(repeated, ", "))
	}
	if want := s.RankSlots(); want > 0 && len(order) != want {
		d.add(path, "proposes %d option(s); a proposed order names exactly %d (%s)", len(order), want, slotsWhy(&s.Field))
		ok = false
	}
	if ok {
		s.Suggested.Order = order
	}
}

// slotsWhy says where a ranking's slot count comes from.
func slotsWhy(f *Field) string {
	if f.TopN > 0 {
		return "top_n"
	}
	return "every option"
}

// checkNamespaces reports field ids inside the dotted answer namespace of
// a field that expands on flat surfaces: the answer to "a.x" would be
// taken for row x of triage board "a".
func (d *decoder) checkNamespaces(fields []Field, at []int) {
	// The fields under each expanding field's id, found by looking up the
	// prefixes of every id (at most 64 bytes) rather than comparing every
	// pair of fields.
	owners := map[string]bool{}
	for i := range fields {
		if fields[i].Type.Expands() && fields[i].ID != "" {
			owners[fields[i].ID] = true
		}
	}
	if len(owners) == 0 {
		return
	}
	inside := map[string][]int{}
	for k := range fields {
		id := fields[k].ID
		for j := 0; j < len(id); j++ {
			if id[j] == '.' && owners[id[:j]] {
				inside[id[:j]] = append(inside[id[:j]], k)
			}
		}
	}
	for i := range fields {
		owner := &fields[i]
		if !owner.Type.Expands() || owner.ID == "" {
			continue
		}
		for _, k := range inside[owner.ID] {
			d.add(fieldLoc(at[k]).key("id"), "%q is inside the answers of %s %q (flat surfaces answer it as %q); rename one of them",
				fields[k].ID, owner.Type, owner.ID, owner.ID+".<"+namespaceWord(owner.Type)+">")
		}
	}
}

func namespaceWord(t Type) string {
	if t == Ranking {
		return "slot"
	}
	return "row"
}
