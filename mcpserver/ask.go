package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/codex"
	"github.com/elicit/elicit/form/markdown"
	"github.com/elicit/elicit/form/native"
	"github.com/elicit/elicit/form/surfaces"
	"github.com/elicit/elicit/internal/formrun"
	"github.com/elicit/elicit/problem"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// askKey names elicitation_ask's one input request.
const askKey = "form"

// uncheckedKey is where keepUnchecked moves accepted content, in the
// result's _meta, so that the SDK does not check it against the requested
// schema itself.
const uncheckedKey = "elicit/content"

// failedKey is where keepUnchecked puts the error of an elicitation/create
// the client answered with an error, in the result's _meta.
const failedKey = "elicit/error"

// keepUnchecked is a sending middleware for the elicitation/create the SDK
// sends for elicitation_ask to clients on older protocols. The SDK refuses
// accepted content that breaks the requested schema with a bare error
// (answer "zzz" for an enum, 500 over a maximum of 100), losing the answers;
// moved aside, the content reaches collect, which names every problem by
// field path in the documented tool result. An error from the client's
// dialog (its handler threw) would also end the call with a bare JSON-RPC
// error: it becomes an answer with action "error", which falls back like a
// decline. A call canceled meanwhile keeps its error.
func keepUnchecked(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil && method == "elicitation/create" && ctx.Err() == nil {
			why := err.Error()
			if rpc := (*jsonrpc.Error)(nil); errors.As(err, &rpc) {
				why = rpc.Message // the client's own words, without the SDK's "calling ..."
			}
			return &mcp.ElicitResult{Action: "error", Meta: mcp.Meta{failedKey: why}}, nil
		}
		if r, ok := res.(*mcp.ElicitResult); ok && err == nil && r.Action == "accept" && r.Content != nil {
			if r.Meta == nil {
				r.Meta = mcp.Meta{}
			}
			r.Meta[uncheckedKey] = r.Content
			r.Content = nil
		}
		return res, err
	}
}

// contentOf is the accepted content of an elicitation result, wherever
// keepUnchecked left it.
func contentOf(r *mcp.ElicitResult) map[string]any {
	if r.Content != nil {
		return r.Content
	}
	c, _ := r.Meta[uncheckedKey].(map[string]any)
	return c
}

// seenFast is how soon a decline or cancel must come for it to be the
// client's, not a person's: nobody reads a form and answers in under a
// second.
const seenFast = time.Second

// askResult is elicitation_ask's outcome. When nothing was answered
// (unsupported, decline, cancel) it carries the fallback: the render result
// of the surface the client's agent asks with instead, its fields at the
// top level (ask_user_question or request_user_input, unsupported,
// markdown_followup), and a hint saying what happened and what to do.
type askResult struct {
	Success    bool           `json:"success"`
	Action     string         `json:"action"`
	Responses  map[string]any `json:"responses,omitempty"`
	ResponseID string         `json:"response_id,omitempty"`
	TemplateID string         `json:"template_id,omitempty"`
	FormID     string         `json:"form_id,omitempty"`
	Problems   []string       `json:"problems,omitempty"`
	// CollectID, Kept and Reask, for accepted answers with problems: the
	// answers that hold (kept under collect_id, for collect's continue)
	// and the re-ask of the others in the fallback surface.
	CollectID string          `json:"collect_id,omitempty"`
	Kept      map[string]any  `json:"kept,omitempty"`
	Reask     *surfaces.Reask `json:"reask,omitempty"`
	// Host is the client as it named itself: "claude-code 2.1.332".
	Host string `json:"host,omitempty"`
	// Fallback is the surface the fallback payloads are for.
	Fallback form.Surface `json:"fallback,omitempty"`
	Hint     string       `json:"hint,omitempty"`
	payloads any
}

// MarshalJSON writes the outcome with the fallback's fields beside its own.
func (r askResult) MarshalJSON() ([]byte, error) {
	type plain askResult
	if r.payloads == nil {
		return json.Marshal(plain(r))
	}
	return mergeJSON(r.payloads, plain(r))
}

// ask asks the form through native elicitation. The first round returns an
// input request (the SDK sends elicitation/create to clients on older
// protocols) unless the client cannot show forms or is known to dismiss
// them unseen; the retry carries the user's answer, which is validated by
// collect like any other.
func (h *handlers) ask(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := parseArgs(req.Params.Arguments, withFormArgs("message"))
	if a.raw == nil {
		return failure(a.probs), nil
	}
	rf := h.formOf(a)
	h.door(req).Recall(&rf)
	f, tid := rf.Form, rf.Template
	message := a.str("message", false)
	if len(a.probs) > 0 {
		return failure(a.probs), nil
	}
	client := clientOf(req)
	if resp, ok := req.Params.InputResponses[askKey].(*mcp.ElicitResult); ok {
		sent, err := h.states.open(req.Params.RequestState, req.Params.Name, req.Params.Arguments, time.Now())
		if err != nil {
			return failure(problem.List{{Message: err.Error()}}), nil
		}
		out, r, err := answer(f, tid, resp, client, time.Since(sent))
		h.door(req).Collected(rf, form.SurfaceNative, r, err)
		if out.Reask != nil || len(out.Kept) > 0 {
			out.CollectID = h.collects.put("", collected{form: rf, kept: out.Kept})
		}
		return result(out, len(out.Problems) > 0), nil
	}
	if !canElicitForms(req.ClientCapabilities()) {
		return result(fallback(f, "unsupported", client, "this client declared no form elicitation, so no dialog was sent."), false), nil
	}
	if host := native.SkipsForms(client.Name, client.Version); host != nil {
		why := fmt.Sprintf("%s %s %s, so no dialog was sent.", host.Name, client.Version, host.Does)
		return result(fallback(f, "unsupported", client, why), false), nil
	}
	if message == "" {
		message = f.Title
		if f.Description != "" {
			message += "\n\n" + f.Description
		}
	}
	r := native.Render(f)
	h.door(req).Shown(rf, form.SurfaceNative)
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{askKey: &mcp.ElicitParams{Mode: "form", Message: message, RequestedSchema: r.Schema}},
		RequestState:  h.states.seal(req.Params.Name, req.Params.Arguments, time.Now()),
	}, nil
}

