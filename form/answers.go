package form

import (
	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/problem"
)

// ParseAnswers decodes an answers document for f. It accepts, and tells
// apart:
//   - answers keyed by field id: {"goal": "Fix a bug", "focus": ["tests"]};
//   - the widget's postback: {"__elicitation_response__": true, "answers": {...}};
//   - the AskUserQuestion tool's output, {"questions": [...], "answers":
//     {question text: label}}, or a list of such outputs (one per call),
//     mapped back onto field ids.
func ParseAnswers(f *Form, data []byte) (map[string]any, error) {
	root, probs := parseDocument(data, "answers", true)
	if probs != nil {
		return nil, probs
	}
	if root.Kind == jsonnode.Array {
		return askOutputs(f, &root)
	}
	if inner := root.Get("answers"); inner != nil && isAskOutput(f, &root) {
		if inner.Kind != jsonnode.Object {
			probs.Add("answers", "must be an object (got %s)", describe(inner))
			return nil, probs
		}
		if w := root.Get("__elicitation_response__"); w != nil {
			return inner.Value().(map[string]any), nil
		}
		return FromAskUserQuestion(f, inner.Value().(map[string]any))
	}
	return root.Value().(map[string]any), nil
}

// isAskOutput tells a tool output (or widget postback) from answers keyed by
// field id: it has an "answers" object and is not a form whose own field is
// called "answers".
func isAskOutput(f *Form, root *jsonnode.Node) bool {
	if root.Get("__elicitation_response__") != nil || root.Get("questions") != nil {
		return true
	}
	return f.Field("answers") == nil
}

// askOutputs merges a list of AskUserQuestion outputs.
func askOutputs(f *Form, root *jsonnode.Node) (map[string]any, error) {
	var probs problem.List
	var all []map[string]any
	for i := range root.Items {
		it := &root.Items[i]
		inner := it.Get("answers")
		if it.Kind != jsonnode.Object || inner == nil || inner.Kind != jsonnode.Object {
			probs.Add("", "answers[%d] must be an AskUserQuestion output with an \"answers\" object", i)
			continue
		}
		all = append(all, inner.Value().(map[string]any))
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return FromAskUserQuestion(f, all...)
}
