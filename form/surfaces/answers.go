package surfaces

import (
	"fmt"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/codex"
	"github.com/elicit/elicit/form/widget"
	"github.com/elicit/elicit/problem"
)

// ParseAnswers decodes a JSON answers document for f. It reads JSON only:
// Collect reads every format (a markdown reply, the sentence Claude Code
// shows after AskUserQuestion) as well. It accepts, and tells apart by
// content:
//   - answers keyed by field id: {"goal": "Fix a bug", "focus": ["tests"]};
//   - the widget's postback: {"__elicitation_response__": true, "form_id":
//     ..., "answers": {...}}, or the whole chat message the widget sent with
//     it in a fenced block (refused when it answers another form);
//   - the AskUserQuestion tool's output, {"questions": [...], "answers":
//     {question text: label}}, mapped back onto field ids;
//   - the Codex request_user_input tool's result, {"answers": {question id:
//     {"answers": [label]}}}, mapped back onto field ids;
//   - a list of tool outputs (one per call, of either tool).
//
// Duplicate keys and lone surrogate escapes ("\ud800") are reported, with
// the problems the answers have besides, rather than silently decoded.
func ParseAnswers(f *form.Form, data []byte) (map[string]any, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	data = postbackBlock(data)
	doc, err := form.DecodeJSON(data, "answers", true)
	if err != nil {
		return nil, err
	}
	return answersOf(f, doc)
}

// readJSON decodes an answers document and maps it onto field ids. It
// returns what it could read even when there are problems: the document's
// own (keys given twice, lone surrogates) and the mapping's.
func readJSON(f *form.Form, data []byte, pending map[string][]string) (map[string]any, problem.List) {
	data = postbackBlock(data)
	doc, err := form.DecodeJSON(data, "answers", true)
	if err != nil {
		probs, _ := err.(problem.List)
		return nil, probs
	}
	_, probs, answers, err := decoded(f, doc, pending)
	more, _ := err.(problem.List)
	return answers, append(probs, more...)
}

// readAskText reads the text Claude Code shows the model after
// AskUserQuestion ("Your questions have been answered: "Q"="A", ...") as
// the tool's JSON output is read; ok is false when the text has no
// `"<question>"=` of the form's.
func readAskText(f *form.Form, data []byte, pending map[string][]string) (answers map[string]any, probs problem.List, ok bool) {
	into := form.NewChatAnswers()
	if !ask.NewReader(f).ReadText(into, string(data)) {
		return nil, nil, false
	}
	answers, err := result(into, pending)
	probs, _ = err.(problem.List)
	return answers, probs, true
}

// decoded maps a decoded document onto field ids: its shape, its own
// problems, the answers, and the mapping's error.
func decoded(f *form.Form, doc *form.Document, pending map[string][]string) (shape, problem.List, map[string]any, error) {
	shape := shapeOf(f, doc.Value)
	prefix := ""
	if shape == byID {
		prefix = "answers"
	}
	answers, err := fromShape(f, shape, doc.Value, pending)
	return shape, doc.Problems(prefix), answers, err
}

// answersOf maps a decoded answers document onto field ids.
func answersOf(f *form.Form, doc *form.Document) (map[string]any, error) {
	shape, probs, answers, err := decoded(f, doc, nil)
	if len(probs) == 0 {
		return answers, err
	}
	return nil, answersProblems(f, shape, probs, answers, err)
}

// answersProblems are a document's own problems (probs) with what its
// answers have wrong besides, but not twice for a value already reported.
func answersProblems(f *form.Form, s shape, probs problem.List, answers map[string]any, err error) problem.List {
	if err == nil && (s == byID || s == widgetPostback) {
		_, err = form.Collect(f, answers, nil)
	}
	more, _ := err.(problem.List)
	return append(probs, skipReported(more, probs)...)
}

// shape is the kind of an answers document.
type shape int

const (
	byID shape = iota
	widgetPostback
	askOutput
	codexOutput
	toolOutputs
)

