package mcpserver

import (
	"context"
	"errors"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (h *handlers) statsTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_stats", Title: "Response stats", Annotations: readOnly,
		Description: "The response log: surfaces, templates, inference, hints.",
		InputSchema: obj{"type": "object"}}, // no arguments: any is refused by name
		simple(nil, h.stats)}
}

func (h *handlers) stats(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	l := h.log
	if l == nil {
		a.probs.Add("", "this server keeps no response log: it was started without a folder for one (elicit serve keeps it in $ELICIT_HOME/log or ~/.elicit/log, and needs ELICIT_HOME or HOME set; a program serving the tools sets Options.ResponseLogDir)")
		return nil
	}
	s, err := l.Read()
	if err != nil {
		a.addPrefixed("", err)
		return nil
	}
	defer s.Close()
	s.TemplateExists = responselog.TemplatesIn(h.opts.Templates)
	st, err := s.Stats(h.keyboardMode())
	if err != nil {
		a.addPrefixed("", err)
		return nil
	}
	return st
}

// record appends an event about form f (cast from template tmpl, "" for a
// hand-built form) to the response log, with the client as the host.
func (h *handlers) record(req *mcp.CallToolRequest, f *form.Form, tmpl string, e responselog.Event) {
	if h.log == nil || h.opts.NoLogWrites || f == nil {
		return
	}
	e.Template = tmpl
	h.log.Append(responselog.New(f, e, whoOf(req)))
}

// recordCollect logs a collect: a submission, or the answers' problems.
func (h *handlers) recordCollect(req *mcp.CallToolRequest, f *form.Form, tmpl, surface string, r *form.Response, err error) {
	var probs interface{ Strings() []string }
	switch {
	case err == nil && r != nil:
		h.record(req, f, tmpl, responselog.Event{Kind: responselog.KindResponse, Surface: surface, Response: r})
	case errors.As(err, &probs):
		h.record(req, f, tmpl, responselog.Event{Kind: responselog.KindRejected, Surface: surface, Problems: len(probs.Strings())})
	}
}

// recordAsk logs the answer elicitation_ask got from the dialog: a
// submission, or answers with problems (a decline or cancel collects
// nothing).
func (h *handlers) recordAsk(req *mcp.CallToolRequest, f *form.Form, tmpl string, out askResult) {
	switch {
	case out.Success:
		h.record(req, f, tmpl, responselog.Event{Kind: responselog.KindResponse, Surface: string(form.SurfaceNative),
			Response: &form.Response{Responses: out.Responses, ResponseID: out.ResponseID, TemplateID: out.TemplateID}})
	case out.Action == "accept" && len(out.Problems) > 0:
		h.record(req, f, tmpl, responselog.Event{Kind: responselog.KindRejected, Surface: string(form.SurfaceNative), Problems: len(out.Problems)})
	}
}

// whoOf is the host of a call: the client's name and version from
// initialize.
func whoOf(req *mcp.CallToolRequest) responselog.Who {
	if req != nil && req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
			return responselog.MCPHost(p.ClientInfo.Name, p.ClientInfo.Version)
		}
	}
	return responselog.MCPHost("", "")
}
