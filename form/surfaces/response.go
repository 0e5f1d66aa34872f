package surfaces

import (
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/problem"
)

// ParseResponse reads a response for f: ReadResponse of a document named
// "response" whose format is told by its content (FormatAuto).
func ParseResponse(f *form.Form, data []byte, opts *form.CollectOptions) (*form.Response, error) {
	return ReadResponse(f, Document{Name: "response", Format: FormatAuto, Data: data}, opts)
}

// ReadResponse reads a response for f from one document in any format
// Collect reads. In JSON: the output of collect
// ({"success":true,"responses":{...},"response_id":...}), a response-log
// record (`responses show ID --json`: "responses" and "response_id", no
// "success"; unless f has a field "responses"), the widget's chat message,
// or answers in any shape ParseAnswers takes. Otherwise (a markdown reply,
// the text Claude Code shows after AskUserQuestion) what Collect reads from
// it. The values are validated again, so a summary never shows an answer
// the form would refuse. The response id is the one the
// response carries, or none: bare answers were never recorded, and an id
// made up here would name nothing `responses show` knows. Problems are
// named by their path under "response" (response.goal for bare answers,
// response.responses.goal for collect's output); a failed collect's output
// is refused as a whole.
func ReadResponse(f *form.Form, d Document, opts *form.CollectOptions) (*form.Response, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	if err := checkFormats([]Document{d}); err != nil {
		return nil, err
	}
	if formatOf(d) != FormatJSON {
		r, err := Collect(f, []Document{d}, opts)
		if fail, ok := err.(*Failure); ok {
			return nil, underResponse(fail.Problems, "answers")
		}
		if err != nil {
			return nil, err
		}
		r.ResponseID = "" // never recorded: see above
		return r, nil
	}
	data := postbackBlock(d.Data)
	doc, err := form.DecodeJSON(data, "response", true)
	if err != nil {
		return nil, err
	}
	top, _ := doc.Value.(map[string]any)
	if ok, isBool := top["success"].(bool); isBool && !ok {
		var probs problem.List
		probs.Add("response", "is a failed collect (success: false): fix its problems, collect again and pass the successful result")
		return nil, probs
	}
	inner, isCollected := top["responses"].(map[string]any)
	_, success := top["success"]
	_, logged := top["response_id"].(string)
	if !isCollected || !success && !(logged && f.Field("responses") == nil) {
		shape, probs, answers, err := decoded(f, doc, nil)
		from := "" // a tool output's paths are below the document
		if shape == byID {
			from = "answers" // the document is the answers: answers.goal is response.goal
		}
		if len(probs) > 0 || err != nil {
			return nil, underResponse(answersProblems(f, shape, probs, answers, err), from)
		}
		r, err := form.Collect(f, answers, opts)
		if err != nil {
			probs, _ := err.(problem.List)
			return nil, underResponse(probs, from)
		}
		r.ResponseID = ""
		return r, nil
	}
	probs := doc.Problems("")
	r, err := form.Collect(f, inner, opts)
	if len(probs) > 0 || err != nil {
		more, _ := err.(problem.List)
		probs = append(underResponse(probs, ""), underResponse(more, "answers.responses")...)
		return nil, probs
	}
	r.ResponseID, _ = top["response_id"].(string)
	if id, ok := top["template_id"].(string); ok && id != "" {
		r.TemplateID = id
	}
	return r, nil
}

// underResponse names the problems' paths under "response": a path that
// starts with from (a segment such as "answers") has it replaced, any other
// is put below "response". from may name a replacement itself, as
// "answers.responses" puts collect's answers.goal at
// response.responses.goal.
func underResponse(probs problem.List, from string) problem.List {
	old, repl, _ := strings.Cut(from, ".")
	out := make(problem.List, len(probs))
	for i, p := range probs {
		switch {
		case old != "" && (p.Path == old || strings.HasPrefix(p.Path, old+".") || strings.HasPrefix(p.Path, old+"[")):
			rest := p.Path[len(old):]
			if repl != "" {
				rest = "." + repl + rest
			}
			p.Path = "response" + rest
		case p.Path == "" || p.Path == "response": // the document as a whole
			p.Path = "response"
		case strings.HasPrefix(p.Path, "["):
			p.Path = "response" + p.Path
		default:
			p.Path = "response." + p.Path
		}
		out[i] = p
	}
	return out
}
