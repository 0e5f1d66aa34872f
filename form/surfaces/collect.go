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
	"github.com/elicit/elicit/form/codex"
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
	// Kept marks the answers an earlier round kept (a Failure's Kept, as a
	// JSON document keyed by field id): a later document's answer to one
	// of its fields replaces it instead of being a conflict.
	Kept bool
}

// Failure is a collect that found problems: every problem, and how to ask
// again for exactly the fields they are about. It unwraps to the
// problem.List.
type Failure struct {
	Problems problem.List
	// Reask is nil when no problem names a field (an unreadable document).
	Reask *Reask
	// Kept are the answers that hold, by field id: every field answered
	// by some document whose answer keeps its rules and no problem is
	// about. A next round passes them back as a Kept document, with only
	// the new answers besides.
	Kept map[string]any
	// Pending names, by field id, the groups a two-tier picker's first
	// tier chose whose follow-up no document answered: ReaskFor asks
	// just those follow-ups.
	Pending map[string][]string
}

// ReaskFor asks again for the fields that failed, on surface s (see
// NewReask), a two-tier picker whose first tier was answered by its
// pending follow-ups only.
func (e *Failure) ReaskFor(f *form.Form, s form.Surface) *Reask {
	return newReask(f, e.Problems, s, e.Pending)
}

func (e *Failure) Error() string { return e.Problems.Error() }
func (e *Failure) Unwrap() error { return e.Problems }

