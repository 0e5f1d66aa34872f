package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/native"
	"github.com/elicit/elicit/form/surfaces"
	"github.com/elicit/elicit/internal/formrun"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var formArgs = []string{"form", "template", "slots"}

func withFormArgs(extra ...string) []string {
	return append(append([]string(nil), formArgs...), extra...)
}

// renderResult is the CLI's render result plus the surface its payloads
// are for, and the router's: the surface it picks when that is another
// one (suggested_surface), why, and how to reach it.
type renderResult struct {
	*ask.Result
	routed
}

// routed is what render_form adds to a render result: the surface of its
// payloads and the router's choice.
type routed struct {
	Surface          form.Surface `json:"surface"`
	SuggestedSurface form.Surface `json:"suggested_surface,omitempty"`
	SurfaceReason    string       `json:"surface_reason"`
	SurfaceHow       string       `json:"surface_how"`
	// Recalled are the last answers offered as defaults (see
	// formrun.Door.Recall).
	Recalled []responselog.Recalled `json:"recalled,omitempty"`
}

// routedAs is what render_form says of a render for surface s when the
// router chose c.
func routedAs(s form.Surface, c form.SurfaceChoice) routed {
	r := routed{Surface: s, SurfaceReason: c.Reason, SurfaceHow: c.How}
	if c.Surface != s {
		r.SuggestedSurface = c.Surface
	}
	return r
}

// renderSurfaces are the values of render_form's surface argument.
var renderSurfaces = []form.Surface{form.SurfaceAsk, form.SurfaceMarkdown, form.SurfaceCodex}

// surfaceRender is another surface's render result plus its surface and
// the router's choice.
type surfaceRender struct {
	Result any
	routed
}

// MarshalJSON writes the render result's fields with the router's beside
// them.
func (r surfaceRender) MarshalJSON() ([]byte, error) {
	return mergeJSON(r.Result, r.routed)
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
	if surface == "" { // the client's own question tool
		surface = clientSurface(req)
	}
	d := h.door(req)
	recalled := d.Recall(&rf)
	r := d.Render(rf, surface)
	c := d.Route(rf, h.surfaceOptions(req))
	ro := routedAs(surface, c)
	ro.Recalled = recalled
	if res, ok := r.(*ask.Result); ok {
		return renderResult{res, ro}
	}
	return surfaceRender{r, ro}
}

// collectResponse validates answers from one or more surfaces: answers (a
// JSON answer document of any shape, or a list of documents) and reply
// (text as it came back, or a list of texts, each read as `form collect
// --format auto` reads a file), merged, on top of what an earlier failed
// collect kept (continue). A failure keeps every answer that holds under a
// collect_id and carries the re-ask of exactly the other fields, in the
// client's own surface.
func (h *handlers) collectResponse(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := parseArgs(req.Params.Arguments, withFormArgs("answers", "reply", "template_id", "continue"))
	if a.raw == nil {
		return failure(a.probs), nil
	}
	prev, prevID := h.continued(a)
	var rf formrun.Form
	if prev != nil && !a.has("form") && !a.has("template") {
		rf = prev.form
	} else {
		rf = h.formOf(a)
		h.door(req).Recall(&rf) // the defaults the person was offered, for a one-tap confirm
	}
	if id := a.str("template_id", false); id != "" && !form.ValidTemplateName(id) {
		a.probs.Add("template_id", "%q is not a template name (lower-case letters, digits and dashes, starting with a letter or digit)", id)
	} else if id != "" {
		rf.Template = id
	}
	docs := answerDocuments(a)
	if !a.has("answers") && !a.has("reply") {
		a.probs.Add("", "pass answers (a JSON answer document, or a list of them), reply (text as it came back: a person's markdown reply, the widget's message, AskUserQuestion's result; or a list of them), or both")
	}
	if rf.Form == nil || len(a.probs) > 0 {
		return failure(a.probs), nil
	}
	if prev != nil {
		kept, _ := json.Marshal(prev.kept)
		docs = append([]surfaces.Document{{Name: "continue", Format: surfaces.FormatJSON, Data: kept, Kept: true}}, docs...)
	}
	r, err := h.door(req).Collect(rf, docs, &form.CollectOptions{TemplateID: rf.Template})
	var fail *surfaces.Failure
	if errors.As(err, &fail) {
		id := h.collects.put(prevID, collected{form: rf, kept: fail.Kept})
		return result(collectFailure{Problems: fail.Problems.Strings(), CollectID: id, Kept: fail.Kept,
			Reask: fail.ReaskFor(rf.Form, h.reaskSurface(req, rf.Form, docs))}, true), nil
	}
	if err != nil {
		a.addPrefixed("", err)
		return failure(a.probs), nil
	}
	h.collects.drop(prevID)
	return result(r, false), nil
}

