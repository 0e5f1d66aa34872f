package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/native"
	"github.com/elicit/elicit/form/surfaces"
	"github.com/elicit/elicit/internal/formrun"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var formArgs = []string{"form", "template", "slots"}

func withFormArgs(extra ...string) []string {
	return append(append([]string(nil), formArgs...), extra...)
}

// renderResult is the CLI's render result plus the surface the router
// picks, why, and how to reach it.
type renderResult struct {
	*ask.Result
	Surface       form.Surface `json:"surface"`
	SurfaceReason string       `json:"surface_reason"`
	SurfaceHow    string       `json:"surface_how"`
}

// renderSurfaces are the values of render_form's surface argument.
var renderSurfaces = []form.Surface{form.SurfaceAsk, form.SurfaceMarkdown, form.SurfaceCodex}

// surfaceRender is another surface's render result plus the surface the
// router picks.
type surfaceRender struct {
	Result        any          `json:"-"`
	Surface       form.Surface `json:"surface"`
	SurfaceReason string       `json:"surface_reason"`
	SurfaceHow    string       `json:"surface_how"`
}

// MarshalJSON writes the render result's fields with the router's beside
// them.
func (r surfaceRender) MarshalJSON() ([]byte, error) {
	type plain surfaceRender
	return mergeJSON(r.Result, plain(r))
}

func (h *handlers) renderForm(_ context.Context, req *mcp.CallToolRequest, a *args) any {
	rf := h.formOf(a)
	surface := form.Surface(a.str("surface", false))
	if a.has("surface") && !slices.Contains(renderSurfaces, surface) {
		a.probs.Add("surface", "%q is not a surface render_form produces (ask, markdown, codex)", surface)
	}
	if rf.Form == nil || len(a.probs) > 0 {
		return nil
	}
	d := h.door(req)
	r := d.Render(rf, surface)
	c := d.Route(rf, h.surfaceOptions(req))
	if res, ok := r.(*ask.Result); ok {
		return renderResult{Result: res, Surface: c.Surface, SurfaceReason: c.Reason, SurfaceHow: c.How}
	}
	return surfaceRender{r, c.Surface, c.Reason, c.How}
}

// collectResponse validates answers from one or more surfaces: answers (a
// JSON answer document of any shape) and reply (text as it came back, read
// as `form collect --format auto` reads a file), merged. A failure carries the re-ask of exactly the failing fields.
func (h *handlers) collectResponse(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := parseArgs(req.Params.Arguments, withFormArgs("answers", "reply", "template_id"))
	if a.raw == nil {
		return failure(a.probs), nil
	}
	rf := h.formOf(a)
	answers := a.object("answers", false, true)
	reply := a.str("reply", false)
	if id := a.str("template_id", false); id != "" && !form.ValidTemplateName(id) {
		a.probs.Add("template_id", "%q is not a template name (lower-case letters, digits and dashes, starting with a letter or digit)", id)
	} else if id != "" {
		rf.Template = id
	}
	if !a.has("answers") && !a.has("reply") {
		a.probs.Add("", "pass answers (a JSON answer document), reply (text as it came back: a person's markdown reply, the widget's message, AskUserQuestion's result), or both")
	}
	if rf.Form == nil || len(a.probs) > 0 {
		return failure(a.probs), nil
	}
	var docs []surfaces.Document
	if answers != nil {
		docs = append(docs, surfaces.Document{Name: "answers", Format: surfaces.FormatJSON, Data: answers})
	}
	if a.has("reply") {
		// Read as the CLI reads a file: a person's markdown reply, the
		// widget's chat message, or AskUserQuestion's result text.
		docs = append(docs, surfaces.Document{Name: "reply", Format: surfaces.FormatAuto, Data: []byte(reply)})
	}
	r, err := h.door(req).Collect(rf, docs, &form.CollectOptions{TemplateID: rf.Template})
	var fail *surfaces.Failure
	if errors.As(err, &fail) {
		return result(collectFailure{Problems: fail.Problems.Strings(), Reask: fail.Reask}, true), nil
	}
	if err != nil {
		a.addPrefixed("", err)
		return failure(a.probs), nil
	}
	return result(r, false), nil
}

// collectFailure is a failed collect: every problem, and the re-ask.
type collectFailure struct {
	Success  bool            `json:"success"`
	Problems []string        `json:"problems"`
	Reask    *surfaces.Reask `json:"reask,omitempty"`
}

// mergeJSON writes the fields of two values as one object; b's win.
func mergeJSON(a, b any) ([]byte, error) {
	merged := map[string]json.RawMessage{}
	for _, v := range []any{a, b} {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil {
			return nil, err
		}
		for k, f := range fields {
			merged[k] = f
		}
	}
	return json.Marshal(merged)
}

// formOf reads the call's form (see args.form) as the form operations
// record it: a hand-built one with the definition it was parsed from.
func (h *handlers) formOf(a *args) formrun.Form {
	f, tmpl := a.form(h.opts.Templates)
	rf := formrun.Form{Form: f, Template: tmpl}
	if f != nil && tmpl == "" {
		rf.Definition = a.raw["form"]
	}
	return rf
}

