package form

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/internal/strictjson"
)

// idPattern is what a field id may look like: it keys answers, HTML
// attributes and JSON Schema properties, so it stays plain. validID checks
// it without a regexp.
const idPattern = `^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$`

func validID(id string) bool {
	if len(id) == 0 || len(id) > 64 || id[0] == '.' || id[0] == '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// fieldState is a field while it is being decoded.
type fieldState struct {
	Field
	path        loc
	typeOK      bool
	typeIdx     int    // index of Type in types, when typeOK
	seen        uint32 // bits of fieldKeys seen
	nulls       uint32 // bits of the keys given as null
	bad         uint32 // bits of the keys a problem was reported under
	requiredSet bool
	defaultNode *jsonnode.Node
	// textKey is the key the question text came under: "text", or its
	// alias "label".
	textKey       string
	suggestedNode *jsonnode.Node
}

// hadProblem reports whether a problem was reported under key.
func (s *fieldState) hadProblem(key string) bool { return s.bad&keyBit(key) != 0 }

// has reports whether key was given (a null value is not).
func (s *fieldState) has(key string) bool { return (s.seen&^s.nulls)&keyBit(key) != 0 }

// field decodes and checks one field; ok is false when it is not an object.
func (d *decoder) field(path loc, n *jsonnode.Node) (Field, bool) {
	if n.Kind != jsonnode.Object {
		d.add(path, "must be an object with id, text and type (got %s)", describe(n))
		return Field{}, false
	}
	s := &fieldState{path: path}
	s.Required = true
	if t := n.Get("type"); t != nil && t.Kind == jsonnode.String {
		if s.typeIdx = slices.Index(types, Type(t.Text)); s.typeIdx >= 0 {
			s.Type, s.typeOK = Type(t.Text), true
		}
	}
	for i, first := range strictjson.Keys(n) {
		d.member(s, &n.Members[i], first >= 0)
	}
	for _, k := range []string{"id", "text", "type"} {
		if !s.has(k) {
			d.add(path.key(k), "missing (every field needs id, text and type)")
		}
	}
	if s.typeOK {
		d.checkType(s)
	}
	d.checkInference(s)
	return s.Field, true
}

// member decodes one key of a field (dup: given before), noting whether it
// had a problem.
func (d *decoder) member(s *fieldState, m *jsonnode.Member, dup bool) {
	key := m.Key
	if key == textAlias {
		key = "text"
	}
	bit := keyBit(key)
	before := d.probs.count()
	d.memberKey(s, m, key, bit, dup)
	if d.probs.count() > before {
		s.bad |= bit
	}
}

func (d *decoder) memberKey(s *fieldState, m *jsonnode.Member, key string, bit uint32, dup bool) {
	path := s.path.key(m.Key)
	if key == "text" && s.seen&bit != 0 && s.textKey != m.Key {
		d.add(path, "both %q and its alias %q are given (give the question once)", "text", textAlias)
		return
	}
	if dup {
		d.add(path, "duplicate key (give each key once)")
		return
	}
	s.seen |= bit
	if bit == 0 {
		d.unknownKey(path, m.Key, keyset.fieldKeys)
		return
	}
	if m.Value.Kind == jsonnode.Null && bit&keyset.nullable != 0 {
		s.nulls |= bit // null stands for "not given"
		return
	}
	if s.typeOK && keyset.masks[s.typeIdx]&bit == 0 {
		if why := fieldTypes[s.typeIdx].refusal(key); why != "" {
			d.add(path, "not allowed on %s: %s", s.Type, why)
			return
		}
		d.add(path, "not a key of type %s (it belongs to %s)", s.Type, strings.Join(typesWith(m.Key), ", "))
		return
	}
	if key == "text" {
		s.textKey = m.Key
	}
	d.decodeKey(s, key, path, &m.Value)
}

func (d *decoder) decodeKey(s *fieldState, key string, path loc, v *jsonnode.Node) {
	switch key {
	case "id":
		d.id(s, path, v)
	case "text":
		s.Text, _ = d.nonEmpty(path, v)
	case "type":
		d.typ(path, v)
	case "options":
		s.Options = d.options(path, v)
	case "path_kind":
		s.PathKind = d.oneOf(path, v, PathKinds()...)
	case "path_options":
		s.PathOptions = d.pathOptions(path, v)
	case "required":
		if v.Kind != jsonnode.Bool {
			d.add(path, "must be true or false (got %s)", describe(v))
			return
		}
		s.Required, s.requiredSet = v.True, true
	case "default":
		s.defaultNode = v
	case "recall":
		s.Recall = d.oneOf(path, v, RecallLast)
	case "inferred_from":
		s.InferredFrom, _ = d.nonEmpty(path, v)
		s.InferredFrom = strings.TrimSpace(s.InferredFrom)
	case "help_text":
		s.HelpText, _ = d.str(path, v)
	case "list_style":
		s.ListStyle = d.oneOf(path, v, "ordered", "unordered")
	case "minimum":
		s.Minimum = d.bound(path, v)
	case "maximum":
		s.Maximum = d.bound(path, v)
	case "max_length":
		s.MaxLength = d.maxLength(path, v)
	case "recommended":
		s.Recommended, _ = d.nonEmpty(path, v)
	case "rationale":
		s.Rationale, _ = d.nonEmpty(path, v)
	case "user_position":
		s.UserPosition, _ = d.nonEmpty(path, v)
	case "option_notes":
		s.OptionNotes = d.optionNotes(path, v)
	case "progress_items":
		s.ProgressItems = d.progressItems(path, v)
	case "progress_style":
		s.ProgressStyle = d.oneOf(path, v, "report")
	case "endorsements":
		s.Endorsements = d.endorsements(path, v)
	case "triage_items":
		s.TriageItems = d.items(path, v, &triageRow)
	case "assumptions":
		s.Assumptions = d.items(path, v, &assumptionRow)
	case "dispositions":
		s.Dispositions = d.labels(path, v, "disposition")
	case "consequences":
		s.Consequences = d.consequences(path, v)
	case "top_n":
		s.TopN = d.topN(path, v)
	case "suggested":
		s.suggestedNode = v // its shape depends on the type
	}
}

func (d *decoder) id(s *fieldState, path loc, v *jsonnode.Node) {
	id, ok := d.word(path, v)
	if ok && strings.TrimSpace(id) == "" {
		d.add(path, "must not be empty")
		return
	}
	if ok && !validID(id) {
		d.add(path, "%q is not a valid id (use 1-64 letters, digits, '_', '-' or '.', not starting with '-' or '.')", id)
		return
	}
	s.ID = id
}

func (d *decoder) typ(path loc, v *jsonnode.Node) {
	t, ok := d.word(path, v)
	if !ok || slices.Contains(types, Type(t)) {
		return
	}
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = string(t)
	}
	if s := suggest(t, names); s != "" {
		d.add(path, "unknown type %q (did you mean '%s'?)", t, s)
		return
	}
	d.add(path, "unknown type %q (one of: %s)", t, strings.Join(names, ", "))
}

