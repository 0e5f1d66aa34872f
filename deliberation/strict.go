package deliberation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/elicit/elicit/internal/spelling"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/problem"
)

// parseDocument checks the raw bytes of a JSON document: not empty, valid
// UTF-8, valid JSON, an object at the top. On failure it says what is wrong
// with the document as a whole, to follow a lead such as "evaluation is not
// valid: ".
func parseDocument(data []byte) (jsonnode.Node, string) {
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return jsonnode.Node{}, "the document is empty; want a JSON object"
	case !utf8.Valid(data):
		return jsonnode.Node{}, fmt.Sprintf("the document is not valid UTF-8 (first bad byte at offset %d)", jsonnode.FirstInvalidUTF8(data))
	}
	root, err := jsonnode.Parse(data)
	if err != nil {
		return jsonnode.Node{}, err.Error()
	}
	if root.Kind != jsonnode.Object {
		return jsonnode.Node{}, fmt.Sprintf("the document is %s, want a JSON object", describeNode(&root))
	}
	return root, ""
}

// checkUTF8 reports a text input at path that is not valid UTF-8 (text is
// never altered: encoding it as JSON would replace the bad bytes).
func checkUTF8(p *problem.List, path, text string) {
	if !utf8.ValidString(text) {
		p.Add(path, "is not valid UTF-8 (first bad byte at offset %d); want UTF-8 text", jsonnode.FirstInvalidUTF8([]byte(text)))
	}
}

// describeNode names a JSON value for a message, in JSON terms: `a string
// ("x")`, `a number (5)`, `an array`, `null`.
func describeNode(n *jsonnode.Node) string {
	switch n.Kind {
	case jsonnode.String:
		s := n.Text
		if utf8.RuneCountInString(s) > 40 {
			s = string([]rune(s)[:40]) + "…"
		}
		return fmt.Sprintf("a string (%q)", s)
	case jsonnode.Number:
		return "a number (" + n.Text + ")"
	case jsonnode.Bool:
		return fmt.Sprintf("a boolean (%t)", n.True)
	case jsonnode.Array:
		return "an array"
	case jsonnode.Object:
		return "an object"
	}
	return "null"
}

// treeDecoder decodes a jsonnode tree into a Go value strictly, the way
// encoding/json would with DisallowUnknownFields, but collecting every
// problem with its JSON path (points[2].text) in document order: wrong
// types (in JSON terms), unknown keys and duplicate keys.
type treeDecoder struct {
	data  []byte // the document, for json.RawMessage values
	probs problem.List
	// nullOK accepts null for any value and leaves it zero, as
	// encoding/json does; otherwise null is accepted only where the Go value
	// can hold it (pointers, lists, maps).
	nullOK bool
	// near are the known keys suggested for unknown ones, by path.
	near []string
}

// covers reports whether a problem at path is already told by a decoding
// problem: the same path, a path inside it, or the key an unknown key was
// taken to mean.
func (d *treeDecoder) covers(path string) bool {
	for _, p := range d.probs {
		if p.Path == path || strings.HasPrefix(path, p.Path+".") || strings.HasPrefix(path, p.Path+"[") {
			return true
		}
	}
	for _, n := range d.near {
		if path == n || strings.HasPrefix(path, n+".") || strings.HasPrefix(path, n+"[") {
			return true
		}
	}
	return false
}

// isRawMessage reports whether t is json.RawMessage, kept as its bytes.
// (A package-level reflect.Type would be set at package initialisation.)
func isRawMessage(t reflect.Type) bool { return t == reflect.TypeFor[json.RawMessage]() }

func (d *treeDecoder) decode(path string, n *jsonnode.Node, v reflect.Value) {
	t := v.Type()
	if isRawMessage(t) {
		v.SetBytes(append(json.RawMessage(nil), d.data[n.Offset:n.End]...))
		return
	}
	if n.Kind == jsonnode.Null {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			v.SetZero()
			return
		}
		if !d.nullOK {
			d.wrongType(path, n, t)
		}
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		d.decode(path, n, v.Elem())
	case reflect.Interface:
		if t.NumMethod() != 0 {
			d.probs.Add(path, "cannot be decoded")
			return
		}
		if val := n.Value(); val != nil {
			v.Set(reflect.ValueOf(val))
		}
	case reflect.Struct:
		d.object(path, n, v)
	case reflect.Map:
		d.mapValue(path, n, v)
	case reflect.Slice:
		if n.Kind != jsonnode.Array {
			d.wrongType(path, n, t)
			return
		}
		s := reflect.MakeSlice(t, len(n.Items), len(n.Items))
		for i := range n.Items {
			d.decode(fmt.Sprintf("%s[%d]", path, i), &n.Items[i], s.Index(i))
		}
		v.Set(s)
	case reflect.String:
		if n.Kind != jsonnode.String {
			d.wrongType(path, n, t)
			return
		}
		v.SetString(n.Text)
	case reflect.Bool:
		if n.Kind != jsonnode.Bool {
			d.wrongType(path, n, t)
			return
		}
		v.SetBool(n.True)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n.Kind != jsonnode.Number {
			d.wrongType(path, n, t)
			return
		}
		i, err := strconv.ParseInt(n.Text, 10, 64)
		if err != nil || v.OverflowInt(i) {
			d.probs.Add(path, "is %s, want a whole number", describeNode(n))
			return
		}
		v.SetInt(i)
	case reflect.Float32, reflect.Float64:
		if n.Kind != jsonnode.Number {
			d.wrongType(path, n, t)
			return
		}
		f, err := strconv.ParseFloat(n.Text, t.Bits())
		if err != nil {
			d.probs.Add(path, "is %s, out of range", describeNode(n))
			return
		}
		v.SetFloat(f)
	default:
		d.probs.Add(path, "cannot be decoded")
	}
}