// Reask asks again for the fields that failed, and only those: as markdown
// (with each field's problem shown under it) and, for the fields
// AskUserQuestion can carry, as its ready inputs.
type Reask struct {
	// Surface is the surface the payloads below are for ("" for both
	// markdown and AskUserQuestion, as NewReask makes them by default).
	Surface  form.Surface `json:"surface,omitempty"`
	FieldIDs []string     `json:"field_ids"`
	// Markdown asks every field again in one chat message: on the
	// markdown surface, and by default. On ask and codex it is absent, and
	// MarkdownFollowup asks the fields their tool cannot.
	Markdown         string             `json:"markdown,omitempty"`
	AskUserQuestion  []ask.Input        `json:"ask_user_question,omitempty"`
	RequestUserInput []codex.Input      `json:"request_user_input,omitempty"`
	Followups        any                `json:"followups,omitempty"`
	MarkdownFollowup *markdown.Followup `json:"markdown_followup,omitempty"`
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
	pending := map[string][]string{} // two-tier pickers' follow-ups not answered
	parsed := map[string]any{}       // the JSON documents' answers, for bare
	var replies []int
	for i, d := range docs {
		format := formatOf(d)
		if format == formatAskText {
			if answers, bad, ok := readAskText(f, d.Data, pending); ok {
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
		answers, bad := readJSON(f, d.Data, pending)
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
		m.add(read[i], d.Name, d.Kept)
	}
	probs := m.problems()
	r, err := form.Collect(f, m.merged, opts)
	if err == nil && len(probs) == 0 {
		return r, nil
	}
	more, _ := err.(problem.List)
	probs = append(probs, skipReported(more, probs)...)
	for id := range pending {
		if _, answered := m.merged[id]; answered {
			delete(pending, id)
		}
	}
	return nil, &Failure{Problems: probs, Reask: newReask(f, probs, "", pending), Kept: kept(f, m.merged, probs), Pending: pending}
}

// kept are the answers of merged that hold: a field's, keeping its rules,
// that no problem is about.
func kept(f *form.Form, merged map[string]any, probs problem.List) map[string]any {
	byID := f.ByID()
	wrong := map[string]bool{}
	for _, p := range probs {
		if id := fieldOf(byID, p.Path); id != "" {
			wrong[id] = true
		}
	}
	out := map[string]any{}
	for k, v := range merged {
		if fl := byID[k]; fl != nil && !wrong[k] && !fl.DisplayOnly() && fl.Accepts(v) {
			out[k] = v
		}
	}
	return out
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
		if _, _, ok := readAskText(f, d.Data, nil); ok {
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
	soft   map[string]bool   // answer keys an earlier round kept: a later answer replaces them
	probs  problem.List
	// wrong holds, under every key a problem's path is at or under
	// (answers.<key>, answers.<key>.row, answers.<key>[i]), the indexes in
	// probs of the problems still standing: a later answer replaces them.
	wrong   map[string][]int
	dropped map[int]bool
}

func newMerger(f *form.Form) *merger {
	return &merger{byID: f.ByID(), merged: map[string]any{}, from: map[string]string{}, soft: map[string]bool{},
		wrong: map[string][]int{}, dropped: map[int]bool{}}
}

// add adds one document's answers; a key given two different answers is a
// problem naming both documents, unless the first was wrong (it broke the
// field's rules, or an earlier document has a problem at or under it: an
// answer it could not read) or an earlier round kept it (the person
// changed it). kept marks the earlier round's document.
func (m *merger) add(d docAnswers, name string, kept bool) {
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
		case m.replaceWrong(k) || seen && (m.soft[k] || !m.accepts(k, prev)):
			// The re-ask's reply replaces a wrong answer; a new answer
			// replaces the one an earlier round kept.
			m.merged[k], m.from[k] = v, name
			m.soft[k] = kept
		case !seen:
			m.merged[k], m.from[k] = v, name
			m.soft[k] = kept
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

// NewReask asks again for the fields the problems name, on surface s, or
// returns nil when they name none (or f is nil): for markdown the chat
// message, with each field's problem under it; for ask (AskUserQuestion)
// and codex (request_user_input) the tool's inputs and follow-ups, and the
// markdown follow-up for the fields the tool cannot ask; for "" both the
// markdown and AskUserQuestion's inputs. Any other surface (the widget, a
// terminal, a native dialog) gets the markdown.
func NewReask(f *form.Form, probs problem.List, s form.Surface) *Reask {
	return newReask(f, probs, s, nil)
}

// newReask is NewReask, the fields of pending (a two-tier picker's first
// tier answered) asked by the follow-ups of their chosen groups only on
// ask and codex.
func newReask(f *form.Form, probs problem.List, s form.Surface, pending map[string][]string) *Reask {
	if f == nil {
		return nil
	}
	byField := map[string][]string{}
	byID := f.ByID()
	var ids []string
	seen := map[string]bool{}
	for _, p := range probs {
		if id := fieldOf(byID, p.Path); id != "" && !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	// Every field a problem is about is asked again; the problems shown
	// under them are the ones shown anywhere, at most problem.Max.
	for _, p := range probs.Capped() {
		if id := fieldOf(byID, p.Path); id != "" {
			byField[id] = append(byField[id], p.Message)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	md := markdown.Render(f, &markdown.Options{Only: ids, Problems: byField, Lead: reaskLead})
	r := &Reask{Surface: s, FieldIDs: md.FieldIDs}
	whole, tiers := ids, []string(nil)
	if s == form.SurfaceAsk || s == form.SurfaceCodex {
		whole, tiers = splitPending(ids, pending)
	}
	var askTiers []ask.Question
	var codexTiers []codex.Question
	for _, id := range tiers {
		var n int
		if s == form.SurfaceAsk {
			qs := chosenFollowups(ask.RenderOnly(f, id).Followups, pending[id])
			askTiers, n = append(askTiers, qs...), len(qs)
		} else {
			qs := chosenFollowups(codex.Render(f.Only(id)).Followups, pending[id])
			codexTiers, n = append(codexTiers, qs...), len(qs)
		}
		if n == 0 { // no follow-up of that name: ask the field whole
			whole = append(whole, id)
		}
	}
	switch s {
	case form.SurfaceAsk:
		if len(whole) > 0 {
			a := ask.RenderOnly(f, whole...)
			r.AskUserQuestion, r.MarkdownFollowup = a.AskUserQuestion, a.MarkdownFollowup
			if len(a.Followups) > 0 {
				r.Followups = a.Followups
			}
		}
		r.AskUserQuestion = append(r.AskUserQuestion, inCalls(askTiers, 4, func(qs []ask.Question) ask.Input { return ask.Input{Questions: qs} })...)
	case form.SurfaceCodex:
		if len(whole) > 0 {
			c := codex.Render(f.Only(whole...))
			if c.ChangeSome != nil { // a re-ask shows what is wrong, not a confirm of guesses
				c = c.ChangeSome
			}
			r.RequestUserInput, r.MarkdownFollowup = c.RequestUserInput, c.MarkdownFollowup
			if len(c.Followups) > 0 {
				r.Followups = c.Followups
			}
		}
		r.RequestUserInput = append(r.RequestUserInput, inCalls(codexTiers, 3, func(qs []codex.Question) codex.Input { return codex.Input{Questions: qs} })...)
	case "":
		r.Markdown = md.Markdown
		a := ask.RenderOnly(f, ids...)
		r.AskUserQuestion = a.AskUserQuestion
		if len(a.Followups) > 0 {
			r.Followups = a.Followups
		}
	default:
		r.Markdown = md.Markdown
	}
	if fu := r.MarkdownFollowup; fu != nil { // with each field's problem under it
		fmd := markdown.Render(f, &markdown.Options{Only: fu.FieldIDs, Problems: byField, Lead: reaskLead})
		r.MarkdownFollowup = &markdown.Followup{FieldIDs: fmd.FieldIDs, Markdown: fmd.Markdown}
	}
	if r.Markdown == "" && len(r.AskUserQuestion) == 0 && len(r.RequestUserInput) == 0 && r.MarkdownFollowup == nil {
		r.Markdown = md.Markdown // nothing the tool can ask: the chat message asks
	}
	return r
}

// inCalls puts questions into tool calls of at most size questions each
// (AskUserQuestion takes 4, request_user_input 3).
func inCalls[Q, C any](qs []Q, size int, call func([]Q) C) []C {
	var out []C
	for len(qs) > 0 {
		n := min(len(qs), size)
		out = append(out, call(qs[:n]))
		qs = qs[n:]
	}
	return out
}

// splitPending splits ids into the fields to ask whole and those of
// pending, whose follow-ups alone are asked.
func splitPending(ids []string, pending map[string][]string) (whole, tiers []string) {
	for _, id := range ids {
		if len(pending[id]) > 0 {
			tiers = append(tiers, id)
		} else {
			whole = append(whole, id)
		}
	}
	return whole, tiers
}

// chosenFollowups are the follow-up questions of the groups named chosen.
func chosenFollowups[Q any](fus []form.Followup[Q], chosen []string) []Q {
	var qs []Q
	for _, fu := range fus {
		for _, g := range fu.Groups {
			if slices.Contains(chosen, g.Label) {
				qs = append(qs, g.Question)
			}
		}
	}
	return qs
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
