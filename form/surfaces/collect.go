package surfaces

import (
	"bytes"
	"fmt"
	"iter"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/markdown"
	"github.com/elicit/elicit/form/widget"
	"github.com/elicit/elicit/problem"
)

// Format is how an answer document is written.
type Format string

// The formats Collect reads. Auto tells them apart: a document that starts
// with '{' or '[' (a JSON list, not "[x]") is JSON, and so is the widget's
// chat message; a text with `"<question>"=` of one of the form's questions
// is Claude Code's AskUserQuestion sentence; anything else a markdown reply.
const (
	FormatAuto     Format = "auto"
	FormatJSON     Format = "json"
	FormatMarkdown Format = "markdown"
)

// Formats returns the formats a Document may have, a fresh list each call.
func Formats() []Format { return slices.Clone(formats) }

// formats are the formats a Document may have.
var formats = []Format{FormatAuto, FormatJSON, FormatMarkdown}

// formatAskText is what Auto reads a document with `"<question>"=` in it
// as, first: the text Claude Code shows the model after AskUserQuestion. A
// document without one of the form's questions so is a markdown reply.
const formatAskText Format = "ask-text"

// Document is the answers one surface gave: a JSON answer document (any
// shape ParseAnswers takes, or the widget's chat message carrying its
// postback), the sentence Claude Code shows after AskUserQuestion
// (`"<question>"="<answer>", ...`), or a person's markdown reply.
type Document struct {
	// Name names the document in problems: a file name, "answers", "reply".
	Name string
	// Format is one of Formats(); "" means FormatAuto. Another is refused
	// (Collect, ReadResponse), naming the document and the formats.
	Format Format
	Data   []byte
}

// Failure is a collect that found problems: every problem, and how to ask
// again for exactly the fields they are about. It unwraps to the
// problem.List.
type Failure struct {
	Problems problem.List
	// Reask is nil when no problem names a field (an unreadable document).
	Reask *Reask
}

func (e *Failure) Error() string { return e.Problems.Error() }
func (e *Failure) Unwrap() error { return e.Problems }

// Reask asks again for the fields that failed, and only those: as markdown
// (with each field's problem shown under it) and, for the fields
// AskUserQuestion can carry, as its ready inputs.
type Reask struct {
	FieldIDs        []string       `json:"field_ids"`
	Markdown        string         `json:"markdown"`
	AskUserQuestion []ask.Input    `json:"ask_user_question,omitempty"`
	Followups       []ask.Followup `json:"followups,omitempty"`
}

// reaskLead introduces a re-ask.
const reaskLead = "Some answers need another look: reply with these lines again."

// Collect reads the answers of one or more surfaces for f (say the
// AskUserQuestion output and the markdown reply to its follow-up), merges
// them and validates the whole form. A field answered differently in two
// documents is a problem, unless the earlier answer was wrong (it broke
// the field's rules or could not be read) and a later document answers it
// again: that is the re-ask's reply, and it replaces the wrong answer. A
// markdown reply without any `id:` line answers the one question no other
// document answered, if there is exactly one. On problems the error is a
// *Failure carrying the re-ask.
func Collect(f *form.Form, docs []Document, opts *form.CollectOptions) (*form.Response, error) {
	if err := f.Check(); err != nil { // a nil or invalid form: its problems, before any answer is read
		return nil, err
	}
	if err := checkFormats(docs); err != nil {
		return nil, err
	}
	read := make([]docAnswers, len(docs))
	parsed := map[string]any{} // the JSON documents' answers, for bare
	var replies []int
	for i, d := range docs {
		format := formatOf(d)
		if format == formatAskText {
			if answers, bad, ok := readAskText(f, d.Data); ok {
				read[i] = docAnswers{answers, named(d, bad.Err(), len(docs))}
				maps.Copy(parsed, answers)
				continue
			}
			format = FormatMarkdown
		}
		if format == FormatMarkdown {
			replies = append(replies, i)
			continue
		}
		answers, bad := readJSON(f, d.Data)
		read[i] = docAnswers{answers, named(d, bad.Err(), len(docs))}
		maps.Copy(parsed, answers)
	}
	for _, i := range replies {
		d := docs[i]
		answers, err := markdown.Parse(f, string(d.Data), &markdown.ParseOptions{Name: d.Name, Bare: bare(f, parsed)})
		read[i] = docAnswers{answers, named(d, err, 1)}
		maps.Copy(parsed, answers)
	}
	m := newMerger(f)
	for i, d := range docs {
		m.add(read[i], d.Name)
	}
	probs := m.problems()
	r, err := form.Collect(f, m.merged, opts)
	if err == nil && len(probs) == 0 {
		return r, nil
	}
	more, _ := err.(problem.List)
	probs = append(probs, skipReported(more, probs)...)
	return nil, &Failure{Problems: probs, Reask: newReask(f, probs)}
}

