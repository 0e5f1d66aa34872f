package mcpserver

import (
	"context"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/native"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// askKey names elicitation_ask's one input request.
const askKey = "form"

// askResult is elicitation_ask's outcome.
type askResult struct {
	Success         bool               `json:"success"`
	Action          string             `json:"action"`
	Responses       map[string]any     `json:"responses,omitempty"`
	ResponseID      string             `json:"response_id,omitempty"`
	TemplateID      string             `json:"template_id,omitempty"`
	Problems        []string           `json:"problems,omitempty"`
	AskUserQuestion []ask.Input        `json:"ask_user_question,omitempty"`
	Followups       []ask.Followup     `json:"followups,omitempty"`
	Unsupported     []form.Unsupported `json:"unsupported,omitempty"`
	Message         string             `json:"message,omitempty"`
}

// ask asks the form through native elicitation. The first round returns an
// input request (the SDK sends elicitation/create to clients on older
// protocols); the retry carries the user's answer, which is validated by
// collect like any other.
func (h *handlers) ask(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := parseArgs(req.Params.Arguments, withFormArgs("message"))
	if a.raw == nil {
		return failure(a.probs), nil
	}
	f, tid := a.form(h.opts.Templates)
	message := a.str("message", false)
	if len(a.probs) > 0 {
		return failure(a.probs), nil
	}
	if resp, ok := req.Params.InputResponses[askKey].(*mcp.ElicitResult); ok {
		return result(answer(f, tid, resp), false), nil
	}
	if !canElicitForms(req.ClientCapabilities()) {
		return result(fallback(f), false), nil
	}
	if message == "" {
		message = f.Title
		if f.Description != "" {
			message += "\n\n" + f.Description
		}
	}
	r := native.Render(f)
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
		askKey: &mcp.ElicitParams{Mode: "form", Message: message, RequestedSchema: r.Schema},
	}}, nil
}

// canElicitForms reports whether the client declared form elicitation (an
// elicitation capability with neither mode named means form).
func canElicitForms(c *mcp.ClientCapabilities) bool {
	if c == nil || c.Elicitation == nil {
		return false
	}
	e := c.Elicitation
	return e.Form != nil || e.URL == nil
}

// fallback is the answer for a client that cannot elicit: the ready
// AskUserQuestion inputs to use instead.
func fallback(f *form.Form) askResult {
	r := ask.Render(f)
	return askResult{Action: "unsupported", AskUserQuestion: r.AskUserQuestion, Followups: r.Followups, Unsupported: r.Unsupported,
		Message: "this client cannot show elicitation forms: ask with the AskUserQuestion inputs, then validate with elicitation_collect_response"}
}

// answer turns the client's elicitation result into the outcome, validating
// accepted content with collect (the client is never trusted).
func answer(f *form.Form, tid string, resp *mcp.ElicitResult) askResult {
	switch resp.Action {
	case "accept":
	case "decline":
		return askResult{Action: "decline", Message: "declined: if the user did not see a dialog, treat this as the surface being unavailable and fall back to AskUserQuestion"}
	case "cancel":
		return askResult{Action: "cancel"}
	default:
		return askResult{Action: resp.Action, Problems: []string{"action: unknown elicitation action " + resp.Action}}
	}
	r, err := form.Collect(f, native.Answers(f, resp.Content), &form.CollectOptions{TemplateID: tid})
	if err != nil {
		a := &args{}
		a.addPrefixed("", err)
		return askResult{Action: "accept", Problems: a.probs.Strings()}
	}
	return askResult{Success: true, Action: "accept", Responses: r.Responses, ResponseID: r.ResponseID, TemplateID: r.TemplateID}
}
