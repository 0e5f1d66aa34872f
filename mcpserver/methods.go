package mcpserver

import (
	"context"

	"github.com/elicit/elicit/method"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (h *handlers) listMethods(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	phase := a.str("phase", false)
	if phase != "" && !method.ValidPhase(phase) {
		a.errorf("phase", "%q is not a phase (want command:number, as plan:0 or arc:7.5)", phase)
	}
	tier, _ := a.whole("tier", 0, 2, "", "1 or 2; 0: every tier")
	reg := h.opts.Registry()
	out := reg.Filter(phase, tier)
	if out == nil {
		out = []method.Method{}
	}
	return map[string]any{"methods": out, "warnings": nonNil(reg.WarningTexts())}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

var selectArgs = []string{"phase", "agent", "manual", "title", "text", "keywords", "top", "per_section"}

func (h *handlers) selectMethods(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	q := method.Query{
		Phase: a.str("phase", true),
		Agent: a.str("agent", false),
		Title: a.str("title", false),
		Text:  a.str("text", false),
		Top:   a.integer("top", maxCount),
	}
	if b := a.boolean("manual"); b != nil {
		q.Manual = *b
	}
	if b := a.boolean("per_section"); b != nil {
		q.PerSection = *b
	}
	if a.has("keywords") {
		q.Keywords = nonNil(a.strings("keywords"))
	}
	if len(a.probs) > 0 {
		return nil
	}
	sel, err := h.opts.Registry().Select(q)
	if err != nil {
		a.addPrefixed("", err)
		return nil
	}
	if sel.Status == method.StatusNoMatch && q.Manual {
		// The seed offers the whole registry as the fallback.
		return struct {
			*method.Selection
			Browse string `json:"browse"`
		}{sel, "elicitation_list_methods (or the resource elicit://methods)"}
	}
	return sel
}

func (h *handlers) injectMethod(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	ref := a.ref("method", methodRef, true)
	if len(a.probs) > 0 {
		return nil
	}
	m, ok := h.method(a, ref)
	if !ok {
		return nil
	}
	block, err := method.Inject(m)
	if err != nil {
		a.addPrefixed("method", err)
		return nil
	}
	return map[string]any{"method_name": m.Name, "num": m.Num, "block": block}
}

// methodRef is what a method argument takes.
const methodRef = `a method's name or number (a string, or a whole number: 34 or "34")`

// method looks up the method an argument names, reporting it under
// "method" when there is none.
func (h *handlers) method(a *args, ref string) (method.Method, bool) {
	m, ok := h.opts.Registry().Lookup(ref)
	if !ok {
		a.errorf("method", "no method named or numbered %q (see elicitation_list_methods)", ref)
	}
	return m, ok
}

func (h *handlers) listMethodsTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_list_methods", Annotations: readOnly,
		Description: "Reasoning methods, optionally by phase or tier.",
		InputSchema: inputSchema(obj{
			"phase": strProp("e.g. forge:3"),
			"tier":  obj{"type": "integer"},
		})}, simple([]string{"phase", "tier"}, h.listMethods)}
}

func (h *handlers) selectMethodsTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_select_methods", Annotations: readOnly,
		Description: "Select reasoning methods for a plan section; top N.",
		InputSchema: inputSchema(obj{
			"phase":       strProp("e.g. plan:0"),
			"agent":       obj{"type": "string"},
			"manual":      obj{"type": "boolean"},
			"title":       obj{"type": "string"},
			"text":        obj{"type": "string"},
			"keywords":    obj{"type": "array", "items": obj{}},
			"top":         obj{"type": "integer"},
			"per_section": obj{"type": "boolean"},
		}, "phase")}, simple(selectArgs, h.selectMethods)}
}

func (h *handlers) injectMethodTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_inject_method", Annotations: readOnly,
		Description: "A method's prompt block (by name or number) for the section's prompt.",
		InputSchema: inputSchema(obj{"method": obj{"type": "string"}}, "method")},
		simple([]string{"method"}, h.injectMethod)}
}
