package form

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/elicit/elicit/internal/jsonnode"
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
	typeIdx     int      // index of Type in Types, when typeOK
	seen        uint32   // bits of fieldKeys seen
	unknown     []string // unknown keys seen, for duplicates
	requiredSet bool
	defaultNode *jsonnode.Node
	// textKey is the key the question text came under: "text", or its
	// alias "label".
	textKey string
}

func (s *fieldState) has(key string) bool { return s.seen&keyBit(key) != 0 }

// field decodes and checks one field; ok is false when it is not an object.
// textKey is the key its question text came under.
func (d *decoder) field(path loc, n *jsonnode.Node) (f Field, textKey string, ok bool) {
	if n.Kind != jsonnode.Object {
		d.add(path, "must be an object with id, text and type (got %s)", describe(n))
		return Field{}, "", false
	}
	s := &fieldState{path: path}
	s.Required = true
	if t := n.Get("type"); t != nil && t.Kind == jsonnode.String {
		if s.typeIdx = slices.Index(Types, Type(t.Text)); s.typeIdx >= 0 {
			s.Type, s.typeOK = Type(t.Text), true
		}
	}
	for i := range n.Members {
		d.member(s, &n.Members[i])
	}
	for _, k := range []string{"id", "text", "type"} {
		if !s.has(k) {
			d.add(path.key(k), "missing (every field needs id, text and type)")
		}
	}
	if s.textKey == "" {
		s.textKey = "text"
	}
	if s.typeOK {
		d.checkType(s)
	}
	d.checkInference(s)
	return s.Field, s.textKey, true
}

// member decodes one key of a field.
func (d *decoder) member(s *fieldState, m *jsonnode.Member) {
	path := s.path.key(m.Key)
	key := m.Key
	if key == textAlias {
		key = "text"
	}
	bit := keyBit(key)
	if key == "text" && s.seen&bit != 0 && s.textKey != m.Key {
		d.add(path, "both %q and its alias %q are given (give the question once)", "text", textAlias)
		return
	}
	if s.seen&bit != 0 || (bit == 0 && slices.Contains(s.unknown, m.Key)) {
		d.add(path, "duplicate key (give each key once)")
		return
	}
	s.seen |= bit
	if bit == 0 {
		s.unknown = append(s.unknown, m.Key)
		d.unknownKey(path, m.Key, fieldKeys)
		return
	}
	if s.typeOK && typeMasks[s.typeIdx]&bit == 0 {
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
	case "required":
		if v.Kind != jsonnode.Bool {
			d.add(path, "must be true or false (got %s)", describe(v))
			return
		}
		s.Required, s.requiredSet = v.True, true
	case "default":
		s.defaultNode = v
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
	}
}

func (d *decoder) id(s *fieldState, path loc, v *jsonnode.Node) {
	id, ok := d.nonEmpty(path, v)
	if ok && !validID(id) {
		d.add(path, "%q is not a valid id (use 1-64 letters, digits, '_', '-' or '.', not starting with '-' or '.')", id)
		return
	}
	s.ID = id
}

func (d *decoder) typ(path loc, v *jsonnode.Node) {
	t, ok := d.str(path, v)
	if !ok || slices.Contains(Types, Type(t)) {
		return
	}
	names := make([]string, len(Types))
	for i, t := range Types {
		names[i] = string(t)
	}
	if s := suggest(t, names); s != "" {
		d.add(path, "unknown type %q (did you mean '%s'?)", t, s)
		return
	}
	d.add(path, "unknown type %q (one of: %s)", t, strings.Join(names, ", "))
}

func (d *decoder) oneOf(path loc, v *jsonnode.Node, allowed ...string) string {
	s, ok := d.str(path, v)
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

func (d *decoder) options(path loc, v *jsonnode.Node) []string {
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
			d.add(p, "empty option (an option needs a label)")
			continue
		case strings.TrimSpace(o) != o:
			d.add(p, "option %q has leading or trailing white space (write %q)", o, strings.TrimSpace(o))
		}
		if j, dup := seen[o]; dup {
			d.add(p, "duplicate option %q (same as %s[%d])", o, path, j)
			continue
		}
		seen[o] = i
		out = append(out, o)
	}
	return out
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
			d.add(p.key("label"), "duplicate label %q (same as %s[%d])", item.Label, path, j)
			continue
		}
		labels[item.Label] = i
		out = append(out, item)
	}
	return out
}

func (d *decoder) progressItem(path loc, v *jsonnode.Node) (ProgressItem, bool) {
	if v.Kind != jsonnode.Object {
		d.add(path, "must be an object {label, status, detail?} (got %s)", describe(v))
		return ProgressItem{}, false
	}
	var item ProgressItem
	seen := map[string]bool{}
	for i := range v.Members {
		m := &v.Members[i]
		p := path.key(m.Key)
		switch {
		case seen[m.Key]:
			d.add(p, "duplicate key (give each key once)")
		case m.Key == "label":
			item.Label, _ = d.nonEmpty(p, &m.Value)
		case m.Key == "status":
			item.Status, _ = d.nonEmpty(p, &m.Value)
		case m.Key == "detail":
			item.Detail, _ = d.str(p, &m.Value)
		default:
			d.unknownKey(p, m.Key, progressItemKeys)
		}
		seen[m.Key] = true
	}
	for _, k := range []string{"label", "status"} {
		if !seen[k] {
			d.add(path.key(k), "missing (a progress item needs a label and a status)")
		}
	}
	return item, true
}
