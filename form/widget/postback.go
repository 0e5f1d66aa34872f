package widget

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/problem"
)

// Marker is the key that marks the widget's postback:
//
//	{"__elicitation_response__": true, "form_id": "…", "title": "…", "answers": {…}}
//
// The widget sends it as a fenced JSON block in a chat message (through the
// host's sendPrompt); the local page and the MCP app send the object itself.
const Marker = "__elicitation_response__"

// postbackKeys are the keys a postback may have.
var postbackKeys = []string{Marker, "form_id", "title", "answers"}

// IsPostback reports whether a decoded answers document is the widget's
// postback.
func IsPostback(doc map[string]any) bool {
	_, ok := doc[Marker]
	return ok
}

// ReadPostback returns the answers of a decoded postback, keyed by field id,
// after checking that it answers f: its form_id must be f's FormID (a
// postback without one, as older widgets sent, must at least carry f's
// title). Every problem is reported, with paths inside the postback.
func ReadPostback(f *form.Form, doc map[string]any) (map[string]any, error) {
	var probs problem.List
	var unknown []string
	for k := range doc {
		if !slices.Contains(postbackKeys, k) {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	for _, k := range unknown {
		probs.Add(k, "not a key of the widget's postback (keys: %s)", strings.Join(postbackKeys, ", "))
	}
	if v := doc[Marker]; v != true {
		probs.Add(Marker, "must be true (got %s)", form.DescribeValue(v))
	}
	checkIdentity(f, doc, &probs)
	answers, ok := doc["answers"].(map[string]any)
	if !ok {
		if v, given := doc["answers"]; given {
			probs.Add("answers", "must be an object of answers keyed by field id (got %s)", form.DescribeValue(v))
		} else {
			probs.Add("answers", "missing (the postback carries the answers keyed by field id)")
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return answers, nil
}

// checkIdentity refuses a postback rendered from another form.
func checkIdentity(f *form.Form, doc map[string]any, probs *problem.List) {
	id, hasID := doc["form_id"]
	title, hasTitle := doc["title"]
	if hasID {
		s, ok := id.(string)
		switch {
		case !ok:
			probs.Add("form_id", "must be a string (got %s)", form.DescribeValue(id))
		case s != FormID(f):
			probs.Add("form_id", "%q is another form's id; these answers were given to a different form than %q (form_id %q): collect them with the form the widget was rendered from, or render this form again", s, f.Title, FormID(f))
		}
	}
	if hasTitle {
		s, ok := title.(string)
		switch {
		case !ok:
			probs.Add("title", "must be a string (got %s)", form.DescribeValue(title))
		case s != f.Title:
			probs.Add("title", "%q is not this form's title %q: these answers were given to another form", s, f.Title)
		}
	}
	if !hasID && !hasTitle {
		probs.Add("form_id", "missing (a postback names the form it answers with form_id, or at least title; this form's form_id is %q)", FormID(f))
	}
}

// Extract finds the postback in a chat message the widget sent: the first
// fenced code block (```json … ```) that holds a JSON object with the
// marker. The message may also be the bare object. It returns false when
// there is none.
func Extract(msg []byte) ([]byte, bool) {
	trimmed := bytes.TrimSpace(msg)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return trimmed, bytes.Contains(trimmed, []byte(Marker))
	}
	lines := bytes.Split(msg, []byte("\n"))
	for i := 0; i < len(lines); i++ {
		if !bytes.HasPrefix(bytes.TrimSpace(lines[i]), []byte("```")) {
			continue
		}
		var block [][]byte
		j := i + 1
		for ; j < len(lines) && !bytes.HasPrefix(bytes.TrimSpace(lines[j]), []byte("```")); j++ {
			block = append(block, lines[j])
		}
		body := bytes.TrimSpace(bytes.Join(block, []byte("\n")))
		if len(body) > 0 && body[0] == '{' && bytes.Contains(body, []byte(Marker)) {
			return body, true
		}
		i = j // skip past the closing fence
	}
	return nil, false
}

// FieldProblems sorts collect's problems by the field they concern, for
// showing each beside its field in the person's words (words.go: what to
// do, rows by their labels): messages keyed by field id (several joined
// with "; "), and under "" the problems that concern no single field, with
// their paths. Past problem.Max problems, the rest are counted under "".
func FieldProblems(f *form.Form, probs problem.List) map[string]string {
	out := map[string]string{}
	add := func(k, msg string) {
		if out[k] != "" {
			msg = out[k] + "; " + msg
		}
		out[k] = msg
	}
	byID := f.ByID()
	for _, p := range probs.Capped() { // the problems shown, as everywhere
		if id := fieldOf(f, p.Path); id != "" {
			add(id, reword(byID[id], p.Path[len("answers."+id):], p.Message))
			continue
		}
		add("", p.String())
	}
	return out
}

// fieldOf returns the id of the field a problem path "answers.ID",
// "answers.ID[i]" or, for a field with rows or slots, "answers.ID.key"
// names, or "".
func fieldOf(f *form.Form, path string) string {
	rest, ok := strings.CutPrefix(path, "answers.")
	if !ok {
		return ""
	}
	for i := range f.Fields {
		id := f.Fields[i].ID
		after, ok := strings.CutPrefix(rest, id)
		if ok && (after == "" || after[0] == '[' || after[0] == '.' && f.Fields[i].Type.Expands()) {
			return id
		}
	}
	return ""
}

// message is the chat message the widget sends for a postback, as the
// script writes it (for tests and for hosts that post on the widget's
// behalf).
func message(postback []byte) string {
	return fmt.Sprintf("Elicitation form submitted — parse and validate this response:\n```json\n%s\n```", bytes.ReplaceAll(postback, []byte("`"), []byte(`\u0060`)))
}
