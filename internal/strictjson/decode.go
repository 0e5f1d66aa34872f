package strictjson

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/problem"
)

// Decoder decodes jsonnode trees into Go values strictly, as encoding/json
// would with DisallowUnknownFields, but collecting every problem with its
// JSON path (points[2].text) in document order: wrong types (in JSON
// terms), unknown keys (with the key probably meant) and keys given twice.
// Struct fields are matched by their json tags, exactly; embedded structs
// are not flattened.
type Decoder struct {
	// Data is the document the trees come from, for json.RawMessage
	// values.
	Data []byte
	// NullOK accepts null for any value and leaves it zero, as
	// encoding/json does; otherwise null is accepted only where the Go
	// value can hold it (pointers, slices, maps, interfaces).
	NullOK bool
	// Problems are the problems found, in document order.
	Problems problem.List
	// near are the paths of the known keys the unknown ones were taken to
	// mean.
	near []string
}

// Decode decodes n, found at path, into the value v points to.
func (d *Decoder) Decode(path string, n *jsonnode.Node, v any) {
	d.decode(path, n, reflect.ValueOf(v).Elem())
}

// Covers reports whether a problem at path is already told by a decoding
// problem: at the same path, a path inside it, or the key an unknown key
// was taken to mean. A check after decoding leaves such problems out: the
// value there was not decoded.
func (d *Decoder) Covers(path string) bool {
	for _, p := range d.Problems {
		if within(path, p.Path) {
			return true
		}
	}
	return slices.ContainsFunc(d.near, func(n string) bool { return within(path, n) })
}

// within reports whether path is at or inside the value at outer.
func within(path, outer string) bool {
	return path == outer || strings.HasPrefix(path, outer+".") || strings.HasPrefix(path, outer+"[")
}

// isRawMessage reports whether t is json.RawMessage, kept as its text.
func isRawMessage(t reflect.Type) bool { return t == reflect.TypeFor[json.RawMessage]() }

func (d *Decoder) decode(path string, n *jsonnode.Node, v reflect.Value) {
	t := v.Type()
	if isRawMessage(t) {
		v.SetBytes(append(json.RawMessage(nil), d.Data[n.Offset:n.End]...))
		return
	}
	if n.Kind == jsonnode.Null {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			v.SetZero()
			return
		}
		if !d.NullOK {
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
			d.Problems.Add(path, "cannot be decoded")
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
			d.decode(Index(path, i), &n.Items[i], s.Index(i))
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
			d.Problems.Add(path, "is %s, want a whole number", Describe(n, Noun))
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
			d.Problems.Add(path, "is %s, out of range", Describe(n, Noun))
			return
		}
		v.SetFloat(f)
	default:
		d.Problems.Add(path, "cannot be decoded")
	}
}

func (d *Decoder) wrongType(path string, n *jsonnode.Node, t reflect.Type) {
	d.Problems.Add(path, "is %s, want %s", Describe(n, Noun), wantType(t))
}

func (d *Decoder) duplicate(path string) {
	d.Problems.Add(path, "duplicate key (each key may appear once)")
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

// object decodes an object into a struct, by the json tags of its fields.
func (d *Decoder) object(path string, n *jsonnode.Node, v reflect.Value) {
	if n.Kind != jsonnode.Object {
		d.wrongType(path, n, v.Type())
		return
	}
	fields := fieldsOf(v.Type())
	for i, first := range Keys(n) {
		m := &n.Members[i]
		at := Key(path, m.Key)
		if first >= 0 {
			d.duplicate(at)
			continue
		}
		if f, ok := fields.index[m.Key]; ok {
			d.decode(at, &m.Value, v.Field(f))
			continue
		}
		// A key the object has is not what an unknown one meant: the
		// guess would hide that key's own problems.
		absent := slices.DeleteFunc(slices.Clone(fields.names), func(name string) bool { return n.Get(name) != nil })
		if best := Suggest(m.Key, absent); best != "" {
			d.Problems.Add(at, "unknown key; did you mean %q?", best)
			d.near = append(d.near, Key(path, best))
		} else {
			d.Problems.Add(at, "unknown key; want one of: %s", strings.Join(fields.names, ", "))
		}
	}
}

func (d *Decoder) mapValue(path string, n *jsonnode.Node, v reflect.Value) {
	t := v.Type()
	if n.Kind != jsonnode.Object || t.Key().Kind() != reflect.String {
		d.wrongType(path, n, t)
		return
	}
	m := reflect.MakeMapWithSize(t, len(n.Members))
	for i, first := range Keys(n) {
		mem := &n.Members[i]
		at := Key(path, mem.Key)
		if first >= 0 {
			d.duplicate(at)
			continue
		}
		e := reflect.New(t.Elem()).Elem()
		d.decode(at, &mem.Value, e)
		m.SetMapIndex(reflect.ValueOf(mem.Key).Convert(t.Key()), e)
	}
	v.Set(m)
}

type structFields struct {
	index map[string]int // JSON name → field index
	names []string       // JSON names, in declaration order
}

var fieldCache sync.Map // reflect.Type → *structFields

// fieldsOf lists the JSON names of a struct's exported fields.
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
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
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