// checkFormats refuses a document whose Format is none of formats (a
// "yaml" read as JSON would be misread), naming the document and the
// formats; "" means auto.
func checkFormats(docs []Document) error {
	var probs problem.List
	for i, d := range docs {
		if d.Format == "" || slices.Contains(formats, d.Format) {
			continue
		}
		name := d.Name
		if name == "" {
			name = fmt.Sprintf("documents[%d]", i)
		}
		names := make([]string, len(formats))
		for j, f := range formats {
			names[j] = string(f)
		}
		probs.Add(name+".format", "unknown format %q (use %s)", d.Format, strings.Join(names, ", "))
	}
	return probs.Err()
}

// docAnswers is what one document answered and its problems.
type docAnswers struct {
	answers map[string]any
	probs   problem.List
}

// formatOf is the document's format, Auto resolved by its first character
// ('{', or '[' opening a JSON list), JSON for the chat message that carries
// the widget's postback, else AskUserQuestion's result text when it has a
// `"...="` (formatAskText, which may still turn out to be markdown).
func formatOf(d Document) Format {
	if d.Format != FormatAuto && d.Format != "" {
		return d.Format
	}
	t := bytes.TrimLeft(d.Data, " \t\r\n\ufeff")
	if len(t) > 0 && (t[0] == '{' || t[0] == '[' && opensList(t[1:])) {
		return FormatJSON
	}
	if _, ok := widget.Extract(d.Data); ok {
		return FormatJSON
	}
	if bytes.Contains(d.Data, []byte(`"=`)) {
		return formatAskText
	}
	return FormatMarkdown
}

// opensList reports whether what follows a '[' starts a JSON list (an
// object, list, string or number, or its end), not markdown such as
// "[x] tests".
func opensList(rest []byte) bool {
	rest = bytes.TrimLeft(rest, " \t\r\n")
	return len(rest) == 0 || bytes.IndexByte([]byte(`{["]-0123456789`), rest[0]) >= 0
}

// SurfaceOf is the surface a document's answers came from as far as its
// text tells: the widget for its chat message, AskUserQuestion for the
// result text Claude Code shows, markdown for a markdown reply, and ""
// for another JSON document (its shape tells, not its format).
func SurfaceOf(f *form.Form, d Document) form.Surface {
	switch formatOf(d) {
	case formatAskText:
		if _, _, ok := readAskText(f, d.Data); ok {
			return form.SurfaceAsk
		}
		return form.SurfaceMarkdown
	case FormatMarkdown:
		return form.SurfaceMarkdown
	}
	if _, ok := widget.Extract(d.Data); ok {
		return form.SurfaceWidget
	}
	return ""
}

// named returns err's problems; with several documents, a problem about a
// document as a whole (no path) says which one.
func named(d Document, err error, n int) problem.List {
	if err == nil {
		return nil
	}
	probs, ok := err.(problem.List)
	if !ok {
		return problem.List{{Path: d.Name, Message: err.Error()}}
	}
	if n < 2 {
		return probs
	}
	out := make(problem.List, len(probs))
	for i, p := range probs {
		if p.Path == "" {
			p.Path = d.Name
		}
		out[i] = p
	}
	return out
}

// merger merges the documents' answers in order.
type merger struct {
	byID   map[string]*form.Field
	merged map[string]any
	from   map[string]string // answer key -> document that answered it
	probs  problem.List
	// wrong holds, under every key a problem's path is at or under
	// (answers.<key>, answers.<key>.row, answers.<key>[i]), the indexes in
	// probs of the problems still standing: a later answer replaces them.
	wrong   map[string][]int
	dropped map[int]bool
}

func newMerger(f *form.Form) *merger {
	return &merger{byID: f.ByID(), merged: map[string]any{}, from: map[string]string{},
		wrong: map[string][]int{}, dropped: map[int]bool{}}
}

// add adds one document's answers; a key given two different answers is a
// problem naming both documents, unless the first was wrong: it broke the
// field's rules, or an earlier document has a problem at or under it (an
// answer it could not read).
func (m *merger) add(d docAnswers, name string) {
	keys := make([]string, 0, len(d.answers))
	for k := range d.answers {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := d.answers[k]
		if form.NoAnswer(v) {
			continue
		}
		prev, seen := m.merged[k]
		switch {
		case m.replaceWrong(k) || seen && !m.accepts(k, prev):
			// The re-ask's reply replaces a wrong answer.
			m.merged[k], m.from[k] = v, name
		case !seen:
			m.merged[k], m.from[k] = v, name
		case !sameAnswer(prev, v):
			m.addProblem(problem.Problem{Path: "answers." + k,
				Message: fmt.Sprintf("answered in both %s (%s) and %s (%s); give one answer", m.from[k], show(prev), name, show(v))})
		}
	}
	for _, p := range d.probs {
		m.addProblem(p)
	}
}

