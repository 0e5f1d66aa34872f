package surfaces

import (
	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/problem"
)

// ParseResponse reads a response for f: the output of collect
// ({"success":true,"responses":{...},"response_id":...}) or answers in any
// shape ParseAnswers takes. The values are validated again, so a summary
// never shows an answer the form would refuse. The response id is the one
// the response carries, or none: bare answers were never recorded, and an
// id made up here would name nothing `responses show` knows.
func ParseResponse(f *form.Form, data []byte, opts *form.CollectOptions) (*form.Response, error) {
	doc, err := form.DecodeJSON(data, "response", true)
	if err != nil {
		return nil, err
	}
	top, _ := doc.Value.(map[string]any)
	inner, isCollected := top["responses"].(map[string]any)
	if _, ok := top["success"]; !ok || !isCollected {
		answers, err := answersOf(f, doc)
		if err != nil {
			return nil, err
		}
		r, err := form.Collect(f, answers, opts)
		if r != nil {
			r.ResponseID = ""
		}
		return r, err
	}
	probs := doc.Problems("")
	r, err := form.Collect(f, inner, opts)
	if len(probs) > 0 {
		more, _ := err.(problem.List)
		return nil, append(probs, more...)
	}
	if err != nil {
		return nil, err
	}
	r.ResponseID, _ = top["response_id"].(string)
	if id, ok := top["template_id"].(string); ok && id != "" {
		r.TemplateID = id
	}
	return r, nil
}
