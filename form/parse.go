package form

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/internal/strictjson"
	"github.com/elicit/elicit/internal/visible"
	"github.com/elicit/elicit/problem"
)

// MaxInput is the largest form or answer document elicit reads (1 MiB).
const MaxInput = 1 << 20

// Parse decodes and validates a form definition. On failure the error is a
// problem.List naming every problem, in declaration order. A UTF-8 byte
// order mark at the start is skipped, as editors on Windows write one.
func Parse(data []byte) (*Form, error) {
	var f *Form
	var err error
	fault := strictjson.ReadScoped(data, readOptions("form", false), func(doc *strictjson.Document) {
		f, err = fromNode(&doc.Root)
	})
	if fault != nil {
		return nil, docProblem(fault)
	}
	return f, err
}

// parseDocument reads an outside document (what names it in messages):
// within MaxInput, UTF-8, JSON, an object at the top (or an array where
// allowed), a byte order mark at the start skipped.
func parseDocument(data []byte, what string, arrayOK bool) (strictjson.Document, problem.List) {
	doc, fault := strictjson.Read(data, readOptions(what, arrayOK))
	if fault != nil {
		return doc, docProblem(fault)
	}
	return doc, nil
}

func readOptions(what string, arrayOK bool) strictjson.Options {
	return strictjson.Options{Max: MaxInput, SkipBOM: true, ArrayOK: arrayOK, Style: strictjson.Terse, What: what}
}

// docProblem says what is wrong with a document as a whole: "form is not
// valid JSON: at line 2, column 5: ...", "answers must be a JSON object (got
// array of 2)".
func docProblem(f *strictjson.Fault) problem.List {
	msg := f.Error()
	switch f.Kind {
	case strictjson.Empty, strictjson.Syntax:
		msg = fmt.Sprintf("%s is not valid JSON: %s", f.What, f.Message())
	case strictjson.NotObject:
		msg = fmt.Sprintf("%s must be a JSON object (got %s)", f.What, f.Got)
	}
	return problem.List{{Message: msg}}
}

// BOM is the UTF-8 byte order mark some editors write at the start of a
// file.
const BOM = "\ufeff"

// TrimBOM drops a byte order mark at the start of an outside document (a
// form, answers, a reply): it is no part of the text.
func TrimBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte(BOM)) }

// describe names a value as form's messages do: `string "false"`, `array
// of 2`.
func describe(n *jsonnode.Node) string { return strictjson.Describe(n, strictjson.Terse) }

// fromNode decodes a form from a parsed object and remembers it is valid.
func fromNode(root *jsonnode.Node) (*Form, error) {
	f, err := decodeForm(root)
	if err == nil {
		markValid(f)
	}
	return f, err
}

// decodeForm decodes a form from a parsed object.
func decodeForm(root *jsonnode.Node) (*Form, error) {
	d := &decoder{}
	f := d.form(root)
	if d.probs.count() > 0 {
		return nil, d.probs.problems()
	}
	return f, nil
}

// decoder accumulates problems while decoding a form.
type decoder struct {
	probs report
	// fieldsKey is the key the fields being decoded came under: "fields",
	// or its alias "questions", which the paths of their problems name.
	fieldsKey string
}

func (d *decoder) add(l loc, format string, args ...any) {
	if d.probs.full() {
		d.probs.more++ // skip formatting the path
		return
	}
	d.probs.add(d.path(l), format, args...)
}

// path names l as the document has it: under "questions" when the fields
// came under that alias.
func (d *decoder) path(l loc) string {
	path := l.String()
	if d.fieldsKey == fieldsAlias && l.field >= 0 {
		path = fieldsAlias + strings.TrimPrefix(path, "fields")
	}
	return path
}

func (d *decoder) form(root *jsonnode.Node) *Form {
	f := &Form{}
	fieldsKey := ""
	for i, first := range strictjson.Keys(root) {
		m := &root.Members[i]
		if first >= 0 {
			d.add(formLoc(m.Key), "duplicate key (give each key once)")
			continue
		}
		switch m.Key {
		case "title":
			f.Title, _ = d.nonEmpty(formLoc(m.Key), &m.Value)
		case "description":
			if m.Value.Kind != jsonnode.Null { // null: no description
				f.Description, _ = d.str(formLoc(m.Key), &m.Value)
			}
		case "form_id":
			if m.Value.Kind != jsonnode.Null { // null: no id
				f.FormID = d.formID(formLoc(m.Key), &m.Value)
			}
		case "fields", fieldsAlias:
			if fieldsKey != "" {
				d.add(formLoc(m.Key), "both %q and its alias %q are given (give the fields once)", "fields", fieldsAlias)
				continue
			}
			fieldsKey = m.Key
			d.fieldsKey = m.Key
			f.Fields = d.fields(&m.Value)
			d.fieldsKey = ""
		default:
			d.unknownKey(formLoc(m.Key), m.Key, formKeys)
		}
	}
	if root.Get("title") == nil {
		d.add(formLoc("title"), "missing (a form needs a non-empty title)")
	}
	if fieldsKey == "" {
		d.add(formLoc("fields"), "missing (a form needs a list of 1 or more fields)")
	}
	return f
}