// surfaceHow says how an MCP caller reaches surface s: the tool that
// renders it, with its surface argument. Only the CLI asks on a terminal.
func surfaceHow(s form.Surface) string {
	switch s {
	case form.SurfaceWidget:
		return "elicitation_render_widget, then show its html"
	case form.SurfaceAsk:
		return "elicitation_render_form, then one AskUserQuestion call per ask_user_question entry"
	case form.SurfaceMarkdown:
		return "a render result's markdown_followup, or elicitation_render_form with surface markdown; collect the person's reply"
	case form.SurfaceCodex:
		return "elicitation_render_form with surface codex: request_user_input questions"
	case form.SurfaceTerminal:
		return "the CLI's elicit form ask FILE, in a terminal (no tool asks on a terminal)"
	case form.SurfaceNative:
		return "elicitation_ask (native elicitation)"
	}
	return ""
}

// surfaceOptions is what the server knows of the client, for the router:
// it can render the widget only when it advertised MCP Apps, and a client
// known by name (Claude Code, the Codex CLI) has its own question tool.
func (h *handlers) surfaceOptions(req *mcp.CallToolRequest) *form.SurfaceOptions {
	return &form.SurfaceOptions{NoWidgets: !showsApps(req.ClientCapabilities()),
		QuestionTool: native.FallbackFor(clientOf(req).Name), KeyboardModeFunc: h.keyboardMode}
}

func (h *handlers) selectSurface(_ context.Context, req *mcp.CallToolRequest, a *args) any {
	rf := h.formOf(a)
	opts := h.surfaceOptions(req)
	if w := a.boolean("widget_capable"); w != nil { // the agent knows its host (a show_widget tool)
		opts.NoWidgets = !*w
	}
	if k := a.boolean("keyboard_mode"); k != nil {
		opts.KeyboardMode, opts.KeyboardModeFunc = *k, nil
	}
	if rf.Form == nil {
		return nil
	}
	return h.door(req).Route(rf, opts)
}

func (h *handlers) listTemplates(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	if err := h.opts.Templates.Check(); err != nil {
		a.addPrefixed("", err)
		return nil
	}
	return map[string]any{"templates": h.opts.Templates.List()}
}

func (h *handlers) formSummary(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	f, tid := a.form(h.opts.Templates)
	resp := a.object("response", true, true)
	if f == nil || resp == nil {
		return nil
	}
	r, err := surfaces.ParseResponse(f, resp, &form.CollectOptions{TemplateID: tid})
	if err != nil {
		a.addPrefixed("", err)
		return nil
	}
	return map[string]any{"success": true, "summary": form.Summary(f, r)}
}

func (h *handlers) renderFormTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_render_form", Annotations: readOnly,
		Description: "Validate a form (or template+slots) and render it for surface ask (AskUserQuestion, default), markdown or codex (request_user_input).",
		InputSchema: formSchema(form.ToolSchema(), obj{"surface": obj{"type": "string", "enum": []string{"ask", "markdown", "codex"}}})}, simple(withFormArgs("surface"), h.renderForm)}
}

func (h *handlers) collectResponseTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_collect_response", Annotations: readOnly,
		Description: "Validate answers from any surface, merged: answers (JSON: by field id, a postback, a tool's output) and/or reply (text as it came: markdown, widget message, AskUserQuestion's result). Re-ask only reask.",
		InputSchema: formSchema(sameForm(), obj{
			"answers":     obj{"type": []string{"object", "array"}},
			"reply":       obj{"type": "string"},
			"template_id": obj{"type": "string"},
		})}, h.collectResponse}
}

func (h *handlers) askTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_ask", Annotations: asksUser,
		Description: "Ask a form in a native MCP elicitation dialog: validated answers, or fallback payloads to ask with.",
		InputSchema: formSchema(sameForm(), obj{"message": obj{"type": "string"}})}, h.ask}
}

func (h *handlers) selectSurfaceTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_select_surface", Annotations: readOnly,
		Description: "Choose a form's surface by elicit's routing rules, for this client.",
		InputSchema: formSchema(sameForm(), obj{
			"widget_capable": obj{"type": "boolean"},
			"keyboard_mode":  obj{"type": "boolean"},
		})}, simple(withFormArgs("widget_capable", "keyboard_mode"), h.selectSurface)}
}

func (h *handlers) listTemplatesTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_list_templates", Annotations: readOnly,
		Description: "Form templates and their slots; check before building a form.",
		InputSchema: inputSchema(obj{})}, simple(nil, h.listTemplates)}
}

func (h *handlers) formSummaryTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_form_summary", Annotations: readOnly,
		Description: "Markdown lines narrating an answered form (response: collect's result).",
		InputSchema: formSchema(sameForm(), obj{"response": obj{"type": "object"}}, "response")},
		simple(withFormArgs("response"), h.formSummary)}
}