// answerDocuments are the call's answer documents: answers, an object or a
// list (the tool outputs in it read together, as a two-tier picker's tiers
// come in separate calls; any other member a document of its own), then
// reply, a text or a list of texts.
func answerDocuments(a *args) []surfaces.Document {
	var docs []surfaces.Document
	if raw := a.object("answers", false, true); raw != nil {
		var list []json.RawMessage
		if raw[0] != '[' || json.Unmarshal(raw, &list) != nil {
			docs = append(docs, surfaces.Document{Name: "answers", Format: surfaces.FormatJSON, Data: raw})
		} else {
			var outputs []json.RawMessage
			for i, m := range list {
				name := fmt.Sprintf("answers[%d]", i)
				switch {
				case isToolOutput(m):
					outputs = append(outputs, m)
				case bytes.TrimSpace(m)[0] == '"':
					var text string
					_ = json.Unmarshal(m, &text)
					docs = append(docs, surfaces.Document{Name: name, Format: surfaces.FormatAuto, Data: []byte(text)})
				case bytes.TrimSpace(m)[0] == '{':
					docs = append(docs, surfaces.Document{Name: name, Format: surfaces.FormatJSON, Data: m})
				default:
					var v any
					_ = json.Unmarshal(m, &v)
					a.probs.Add(name, "must be an answer document (a JSON object) or a text as it came back (got %s)", form.DescribeValue(v))
				}
			}
			if len(outputs) > 0 {
				joined, _ := json.Marshal(outputs)
				docs = append([]surfaces.Document{{Name: "answers", Format: surfaces.FormatJSON, Data: joined}}, docs...)
			}
		}
	}
	if a.has("reply") {
		// Read as the CLI reads a file: a person's markdown reply, the
		// widget's chat message, or AskUserQuestion's result text.
		var replies []string
		if raw := bytes.TrimSpace(a.raw["reply"]); raw[0] == '[' {
			if json.Unmarshal(raw, &replies) != nil {
				a.probs.Add("reply", "must be a text or a list of texts")
			}
			for i, r := range replies {
				docs = append(docs, surfaces.Document{Name: fmt.Sprintf("reply[%d]", i), Format: surfaces.FormatAuto, Data: []byte(r)})
			}
		} else {
			docs = append(docs, surfaces.Document{Name: "reply", Format: surfaces.FormatAuto, Data: []byte(a.str("reply", false))})
		}
	}
	return docs
}

// isToolOutput reports whether m is an AskUserQuestion or
// request_user_input output: an object whose "answers" is an object, not
// the widget's postback.
func isToolOutput(m json.RawMessage) bool {
	var v struct {
		Answers  json.RawMessage `json:"answers"`
		Postback json.RawMessage `json:"__elicitation_response__"`
	}
	if json.Unmarshal(m, &v) != nil || v.Postback != nil {
		return false
	}
	t := bytes.TrimSpace(v.Answers)
	return len(t) > 0 && t[0] == '{'
}

// continued is what the collect the call continues kept: continue is a
// collect_id of this server's, or the failed result itself (its kept).
func (h *handlers) continued(a *args) (*collected, string) {
	if !a.has("continue") {
		return nil, ""
	}
	raw := bytes.TrimSpace(a.raw["continue"])
	if raw[0] == '{' {
		var prev struct {
			Kept map[string]any `json:"kept"`
		}
		if json.Unmarshal(raw, &prev) != nil || prev.Kept == nil {
			a.probs.Add("continue", "must be a failed collect's collect_id, or its whole result (with kept)")
			return nil, ""
		}
		return &collected{kept: prev.Kept}, ""
	}
	var id string
	if json.Unmarshal(raw, &id) != nil {
		a.probs.Add("continue", "must be a failed collect's collect_id (a string), or its whole result (with kept)")
		return nil, ""
	}
	c, ok := h.collects.get(id)
	if !ok {
		a.probs.Add("continue", "no failed collect %q on this server (it answered since, or the server restarted): pass the failed result itself as continue, or every answer again", id)
		return nil, ""
	}
	return &c, id
}

// reaskSurface is the surface a re-ask speaks: markdown when every answer
// came as a markdown reply (a plain chat), else the client's own question
// tool (request_user_input for the Codex CLI, AskUserQuestion otherwise).
func (h *handlers) reaskSurface(req *mcp.CallToolRequest, f *form.Form, docs []surfaces.Document) form.Surface {
	replies := 0
	for _, d := range docs {
		if d.Kept {
			continue
		}
		if surfaces.SurfaceOf(f, d) != form.SurfaceMarkdown {
			return clientSurface(req)
		}
		replies++
	}
	if replies == 0 {
		return clientSurface(req)
	}
	return form.SurfaceMarkdown
}

// clientSurface is the surface the client's agent asks with: the Codex
// CLI's request_user_input, else AskUserQuestion.
func clientSurface(req *mcp.CallToolRequest) form.Surface {
	return native.FallbackFor(clientOf(req).Name)
}

// collectFailure is a failed collect: every problem, the answers kept
// (under collect_id, for continue) and the re-ask of the rest.
type collectFailure struct {
	Success   bool            `json:"success"`
	Problems  []string        `json:"problems"`
	CollectID string          `json:"collect_id,omitempty"`
	Kept      map[string]any  `json:"kept"`
	Reask     *surfaces.Reask `json:"reask,omitempty"`
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
		return "markdown_followup, or elicitation_render_form with surface markdown; then collect the reply"
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
		Description: "Validate and render a form (or template+slots) for surface ask (AskUserQuestion; default), markdown or codex.",
		InputSchema: formSchema(form.ToolSchema(), obj{"surface": obj{"type": "string", "enum": []string{"ask", "markdown", "codex"}}})}, simple(withFormArgs("surface"), h.renderForm)}
}

func (h *handlers) collectResponseTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_collect_response", Annotations: readOnly,
		Description: "Validate answers (JSON or list) and/or reply (text as given, or list), merged. On problems ask only reask, then call with continue: collect_id + new answers.",
		InputSchema: formSchema(sameForm(), obj{
			"answers":     obj{"type": []string{"object", "array"}},
			"reply":       obj{"type": []string{"string", "array"}},
			"continue":    obj{"type": []string{"string", "object"}},
			"template_id": obj{"type": "string"},
		})}, h.collectResponse}
}

func (h *handlers) askTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_ask", Annotations: asksUser,
		Description: "Ask a form in a native MCP elicitation dialog: valid answers, or fallback payloads.",
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