func (d *decoder) oneOf(path loc, v *jsonnode.Node, allowed ...string) string {
	s, ok := d.word(path, v)
	if !ok {
		return ""
	}
	if !slices.Contains(allowed, s) {
		d.add(path, "must be %s (got %q)", quoteList(allowed, " or "), s)
		return ""
	}
	return s
}

func quoteList(items []string, sep string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, sep)
}

// listedMax is how many items of a reference list (the options, the field
// ids) a message quotes; a message per problem quoting all of a long list
// would make the report grow with the square of the input.
const listedMax = 20

// quoted is quoteSome of a list, formatted when a message is first
// formatted with it (%s) and then kept: a loop that reports many problems
// against one list quotes the list once, and not at all past maxProblems.
type quoted struct {
	items []string
	text  *string
}

func quote(items []string) quoted { return quoted{items: items, text: new(string)} }

func (q quoted) String() string {
	if *q.text == "" {
		*q.text = quoteSome(q.items, ", ")
	}
	return *q.text
}

// quoteSome is quoteList of at most listedMax items, then how many more.
func quoteSome(items []string, sep string) string {
	if len(items) <= listedMax {
		return quoteList(items, sep)
	}
	return fmt.Sprintf("%s%s… %d more", quoteList(items[:listedMax], sep), sep, len(items)-listedMax)
}

func (d *decoder) options(path loc, v *jsonnode.Node) []string {
	return d.labels(path, v, "option")
}

// labels decodes a list of unique, non-empty, trimmed labels (options,
// dispositions); noun names one in messages.
func (d *decoder) labels(path loc, v *jsonnode.Node, noun string) []string {
	if v.Kind != jsonnode.Array {
		d.add(path, "must be a list of strings (got %s)", describe(v))
		return nil
	}
	out := make([]string, 0, len(v.Items))
	seen := map[string]int{}
	for i := range v.Items {
		p := path.at(i)
		o, ok := d.str(p, &v.Items[i])
		switch {
		case !ok:
			continue
		case strings.TrimSpace(o) == "":
			d.add(p, "empty %s (%s %s needs a label)", noun, article(noun), noun)
			continue
		case strings.TrimSpace(o) != o:
			d.add(p, "%s %q has leading or trailing white space (write %q)", noun, o, strings.TrimSpace(o))
		}
		if j, dup := seen[o]; dup {
			d.add(p, "duplicate %s %q (same as %s[%d])", noun, o, d.path(path), j)
			continue
		}
		seen[o] = i
		out = append(out, o)
	}
	return out
}

