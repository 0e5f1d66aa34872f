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
