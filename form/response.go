package form

import (
	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/problem"
)

// ParseResponse reads a response for f: the output of collect
// ({"success":true,"responses":{...},"response_id":...}) or answers in any
// shape ParseAnswers takes. The values are validated again, so a summary
// never shows an answer the form would refuse.
func ParseResponse(f *Form, data []byte, opts *CollectOptions) (*Response, error) {
	root, probs := parseDocument(data, "response", true)
	if probs != nil {
		return nil, probs
	}
	if inner := root.Get("responses"); inner != nil && root.Get("success") != nil && inner.Kind == jsonnode.Object {
		documentProblems(data, &root, "", &probs)
		r, err := Collect(f, jsonValue(inner).(map[string]any), opts)
		if len(probs) > 0 {
			more, _ := err.(problem.List)
			return nil, append(probs, more...)
		}
		if err != nil {
			return nil, err
		}
		if id := root.Get("response_id"); id != nil && id.Kind == jsonnode.String {
			r.ResponseID = id.Text
		}
		if id := root.Get("template_id"); id != nil && id.Kind == jsonnode.String && id.Text != "" {
			r.TemplateID = id.Text
		}
		return r, nil
	}
	answers, err := ParseAnswers(f, data)
	if err != nil {
		return nil, err
	}
	return Collect(f, answers, opts)
}
