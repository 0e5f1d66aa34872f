package mcpserver

import (
	"context"
	"slices"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/surfaces"
	"github.com/elicit/elicit/form/widget"
	"github.com/elicit/elicit/problem"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The widget's tools, and the MCP App (io.modelcontextprotocol/ui) that
// shows the widget in hosts that can show apps.

func (h *handlers) renderWidgetTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_render_widget", Annotations: readOnly,
		Description: "A form (or template+slots) as one widget HTML fragment; collect its postback.",
		InputSchema: formSchema(sameForm(), nil)}, simple(formArgs, h.renderWidget)}
}

func (h *handlers) renderWidget(_ context.Context, req *mcp.CallToolRequest, a *args) any {
	rf := h.formOf(a)
	if rf.Form == nil {
		return nil
	}
	d := h.door(req)
	d.Recall(&rf)
	return d.Render(rf, form.SurfaceWidget)
}

// widgetValidateTool is the app's: hosts with MCP Apps show it to the
// app, not the model (visibility ["app"]).
func (h *handlers) widgetValidateTool() toolDef {
	return toolDef{&mcp.Tool{Name: widget.ValidateTool, Annotations: readOnly,
		Description: "App-only: collect, with problems by field.",
		// The model never sees it, and the handler names every wrong
		// argument: a bare schema keeps an MCP Apps client's tools/list small.
		InputSchema: obj{"type": "object"},
		Meta:        mcp.Meta{"ui": map[string]any{"visibility": []string{"app"}}}},
		h.widgetValidate}
}

// widgetValidate runs collect; a refusal carries the problems by field
// (fields) beside the list, for the app to show beside each field.
func (h *handlers) widgetValidate(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := parseArgs(req.Params.Arguments, withFormArgs("answers"))
	if a.raw == nil {
		return failure(a.probs), nil
	}
	f, tid := a.form(h.opts.Templates)
	answers := a.object("answers", true, false)
	if f == nil || answers == nil || len(a.probs) > 0 {
		return failure(a.probs), nil
	}
	parsed, err := surfaces.ParseAnswers(f, answers)
	if err == nil {
		var r *form.Response
		if r, err = form.Collect(f, parsed, &form.CollectOptions{TemplateID: tid}); err == nil {
			return result(r, false), nil
		}
	}
	probs, ok := err.(problem.List)
	if !ok {
		probs = problem.List{{Message: err.Error()}}
	}
	return result(map[string]any{"success": false, "problems": probs.Strings(), "fields": widget.FieldProblems(f, probs)}, true), nil
}

// AppOnlyTools are for the app: listed with visibility ["app"], which a
// host with MCP Apps shows the app, not the model.
var AppOnlyTools = []string{widget.ValidateTool}

// appTools are the form tools a host with MCP Apps shows the app for.
var appTools = []string{"elicitation_render_form", "elicitation_render_widget"}

// addApp serves the app's page and points the form tools at it.
func (h *handlers) addApp(s *mcp.Server) {
	s.AddResource(&mcp.Resource{URI: widget.AppURI, Name: "elicit-form", Title: "elicit form",
		Description: "The widget as an MCP App: shows a form tool's form and hands the validated answers to the model.",
		MIMEType:    widget.AppMIMEType,
		Meta:        mcp.Meta{"ui": map[string]any{"prefersBorder": true, "csp": map[string]any{}}}},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: widget.AppURI, MIMEType: widget.AppMIMEType, Text: widget.AppHTML(),
				Meta: mcp.Meta{"ui": map[string]any{"prefersBorder": true, "csp": map[string]any{}}}}}}, nil
		})
	s.AddReceivingMiddleware(appToolList)
}

// appToolList is a receiving middleware for tools/list: the form tools
// point at the app (_meta.ui.resourceUri, visible to model and app). Every
// client gets the same list, whatever it advertised: protocol 2026-07-28
// asks that tools/list not vary by connection, and a host without MCP
// Apps ignores _meta.ui (it shows the app-only tool to its model, where
// the tool's description says it is the app's).
func appToolList(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		list, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok {
			return res, err
		}
		out := *list
		out.Tools = make([]*mcp.Tool, 0, len(list.Tools))
		for _, t := range list.Tools {
			if slices.Contains(appTools, t.Name) {
				withUI := *t
				withUI.Meta = mcp.Meta{}
				for k, v := range t.Meta {
					withUI.Meta[k] = v
				}
				withUI.Meta["ui"] = map[string]any{"resourceUri": widget.AppURI}
				t = &withUI
			}
			out.Tools = append(out.Tools, t)
		}
		return &out, nil
	}
}

// showsApps reports whether a client advertised MCP Apps, and HTML pages
// among its mimeTypes when it lists them.
func showsApps(c *mcp.ClientCapabilities) bool {
	if c == nil {
		return false
	}
	ext, ok := c.Extensions[widget.AppExtension].(map[string]any)
	if !ok {
		return false
	}
	types, listed := ext["mimeTypes"].([]any)
	return !listed || slices.Contains(types, any(widget.AppMIMEType))
}
