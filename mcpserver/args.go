package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/internal/strictjson"
	"github.com/elicit/elicit/problem"
)

// maxArguments is the largest tool-call argument object accepted (1 MiB).
const maxArguments = 1 << 20

// overLimit says a document is over its 1 MiB cap: the arguments of a tool
// call, or the answers of a native dialog (size, then the cap).
const overLimit = "%d bytes, over the 1 MiB limit (%d bytes)"

// args decodes one tool call's arguments, collecting every problem.
type args struct {
	raw   map[string]json.RawMessage // nil when the arguments are unusable
	probs problem.List
	// user is the caller, when the server knows its callers (a tokens
	// file).
	user string
}

// parseArgs decodes the arguments object and reports keys not in allowed.
func parseArgs(data json.RawMessage, allowed []string) *args {
	a := &args{raw: map[string]json.RawMessage{}}
	// Text that is not UTF-8 is left to the argument that holds it: a form
	// refuses it, a name is looked up with U+FFFD in its place.
	doc, fault := strictjson.Read(data, strictjson.Options{Max: maxArguments, Shallow: true, KeepBadUTF8: true})
	switch {
	case fault == nil:
	case fault.Kind == strictjson.Empty, fault.Kind == strictjson.NotObject && fault.Top == jsonnode.Null:
		return a // no arguments
	case fault.Kind == strictjson.TooLarge:
		a.probs.Add("arguments", overLimit, fault.Size, maxArguments)
	case fault.Kind == strictjson.Syntax:
		a.unparsable(data, fault)
	default:
		a.probs.Add("arguments", "must be a JSON object")
	}
	if fault != nil {
		a.raw = nil
		return a
	}
	for i, first := range strictjson.Keys(&doc.Root) {
		m := &doc.Root.Members[i]
		switch {
		case first >= 0:
			a.probs.Add(m.Key, "given twice")
		case len(allowed) == 0:
			a.probs.Add(m.Key, "unknown argument (this tool takes no arguments)")
		case !slices.Contains(allowed, m.Key):
			a.probs.Add(m.Key, "unknown argument (arguments: %s)", strings.Join(allowed, ", "))
		}
		a.raw[m.Key] = json.RawMessage(doc.Data[m.Value.Offset:m.Value.End])
	}
	return a
}

// unparsable names what is wrong with arguments the parser refused: each
// argument that nests arrays and objects too deeply, else the parser's
// error. (The JSON itself is valid: the client's JSON-RPC message carried
// it.)
func (a *args) unparsable(data []byte, err error) {
	var members map[string]json.RawMessage
	if json.Unmarshal(data, &members) == nil {
		keys := slices.Sorted(maps.Keys(members))
		for _, k := range keys {
			// The arguments object is the first level.
			if d := nesting(members[k]) + 1; d > jsonnode.MaxDepth {
				a.probs.Add(k, "nests arrays and objects %d levels deep (counting the arguments object); at most %d are allowed", d, jsonnode.MaxDepth)
			}
		}
		if len(a.probs) > 0 {
			return
		}
	}
	a.probs.Add("arguments", "%v (want a JSON object)", err)
}