// article is "an" before a vowel, else "a".
func article(noun string) string {
	if strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an"
	}
	return "a"
}

func (d *decoder) bound(path loc, v *jsonnode.Node) *float64 {
	f, ok := d.number(path, v)
	if !ok {
		return nil
	}
	return &f
}

func (d *decoder) maxLength(path loc, v *jsonnode.Node) int {
	f, ok := d.number(path, v)
	if !ok {
		return 0
	}
	if f != math.Trunc(f) || f < 1 || f > math.MaxInt32 {
		d.add(path, "must be a positive whole number (got %s)", v.Text)
		return 0
	}
	return int(f)
}

func (d *decoder) optionNotes(path loc, v *jsonnode.Node) map[string]string {
	if v.Kind != jsonnode.Object {
		d.add(path, "must be an object mapping options to one-line notes (got %s)", describe(v))
		return nil
	}
	out := make(map[string]string, len(v.Members))
	for i := range v.Members {
		m := &v.Members[i]
		p := path.key(m.Key)
		if _, dup := out[m.Key]; dup {
			d.add(p, "duplicate key (give each option one note)")
			continue
		}
		if note, ok := d.str(p, &m.Value); ok {
			out[m.Key] = note
		}
	}
	return out
}

func (d *decoder) progressItems(path loc, v *jsonnode.Node) []ProgressItem {
	if v.Kind != jsonnode.Array {
		d.add(path, "must be a list of {label, status, detail?} objects (got %s)", describe(v))
		return nil
	}
	out := make([]ProgressItem, 0, len(v.Items))
	labels := map[string]int{}
	for i := range v.Items {
		p := path.at(i)
		item, ok := d.progressItem(p, &v.Items[i])
		if !ok {
			continue
		}
		if j, dup := labels[item.Label]; dup && item.Label != "" {
			d.add(p.key("label"), "duplicate label %q (same as %s[%d])", item.Label, d.path(path), j)
			continue
		}
		labels[item.Label] = i
		out = append(out, item)
	}
	return out
}

func (d *decoder) progressItem(path loc, v *jsonnode.Node) (ProgressItem, bool) {
	vals, ok := d.row(path, v, &progressRow)
	return ProgressItem{Label: vals[0], Status: vals[1], Detail: vals[2]}, ok
}

// rowSpec describes the objects of a list of rows: progress items, triage
// rows, assumptions, consequences.
type rowSpec struct {
	keys     []string // every key, the required ones first (at most 4)
	required int      // how many keys, from the front, must be given
	nonEmpty int      // how many keys, from the front, may not be empty
	missing  string   // why a required key is needed
}

// The rows of the constructs: a progress item, a triage row, an assumption
// and a consequence. The keys are written in each literal (not shared
// variables), so that the specs are data, not work at package
// initialisation.
var (
	progressRow    = rowSpec{keys: []string{"label", "status", "detail"}, required: 2, nonEmpty: 2, missing: "a progress item needs a label and a status"}
	triageRow      = rowSpec{keys: []string{"label", "id", "detail", "tag"}, required: 1, nonEmpty: 2, missing: "every row needs a label"}
	assumptionRow  = rowSpec{keys: []string{"label", "id", "detail", "source"}, required: 1, nonEmpty: 2, missing: "every row needs a label"}
	consequenceRow = rowSpec{keys: []string{"label", "severity", "detail"}, required: 1, nonEmpty: 1, missing: "every consequence needs a label"}
)

// shape describes the row object: "{label, status, detail?}".
func (s *rowSpec) shape() string {
	parts := make([]string, len(s.keys))
	for i, k := range s.keys {
		parts[i] = k
		if i >= s.required {
			parts[i] += "?"
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// row decodes one row object: vals holds its strings in spec order ("" for
// a key not given or with a problem). ok is false when it is not an object.
func (d *decoder) row(path loc, v *jsonnode.Node, spec *rowSpec) (vals [4]string, ok bool) {
	if v.Kind != jsonnode.Object {
		d.add(path, "must be an object %s (got %s)", spec.shape(), describe(v))
		return vals, false
	}
	var seen uint8
	for i, first := range strictjson.Keys(v) {
		m := &v.Members[i]
		p := path.key(m.Key)
		k := slices.Index(spec.keys, m.Key)
		switch {
		case first >= 0:
			d.add(p, "duplicate key (give each key once)")
			continue
		case k < 0:
			d.unknownKey(p, m.Key, spec.keys)
			continue
		}
		seen |= 1 << k
		if k < spec.nonEmpty {
			vals[k], _ = d.nonEmpty(p, &m.Value)
		} else {
			vals[k], _ = d.str(p, &m.Value)
		}
	}
	for k := range spec.required {
		if seen&(1<<k) == 0 {
			d.add(path.key(spec.keys[k]), "missing (%s)", spec.missing)
		}
	}
	return vals, true
}
