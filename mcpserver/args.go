package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/problem"
)

// MaxArguments is the largest tool-call argument object accepted (1 MiB).
const MaxArguments = 1 << 20

// args decodes one tool call's arguments, collecting every problem.
type args struct {
	raw   map[string]json.RawMessage // nil when the arguments are unusable
	probs problem.List
}

// parseArgs decodes the arguments object and reports keys not in allowed.
func parseArgs(data json.RawMessage, allowed []string) *args {
	a := &args{raw: map[string]json.RawMessage{}}
	if len(data) > MaxArguments {
		a.probs.Add("arguments", "%d bytes, over the 1 MiB limit (%d bytes)", len(data), MaxArguments)
		a.raw = nil
		return a
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return a
	}
	root, err := jsonnode.ParseTop(trimmed)
	if err != nil || root.Kind != jsonnode.Object {
		a.probs.Add("arguments", "must be a JSON object")
		a.raw = nil
		return a
	}
	for _, m := range root.Members {
		switch {
		case a.raw[m.Key] != nil:
			a.probs.Add(m.Key, "given twice")
		case len(allowed) == 0:
			a.probs.Add(m.Key, "unknown argument (this tool takes no arguments)")
		case !slices.Contains(allowed, m.Key):
			a.probs.Add(m.Key, "unknown argument (arguments: %s)", strings.Join(allowed, ", "))
		}
		a.raw[m.Key] = json.RawMessage(trimmed[m.Value.Offset:m.Value.End])
	}
	return a
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

func (a *args) integer(key string) int {
	var f float64
	if a.decode(key, "a whole number", &f) && (f != float64(int(f)) || f < 0) {
		a.probs.Add(key, "must be a whole number, 0 or more (got %s)", strconv.FormatFloat(f, 'g', -1, 64))
		return 0
	}
	return int(f)
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
	if name == "" || len(a.probs) > 0 {
		return nil, ""
	}
	f, err := ts.Cast(name, slots)
	a.addPrefixed("", err)
	return f, name
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
