package surfaces

import (
	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/problem"
)

// ParseAnswers decodes an answers document for f. It accepts, and tells
// apart by content:
//   - answers keyed by field id: {"goal": "Fix a bug", "focus": ["tests"]};
//   - the widget's postback: {"__elicitation_response__": true, "answers": {...}};
//   - the AskUserQuestion tool's output, {"questions": [...], "answers":
//     {question text: label}}, or a list of such outputs (one per call),
//     mapped back onto field ids.
//
// Duplicate keys and lone surrogate escapes ("\ud800") are reported, with
// the problems the answers have besides, rather than silently decoded.
func ParseAnswers(f *form.Form, data []byte) (map[string]any, error) {
	doc, err := form.DecodeJSON(data, "answers", true)
	if err != nil {
		return nil, err
	}
	return answersOf(f, doc)
}

// answersOf maps a decoded answers document onto field ids.
func answersOf(f *form.Form, doc *form.Document) (map[string]any, error) {
	shape := shapeOf(f, doc.Value)
	prefix := ""
	if shape == byID {
		prefix = "answers"
	}
	probs := doc.Problems(prefix)
	answers, err := fromShape(f, shape, doc.Value)
	if len(probs) == 0 {
		return answers, err
	}
	// Report what the answers have wrong besides, but not twice for a
	// value already reported.
	if err == nil && (shape == byID || shape == widgetPostback) {
		_, err = form.Collect(f, answers, nil)
	}
	more, _ := err.(problem.List)
	return nil, append(probs, skipReported(more, probs)...)
}

// shape is the kind of an answers document.
type shape int

const (
	byID shape = iota
	widgetPostback
	askOutput
	askOutputs
)

// shapeOf tells a tool output (or widget postback) from answers keyed by
// field id: it has an "answers" member and is not a form whose own field is
// called "answers".
func shapeOf(f *form.Form, v any) shape {
	if _, ok := v.([]any); ok {
		return askOutputs
	}
	m := v.(map[string]any)
	if _, ok := m["__elicitation_response__"]; ok {
		return widgetPostback
	}
	_, questions := m["questions"]
	_, answers := m["answers"]
	if answers && (questions || f.Field("answers") == nil) {
		return askOutput
	}
	return byID
}

func fromShape(f *form.Form, s shape, v any) (map[string]any, error) {
	var probs problem.List
	switch s {
	case askOutputs:
		var all []map[string]any
		for i, it := range v.([]any) {
			m, _ := it.(map[string]any)
			inner, ok := m["answers"].(map[string]any)
			if !ok {
				probs.Add("", "answers[%d] must be an AskUserQuestion output with an \"answers\" object", i)
				continue
			}
			all = append(all, inner)
		}
		if len(probs) > 0 {
			return nil, probs
		}
		return ask.Answers(f, all...)
	case widgetPostback, askOutput:
		inner := v.(map[string]any)["answers"]
		m, ok := inner.(map[string]any)
		if !ok {
			probs.Add("answers", "must be an object (got %s)", form.DescribeValue(inner))
			return nil, probs
		}
		if s == widgetPostback {
			return m, nil
		}
		return ask.Answers(f, m)
	}
	return v.(map[string]any), nil
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