func (m *merger) addProblem(p problem.Problem) {
	if rest, ok := strings.CutPrefix(p.Path, "answers."); ok {
		for key := range keysOver(rest) {
			m.wrong[key] = append(m.wrong[key], len(m.probs))
		}
	}
	m.probs = append(m.probs, p)
}

// replaceWrong drops the standing problems at or under answers.<key> and
// reports whether there were any.
func (m *merger) replaceWrong(key string) bool {
	found := false
	for _, i := range m.wrong[key] {
		if !m.dropped[i] {
			m.dropped[i], found = true, true
		}
	}
	delete(m.wrong, key)
	return found
}

// accepts reports whether answer v to field id keeps the field's rules
// (a key that is no field's id accepts anything: collect reports it).
func (m *merger) accepts(id string, v any) bool {
	fl := m.byID[id]
	return fl == nil || fl.Accepts(v)
}

// problems are the problems left, in the documents' order.
func (m *merger) problems() problem.List {
	var out problem.List
	for i, p := range m.probs {
		if !m.dropped[i] {
			out = append(out, p)
		}
	}
	return out
}

// sameAnswer compares two answers, a []any and a []string of the same
// strings being the same.
func sameAnswer(a, b any) bool {
	return reflect.DeepEqual(plain(a), plain(b))
}

func plain(v any) any {
	if list, ok := v.([]any); ok {
		out := make([]string, 0, len(list))
		for _, e := range list {
			s, ok := e.(string)
			if !ok {
				return v
			}
			out = append(out, s)
		}
		return out
	}
	return v
}

func show(v any) string {
	if list, ok := plain(v).([]string); ok {
		return fmt.Sprintf("%q", list)
	}
	return form.DescribeValue(v)
}

// bare is the one askable field no document has answered yet, which a
// markdown reply without ids answers; "" when there is not exactly one.
func bare(f *form.Form, merged map[string]any) string {
	id := ""
	for i := range f.Fields {
		fl := &f.Fields[i]
		if fl.DisplayOnly() {
			continue
		}
		if _, done := merged[fl.ID]; done {
			continue
		}
		if id != "" {
			return ""
		}
		id = fl.ID
	}
	return id
}

// newReask asks again for the fields the problems name, or returns nil
// when they name none (or f is nil).
func newReask(f *form.Form, probs problem.List) *Reask {
	if f == nil {
		return nil
	}
	byField := map[string][]string{}
	byID := f.ByID()
	var ids []string
	for _, p := range probs {
		id := fieldOf(byID, p.Path)
		if id == "" {
			continue
		}
		if _, seen := byField[id]; !seen {
			ids = append(ids, id)
		}
		byField[id] = append(byField[id], p.Message)
	}
	if len(ids) == 0 {
		return nil
	}
	md := markdown.Render(f, &markdown.Options{Only: ids, Problems: byField, Lead: reaskLead})
	r := &Reask{FieldIDs: md.FieldIDs, Markdown: md.Markdown}
	a := ask.RenderOnly(f, ids...)
	r.AskUserQuestion, r.Followups = a.AskUserQuestion, a.Followups
	return r
}

// fieldOf is the field of byID a problem path names (answers.<id>,
// answers.<id>.row, answers.<id>[i]; the longest id when several fit), or
// "".
func fieldOf(byID map[string]*form.Field, path string) string {
	rest, ok := strings.CutPrefix(path, "answers.")
	if !ok {
		return ""
	}
	for key := range keysOver(rest) {
		if byID[key] != nil {
			return key
		}
	}
	return ""
}

// keysOver yields, longest first, the keys a path below answers. is at or
// under: rest itself, then each start of it that ends before a '.' or '['
// ("a.b[2]" yields "a.b[2]", "a.b", "a"). Each is a part of rest: nothing
// is copied, so a problem costs its path's length, not the form's size.
func keysOver(rest string) iter.Seq[string] {
	return func(yield func(string) bool) {
		if !yield(rest) {
			return
		}
		for i := len(rest) - 1; i > 0; i-- {
			if (rest[i] == '.' || rest[i] == '[') && !yield(rest[:i]) {
				return
			}
		}
	}
}