func (d *treeDecoder) wrongType(path string, n *jsonnode.Node, t reflect.Type) {
	d.probs.Add(path, "is %s, want %s", describeNode(n), wantType(t))
}

// wantType says in JSON terms what a value of Go type t is.
func wantType(t reflect.Type) string {
	if isRawMessage(t) {
		return "a JSON value"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return wantType(t.Elem()) + " or null"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice:
		elem := t.Elem()
		for elem.Kind() == reflect.Pointer {
			elem = elem.Elem()
		}
		switch elem.Kind() {
		case reflect.String:
			return "an array of strings"
		case reflect.Struct, reflect.Map:
			return "an array of objects"
		}
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean (true or false)"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a JSON value"
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// object decodes an object into a struct, by the json tags of its fields.
func (d *treeDecoder) object(path string, n *jsonnode.Node, v reflect.Value) {
	if n.Kind != jsonnode.Object {
		d.wrongType(path, n, v.Type())
		return
	}
	fields := fieldsOf(v.Type())
	seen := make(map[string]bool, len(n.Members))
	for i := range n.Members {
		m := &n.Members[i]
		at := join(path, m.Key)
		if seen[m.Key] {
			d.probs.Add(at, "duplicate key (each key may appear once)")
			continue
		}
		seen[m.Key] = true
		f, ok := fields.index[m.Key]
		if !ok {
			// A key the object has is not what an unknown one meant:
			// the guess would hide that key's own problems.
			absent := slices.DeleteFunc(slices.Clone(fields.names), func(name string) bool {
				return slices.ContainsFunc(n.Members, func(m jsonnode.Member) bool { return m.Key == name })
			})
			d.probs.Add(at, "unknown key; %s", suggest(m.Key, absent, fields.names))
			if best := spelling.Closest(strings.ToLower(m.Key), absent, 3); best != "" {
				d.near = append(d.near, join(path, best))
			}
			continue
		}
		d.decode(at, &m.Value, v.Field(f))
	}
}

func (d *treeDecoder) mapValue(path string, n *jsonnode.Node, v reflect.Value) {
	t := v.Type()
	if n.Kind != jsonnode.Object || t.Key().Kind() != reflect.String {
		d.wrongType(path, n, t)
		return
	}
	m := reflect.MakeMapWithSize(t, len(n.Members))
	seen := make(map[string]bool, len(n.Members))
	for i := range n.Members {
		mem := &n.Members[i]
		at := join(path, mem.Key)
		if seen[mem.Key] {
			d.probs.Add(at, "duplicate key (each key may appear once)")
			continue
		}
		seen[mem.Key] = true
		e := reflect.New(t.Elem()).Elem()
		d.decode(at, &mem.Value, e)
		m.SetMapIndex(reflect.ValueOf(mem.Key).Convert(t.Key()), e)
	}
	v.Set(m)
}

// suggest says what an unknown key should be: the nearest of the known
// keys not given (absent) when one is close, otherwise the list of keys.
func suggest(key string, absent, names []string) string {
	if best := spelling.Closest(strings.ToLower(key), absent, 3); best != "" {
		return fmt.Sprintf("did you mean %q?", best)
	}
	return "want one of: " + strings.Join(names, ", ")
}

type structFields struct {
	index map[string]int // JSON name → field index
	names []string       // JSON names, in declaration order
}

var fieldCache sync.Map // reflect.Type → *structFields

// fieldsOf lists the JSON names of a struct's exported fields (this
// package's types have no embedded structs).
func fieldsOf(t reflect.Type) *structFields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*structFields)
	}
	sf := &structFields{index: make(map[string]int, t.NumField()), names: make([]string, 0, t.NumField())}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(jsonTag(f.Tag), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		sf.index[name] = i
		sf.names = append(sf.names, name)
	}
	fieldCache.Store(t, sf)
	return sf
}

// jsonTag is tag.Get("json") for the tags this package writes, which are
// json:"..." alone or first and hold no escapes: a slice of the tag, where
// Get unquotes each key's value in turn (a third of what `deliberate
// status` spends decoding a state file, in every call). Any other tag goes
// to Get.
func jsonTag(tag reflect.StructTag) string {
	const key = `json:"`
	s := string(tag)
	if !strings.HasPrefix(s, key) {
		return tag.Get("json")
	}
	v, _, ok := strings.Cut(s[len(key):], `"`)
	if !ok || strings.Contains(v, `\`) {
		return tag.Get("json")
	}
	return v
}