// shapeOf tells a tool output (or widget postback) from answers keyed by
// field id: it has an "answers" member and is not a form whose own field is
// called "answers".
func shapeOf(f *form.Form, v any) shape {
	if _, ok := v.([]any); ok {
		return toolOutputs
	}
	m := v.(map[string]any)
	if widget.IsPostback(m) {
		return widgetPostback
	}
	_, questions := m["questions"]
	inner, answers := m["answers"]
	switch {
	case answers && !questions && isCodexAnswers(inner):
		return codexOutput
	case answers && (questions || f.Field("answers") == nil):
		return askOutput
	}
	return byID
}

// isCodexAnswers reports whether v is request_user_input's answers object
// rather than AskUserQuestion's: request_user_input answers each question
// with an object {"answers": [...]}, AskUserQuestion with a string. One
// member shaped like request_user_input's is enough, else most members
// being objects, so that a single mistyped member is reported as what it
// is, by its path, instead of turning the whole document into
// AskUserQuestion's output.
func isCodexAnswers(v any) bool {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return false
	}
	objects := 0
	for _, a := range m {
		obj, ok := a.(map[string]any)
		if !ok {
			continue
		}
		if _, ok := obj["answers"]; ok {
			return true
		}
		objects++
	}
	return 2*objects > len(m)
}

func fromShape(f *form.Form, s shape, v any, pending map[string][]string) (map[string]any, error) {
	var probs problem.List
	switch s {
	case toolOutputs:
		return fromOutputs(f, v.([]any), pending)
	case widgetPostback:
		return widget.ReadPostback(f, v.(map[string]any))
	case askOutput, codexOutput:
		inner := v.(map[string]any)["answers"]
		m, ok := inner.(map[string]any)
		if !ok {
			probs.Add("answers", "must be an object (got %s)", form.DescribeValue(inner))
			return nil, probs
		}
		into := form.NewChatAnswers()
		if s == codexOutput {
			codex.NewReader(f).Read(into, "", m)
		} else {
			ask.NewReader(f).Read(into, "", m)
		}
		return result(into, pending)
	}
	return v.(map[string]any), nil
}

// fromOutputs maps a list of tool outputs, AskUserQuestion's and
// request_user_input's in any mix, onto field ids. They are read together
// (a two-tier picker's tiers come in separate calls), and a question or a
// field answered differently by two of them is a problem naming both, as
// between separate documents.
func fromOutputs(f *form.Form, list []any, pending map[string][]string) (map[string]any, error) {
	var probs problem.List
	into := form.NewChatAnswers()
	var asked *ask.Reader
	var coded *codex.Reader
	for i, it := range list {
		m, _ := it.(map[string]any)
		inner, ok := m["answers"].(map[string]any)
		prefix := fmt.Sprintf("[%d].", i)
		switch {
		case !ok:
			probs.Add("", "answers[%d] must be an AskUserQuestion or request_user_input output with an \"answers\" object", i)
		case isCodexAnswers(inner):
			if coded == nil {
				coded = codex.NewReader(f)
			}
			coded.Read(into, prefix, inner)
		default:
			if asked == nil {
				asked = ask.NewReader(f)
			}
			asked.Read(into, prefix, inner)
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return result(into, pending)
}

// result is into's answers and problems, the follow-ups still pending
// added to pending (nil: not wanted).
func result(into *form.ChatAnswers, pending map[string][]string) (map[string]any, error) {
	answers, err := into.Result()
	if pending != nil {
		for id, groups := range into.Pending() {
			pending[id] = append(pending[id], groups...)
		}
	}
	return answers, err
}

// skipReported drops the problems about a value probs already reports on.
func skipReported(more, probs problem.List) problem.List {
	reported := make(map[string]bool, len(probs))
	for _, p := range probs {
		reported[p.Path] = true
	}
	var out problem.List
	for _, m := range more {
		if !within(m.Path, reported) {
			out = append(out, m)
		}
	}
	return out
}

// within reports whether path is at or below one of the reported paths: is
// one of them, or goes on from one with "." or "[".
func within(path string, reported map[string]bool) bool {
	if reported[path] {
		return true
	}
	for i := len(path) - 1; i >= 0; i-- {
		if (path[i] == '.' || path[i] == '[') && reported[path[:i]] {
			return true
		}
	}
	return false
}

// postbackBlock is the widget's postback when data is the chat message the
// widget sent (its fenced JSON block), else data unchanged.
func postbackBlock(data []byte) []byte {
	if block, ok := widget.Extract(data); ok {
		return block
	}
	return data
}
