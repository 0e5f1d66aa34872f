package form

import (
	"slices"
	"strings"

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
//
// Duplicate keys and lone surrogate escapes ("\ud800") are reported, with
// the problems the answers have besides, rather than silently decoded.
func ParseAnswers(f *Form, data []byte) (map[string]any, error) {
	root, probs := parseDocument(data, "answers", true)
	if probs != nil {
		return nil, probs
	}
	ask := root.Kind == jsonnode.Array || (root.Get("answers") != nil && isAskOutput(f, &root))
	if ask {
		documentProblems(data, &root, "", &probs)
	} else {
		documentProblems(data, &root, "answers", &probs)
	}
	answers, err := decodeAnswers(f, &root)
	if len(probs) == 0 {
		return answers, err
	}
	// Report what the answers have wrong besides, but not twice for a
	// value already reported.
	if widget := root.Get("__elicitation_response__") != nil; err == nil && (!ask || widget) {
		_, err = Collect(f, answers, nil)
	}
	more, _ := err.(problem.List)
	return nil, append(probs, skipReported(more, probs)...)
}

// skipReported drops the problems about a value probs already reports on.
func skipReported(more, probs problem.List) problem.List {
	var out problem.List
	for _, m := range more {
		if !slices.ContainsFunc(probs, func(p problem.Problem) bool { return within(m.Path, p.Path) }) {
			out = append(out, m)
		}
	}
	return out
}

// within reports whether path is at or below base.
func within(path, base string) bool {
	rest, ok := strings.CutPrefix(path, base)
	return ok && (rest == "" || rest[0] == '.' || rest[0] == '[')
}

// decodeAnswers maps a parsed answers document onto field ids.
func decodeAnswers(f *Form, root *jsonnode.Node) (map[string]any, error) {
	var probs problem.List
	if root.Kind == jsonnode.Array {
		return askOutputs(f, root)
	}
	if inner := root.Get("answers"); inner != nil && isAskOutput(f, root) {
		if inner.Kind != jsonnode.Object {
			probs.Add("answers", "must be an object (got %s)", describe(inner))
			return nil, probs
		}
		if w := root.Get("__elicitation_response__"); w != nil {
			return jsonValue(inner).(map[string]any), nil
		}
		return FromAskUserQuestion(f, jsonValue(inner).(map[string]any))
	}
	return jsonValue(root).(map[string]any), nil
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
		all = append(all, jsonValue(inner).(map[string]any))
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return FromAskUserQuestion(f, all...)
}
