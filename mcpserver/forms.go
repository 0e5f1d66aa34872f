package mcpserver

import (
	"context"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/surfaces"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var formArgs = []string{"form", "template", "slots"}

func withFormArgs(extra ...string) []string {
	return append(append([]string(nil), formArgs...), extra...)
}

// renderResult is the CLI's render result plus the surface the router picks.
type renderResult struct {
	*ask.Result
	Surface       form.Surface `json:"surface"`
	SurfaceReason string       `json:"surface_reason"`
}

func (h *handlers) renderForm(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	f, _ := a.form(h.opts.Templates)
	if f == nil {
		return nil
	}
	choice := form.SelectSurface(f, &form.SurfaceOptions{KeyboardModeFunc: h.keyboardMode})
	return renderResult{Result: ask.Render(f), Surface: choice.Surface, SurfaceReason: choice.Reason}
}

func (h *handlers) collectResponse(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	f, tid := a.form(h.opts.Templates)
	answers := a.object("answers", true, true)
	if id := a.str("template_id", false); id != "" {
		tid = id
	}
	if f == nil || answers == nil {
		return nil
	}
	parsed, err := surfaces.ParseAnswers(f, answers)
	if err != nil {
		a.addPrefixed("", err)
		return nil
	}
	r, err := form.Collect(f, parsed, &form.CollectOptions{TemplateID: tid})
	a.addPrefixed("", err)
	return r
}

func (h *handlers) selectSurface(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	f, _ := a.form(h.opts.Templates)
	opts := &form.SurfaceOptions{KeyboardModeFunc: h.keyboardMode}
	if w := a.boolean("widget_capable"); w != nil {
		opts.NoWidgets = !*w
	}
	if k := a.boolean("keyboard_mode"); k != nil {
		opts.KeyboardMode, opts.KeyboardModeFunc = *k, nil
	}
	if f == nil {
		return nil
	}
	return form.SelectSurface(f, opts)
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
	return toolDef{&mcp.Tool{Name: "elicitation_render_form", Title: "Render a form", Annotations: readOnly,
		Description: "Validate a form (or template+slots); get ready AskUserQuestion inputs, the fields it cannot ask and the surface to use. Infer first (default + inferred_from); batch only independent fields.",
		InputSchema: formSchema(nil)}, simple(formArgs, h.renderForm)}
}

func (h *handlers) collectResponseTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_collect_response", Title: "Validate answers", Annotations: readOnly,
		Description: "Validate answers ({field_id: value}, a widget postback or AskUserQuestion's output). On problems re-ask only those fields; never proceed on unvalidated answers.",
		InputSchema: formSchema(obj{
			"answers":     obj{"type": "object"},
			"template_id": obj{"type": "string"},
		}, "answers")}, simple(withFormArgs("answers", "template_id"), h.collectResponse)}
}

func (h *handlers) askTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_ask", Title: "Ask natively", Annotations: asksUser,
		Description: "Ask a form as a native MCP elicitation dialog; get validated answers. A decline the user did not make, or action unsupported, means: fall back to AskUserQuestion.",
		InputSchema: formSchema(obj{"message": obj{"type": "string"}})}, h.ask}
}

func (h *handlers) selectSurfaceTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_select_surface", Title: "Choose a surface", Annotations: readOnly,
		Description: "Choose a form's surface by elicit's routing rules: {surface, reason}.",
		InputSchema: formSchema(obj{
			"widget_capable": obj{"type": "boolean"},
			"keyboard_mode":  obj{"type": "boolean"},
		})}, simple(withFormArgs("widget_capable", "keyboard_mode"), h.selectSurface)}
}

func (h *handlers) listTemplatesTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_list_templates", Title: "List templates", Annotations: readOnly,
		Description: "List form templates and their slots. Check here before hand-building a form.",
		InputSchema: inputSchema(obj{})}, simple(nil, h.listTemplates)}
}

func (h *handlers) formSummaryTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_form_summary", Title: "Summarize answers", Annotations: readOnly,
		Description: "Markdown lines for an answered form (response: the collect result), to narrate instead of the form.",
		InputSchema: formSchema(obj{"response": obj{"type": "object"}}, "response")},
		simple(withFormArgs("response"), h.formSummary)}
}