// clientOf is the client's name and version, empty when it gave none.
func clientOf(req *mcp.CallToolRequest) mcp.Implementation {
	if c := req.ClientInfo(); c != nil {
		return *c
	}
	return mcp.Implementation{}
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

// fallback is the outcome when the dialog showed nothing (or was not sent):
// the payloads of the surface the client's agent asks with instead, and a
// hint starting with why.
func fallback(f *form.Form, action string, client mcp.Implementation, why string) askResult {
	r := askResult{Action: action, Host: strings.TrimSpace(client.Name + " " + client.Version), Fallback: native.FallbackFor(client.Name)}
	switch r.Fallback {
	case form.SurfaceCodex:
		c := codex.Render(f)
		formrun.Phrase(c, surfaceHow)
		r.payloads = codexFallback{Result: c, Markdown: markdown.Render(f, nil).Markdown}
		r.Hint = why + " Ask with the request_user_input inputs (Plan mode), or send markdown as one message where that tool is missing (codex exec); " +
			"then validate with elicitation_collect_response (answers: the tool's result; reply: the person's markdown reply)."
	default:
		a := ask.Render(f)
		formrun.Phrase(a, surfaceHow)
		r.payloads = a
		r.Hint = why + " Ask with the ask_user_question inputs, send markdown_followup as one message for what they cannot carry, " +
			"then validate everything with elicitation_collect_response (answers: the tool output; reply: the person's markdown reply)."
	}
	return r
}

// codexFallback is the Codex fallback: request_user_input inputs, and the
// whole form as markdown for where that tool does not exist.
type codexFallback struct {
	*codex.Result
	Markdown string `json:"markdown"`
}

// answer turns the client's elicitation result into the outcome, validating
// accepted content with collect (the client is never trusted); r and err
// are the collect's, both nil when nothing was accepted.
func answer(f *form.Form, tid string, resp *mcp.ElicitResult, client mcp.Implementation, took time.Duration) (out askResult, r *form.Response, err error) {
	switch resp.Action {
	case "accept":
	case "decline", "cancel":
		return fallback(f, resp.Action, client, dismissal(resp.Action, took)), nil, nil
	default:
		if why, ok := resp.Meta[failedKey].(string); ok && resp.Action == "error" {
			return fallback(f, "error", client, fmt.Sprintf("The client's dialog failed (%q), so the user most likely saw nothing.", why)), nil, nil
		}
		return askResult{Action: resp.Action, Problems: []string{"action: unknown elicitation action " + resp.Action}}, nil, nil
	}
	content, _ := json.Marshal(native.Answers(f, contentOf(resp)))
	if len(content) > form.MaxInput {
		// The cap collect holds answers to, in its words.
		var probs problem.List
		probs.Add("answers", overLimit, len(content), form.MaxInput)
		return askResult{Action: "accept", Problems: probs.Strings(), Host: strings.TrimSpace(client.Name + " " + client.Version),
			Hint: "The dialog's answers are over the 1 MiB cap on answers: ask for shorter answers (a long text belongs in a file)."}, nil, probs
	}
	r, err = surfaces.Collect(f, []surfaces.Document{{Name: "answers", Format: surfaces.FormatJSON, Data: content}}, &form.CollectOptions{TemplateID: tid})
	var fail *surfaces.Failure
	if errors.As(err, &fail) {
		// What holds is kept; the rest is asked again the way the client's
		// agent asks (the dialog's answers cannot be edited in place).
		surface := native.FallbackFor(client.Name)
		return askResult{Action: "accept", Problems: fail.Problems.Strings(), Kept: fail.Kept,
			Reask: surfaces.NewReask(f, fail.Problems, surface), Host: strings.TrimSpace(client.Name + " " + client.Version), Fallback: surface,
			Hint: "Some answers broke the form's rules: ask only reask, then call elicitation_collect_response with continue: collect_id and just the new answers."}, nil, fail.Problems
	}
	if err != nil {
		a := &args{}
		a.addPrefixed("", err)
		return askResult{Action: "accept", Problems: a.probs.Strings()}, nil, err
	}
	return askResult{Success: true, Action: "accept", Responses: r.Responses, ResponseID: r.ResponseID, TemplateID: r.TemplateID, FormID: r.FormID}, r, nil
}

// dismissal says what a decline or cancel most likely was.
func dismissal(action string, took time.Duration) string {
	verb := map[string]string{"decline": "declined", "cancel": "cancelled"}[action]
	switch {
	case took >= 0 && took < seenFast:
		return fmt.Sprintf("The client %s after %d ms, faster than anyone reads a form: it most likely showed nothing.", verb, took.Milliseconds())
	case took >= 0:
		return fmt.Sprintf("The dialog was %s after %.1f s: if the user saw it, respect that and do not ask again unprompted; if they saw nothing, ask another way.", verb, took.Seconds())
	}
	return fmt.Sprintf("The dialog was %s: if the user saw it, respect that; if they saw nothing, ask another way.", verb)
}