func (d *decoder) unknownKey(path loc, key string, known []string) {
	if d.probs.full() {
		d.probs.more++ // skip the suggestion
		return
	}
	if s := suggest(key, known); s != "" {
		d.add(path, "unknown key (did you mean '%s'?)", s)
		return
	}
	d.add(path, "unknown key (known keys: %s)", strings.Join(known, ", "))
}

func (d *decoder) fields(n *jsonnode.Node) []Field {
	if n.Kind != jsonnode.Array || len(n.Items) == 0 {
		d.add(formLoc(d.fieldsKey), "must be a list of 1 or more fields (got %s)", describe(n))
		return nil
	}
	out := make([]Field, 0, len(n.Items))
	at := make([]int, 0, len(n.Items)) // index in fields of each decoded field
	// The first field with each id: a duplicate is reported once, against
	// the first (comparing every pair took time and problems growing with
	// the square of the fields).
	ids := make(map[string]int, len(n.Items))
	for i := range n.Items {
		f, ok := d.field(fieldLoc(i), &n.Items[i])
		if !ok {
			continue
		}
		if j, dup := ids[f.ID]; dup && f.ID != "" {
			d.add(fieldLoc(i).key("id"), "duplicate id %q (same as %s)", f.ID, d.path(fieldLoc(j)))
		} else {
			ids[f.ID] = i
		}
		out = append(out, f)
		at = append(at, i)
	}
	d.checkNamespaces(out, at)
	return out
}

// str decodes a string a person is shown: it may not hold control
// characters (see checkText). The string is kept when it does, so that a
// problem here does not bring others after it (an option's note, say).
func (d *decoder) str(path loc, n *jsonnode.Node) (string, bool) {
	s, ok := d.word(path, n)
	if ok {
		d.checkText(path, s)
	}
	return s, ok
}

// word decodes a string that has rules of its own (an id, a type name).
func (d *decoder) word(path loc, n *jsonnode.Node) (string, bool) {
	if n.Kind != jsonnode.String {
		d.add(path, "must be a string (got %s)", describe(n))
		return "", false
	}
	return n.Text, true
}

// checkText refuses the control characters of s (other than tab and
// newline) and its bidirectional overrides and isolates: written to a
// terminal the first move the cursor, hide the text after them, erase the
// screen or retitle the window, the others reorder the text after them, so
// a person would not see what the form says (a confirm could hide what
// approving does).
func (d *decoder) checkText(path loc, s string) {
	first, at, n := rune(0), 0, 0
	for i, r := range []rune(s) {
		if visible.IsHidden(r) {
			if n == 0 {
				first, at = r, i+1
			}
			n++
		}
	}
	if n == 0 {
		return
	}
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (and %d more)", n-1)
	}
	kind, fix := "control character", "remove it: text shown to a person may hold tabs and newlines (\\n), no other control characters"
	switch {
	case first == '\r':
		fix = "write a line break as \\n alone: a carriage return moves the cursor back over the text"
	case visible.IsBidiControl(first):
		kind, fix = "bidirectional control character", "remove it: an override or isolate reorders the text a person sees "+
			"(right-to-left text needs none; the marks U+200E and U+200F may stay)"
	}
	d.add(path, "contains the %s %s at character %d%s; %s", kind, visible.Name(first), at, more, fix)
}

// nonEmpty decodes a string that must have more than white space.
func (d *decoder) nonEmpty(path loc, n *jsonnode.Node) (string, bool) {
	s, ok := d.str(path, n)
	if ok && strings.TrimSpace(s) == "" {
		d.add(path, "must not be empty")
		return "", false
	}
	return s, ok
}

// number decodes a finite number.
func (d *decoder) number(path loc, n *jsonnode.Node) (float64, bool) {
	if n.Kind != jsonnode.Number {
		d.add(path, "must be a number (got %s)", describe(n))
		return 0, false
	}
	v, msg := parseExact(n.Text)
	if msg != "" {
		d.add(path, "%s", msg)
		return 0, false
	}
	return v, true
}