// nesting is how deeply arrays and objects nest in a JSON value.
func nesting(v []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range v {
		switch {
		case escaped:
			escaped = false
		case inString:
			escaped, inString = c == '\\', c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

func (a *args) has(key string) bool {
	v, ok := a.raw[key]
	return ok && string(bytes.TrimSpace(v)) != "null"
}

// decode unmarshals one argument into v, reporting a type problem.
func (a *args) decode(key, want string, v any) bool {
	if !a.has(key) {
		return false
	}
	if err := json.Unmarshal(a.raw[key], v); err != nil {
		a.probs.Add(key, "must be %s", want)
		return false
	}
	return true
}

func (a *args) str(key string, required bool) string {
	var s string
	if !a.decode(key, "a string", &s) && required && !a.has(key) {
		a.probs.Add(key, "missing (a string is required)")
	}
	return s
}

func (a *args) boolean(key string) *bool {
	var b bool
	if a.decode(key, "true or false", &b) {
		return &b
	}
	return nil
}

// maxCount bounds a count argument: the largest whole number a JSON
// number carries exactly (2^53 - 1, JavaScript's Number.MAX_SAFE_INTEGER).
const maxCount = 1<<53 - 1

// integer reads a count, a whole number from 0 to max.
func (a *args) integer(key string, max int) int {
	n, _ := a.whole(key, 0, max, "", "")
	return n
}

// whole reads a whole number from lo to hi, in unit ("seconds") when not
// empty. Whatever is wrong with it (not a number, not whole, out of range)
// is one problem naming the range, and why it is the range when why is not
// empty.
func (a *args) whole(key string, lo, hi int, unit, why string) (int, bool) {
	want := "a whole number"
	if unit != "" {
		want += " of " + unit
	}
	want = fmt.Sprintf("%s, %d to %d", want, lo, hi)
	if why != "" {
		want += " (" + why + ")"
	}
	var f float64
	if !a.decode(key, want, &f) {
		return 0, false
	}
	if f != math.Trunc(f) || f < float64(lo) || f > float64(hi) {
		a.probs.Add(key, "is %s, want %s", bytes.TrimSpace(a.raw[key]), want)
		return 0, false
	}
	return int(f), true
}

// ref reads an argument that names a thing by name or number, described
// by want: a string, or a whole number taken as its decimal string (the
// Inspector CLI sends --tool-arg method=34 as a number).
func (a *args) ref(key, want string, required bool) string {
	if !a.has(key) {
		if required {
			a.probs.Add(key, "missing (%s is required)", want)
		}
		return ""
	}
	var v any
	json.Unmarshal(a.raw[key], &v)
	switch v := v.(type) {
	case string:
		return v
	case float64:
		if v == math.Trunc(v) && v >= 0 && v <= maxCount {
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		a.probs.Add(key, "is %s, want %s", bytes.TrimSpace(a.raw[key]), want)
		return ""
	}
	a.probs.Add(key, "must be %s", want)
	return ""
}

func (a *args) strings(key string) []string {
	var out []string
	a.decode(key, "a list of strings", &out)
	return out
}

// object returns the raw JSON of an argument that must be an object (or,
// with listOK, a list).
func (a *args) object(key string, required, listOK bool) json.RawMessage {
	if !a.has(key) {
		if required {
			a.probs.Add(key, "missing (an object is required)")
		}
		return nil
	}
	v := bytes.TrimSpace(a.raw[key])
	if v[0] != '{' && !(listOK && v[0] == '[') {
		a.probs.Add(key, "must be a JSON object")
		return nil
	}
	return v
}

// formFrom reads the form: exactly one of "form" or "template" (with
// "slots"). It returns the template name as the response's template id.
func (a *args) form(ts *form.Templates) (*form.Form, string) {
	hasForm, hasTemplate := a.has("form"), a.has("template")
	switch {
	case hasForm && hasTemplate:
		a.probs.Add("", "pass exactly one of 'form' (a form definition) or 'template' (a template name, with 'slots'), not both")
		return nil, ""
	case !hasForm && !hasTemplate:
		a.probs.Add("", "pass exactly one of 'form' (a form definition) or 'template' (a template name, with 'slots')")
		return nil, ""
	case hasForm && a.has("slots"):
		a.probs.Add("slots", "'slots' needs 'template'")
	}
	if hasTemplate {
		return a.template(ts)
	}
	raw := a.object("form", true, false)
	if raw == nil {
		return nil, ""
	}
	f, err := form.Parse(raw)
	a.addPrefixed("form", err)
	return f, ""
}

func (a *args) template(ts *form.Templates) (*form.Form, string) {
	name := a.str("template", true)
	slots := map[string]string{}
	if a.has("slots") && !a.decode("slots", "an object of string values", &slots) {
		return nil, ""
	}
	if strings.TrimSpace(name) == "" && a.has("template") && len(a.probs) == 0 {
		a.probs.Add("template", "is empty: give a template's name (%s; elicitation_list_templates lists them), or pass 'form' instead", templateNames(ts))
	}
	if name == "" || len(a.probs) > 0 {
		return nil, ""
	}
	f, err := ts.Cast(name, slots)
	a.addPrefixed("", form.SlotHints(err, func(name string) string { return fmt.Sprintf(`pass "slots": {%q: "VALUE"}`, name) }))
	return f, name
}

// templateNames lists the usable templates for a problem, quoted:
// "available: "a", "b"", or "none is available".
func templateNames(ts *form.Templates) string {
	var names []string
	for _, t := range ts.List() {
		if t.Error == "" {
			names = append(names, strconv.Quote(t.Name))
		}
	}
	if len(names) == 0 {
		return "none is available"
	}
	return "available: " + strings.Join(names, ", ")
}

// addPrefixed adds a problem list (or a plain error) under a path prefix.
func (a *args) addPrefixed(prefix string, err error) {
	if err == nil {
		return
	}
	probs, ok := err.(problem.List)
	if !ok {
		a.probs.Add(prefix, "%v", err)
		return
	}
	for _, p := range probs {
		if prefix != "" && p.Path != "" {
			p.Path = prefix + "." + p.Path
		}
		a.probs = append(a.probs, p)
	}
}

// errorf adds a problem.
func (a *args) errorf(path, format string, v ...any) {
	a.probs.Add(path, "%s", fmt.Sprintf(format, v...))
}
