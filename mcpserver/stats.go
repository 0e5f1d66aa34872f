package mcpserver

import (
	"context"
	"strings"
	"unicode"

	"github.com/elicit/elicit/internal/config"
	"github.com/elicit/elicit/internal/formrun"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func (h *handlers) statsTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_stats", Annotations: readOnly,
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

// door is the server as the form operations know it: the response log
// (none with NoLogWrites), the client as the host, and the tools that
// reach each surface.
func (h *handlers) door(req *mcp.CallToolRequest) *formrun.Door {
	who := whoOf(req)
	who.Project, who.User = h.project, h.user
	if u := caller(req); u != "" {
		who.User = u
	}
	d := &formrun.Door{Who: who, How: surfaceHow, NoRecall: h.recallOff}
	if !h.opts.NoLogWrites {
		d.Log = h.log
	}
	return d
}

// recallOff says whether the project's settings (ELICIT_RECALL, "recall"
// in elicit.config.json) turn recall off.
func (h *handlers) recallOff() bool {
	s, err := config.RecallFor(h.opts.Project, h.opts.Getenv)
	return err == nil && !s.Value
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

// recallArgs are elicitation_recall's arguments.
var recallArgs = []string{"query", "template", "field", "limit"}

func (h *handlers) recallTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_recall", Annotations: readOnly,
		Description: "Past decisions here (answered forms, syntheses), best first: check before asking.",
		InputSchema: inputSchema(obj{"query": obj{"type": "string"}, "template": obj{"type": "string"}, "field": obj{"type": "string"},
			"limit": obj{"type": "integer"}})},
		simple(recallArgs, h.recall)}
}

func (h *handlers) recall(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	f := responselog.DecisionFilter{Query: a.str("query", false), TemplateID: a.str("template", false), Field: a.str("field", false),
		Limit: a.integer("limit", 100), Project: h.project}
	if f.Query != "" && strings.IndexFunc(f.Query, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) < 0 {
		a.probs.Add("query", "%q has no word to search for (letters or digits); leave query out to list the newest decisions", f.Query)
	}
	if h.log == nil {
		a.probs.Add("", "this server keeps no response log, so it remembers no decision: it was started without a folder for one (ELICIT_HOME or HOME)")
	}
	if len(a.probs) > 0 {
		return nil
	}
	s, err := h.log.Read()
	if err != nil {
		a.addPrefixed("", err)
		return nil
	}
	defer s.Close()
	list, err := s.Decisions(f)
	if err != nil {
		a.addPrefixed("", err)
		return nil
	}
	type decision struct {
		Said string `json:"said"`
		responselog.Decision
	}
	out := make([]decision, len(list))
	for i := range list {
		out[i] = decision{"decided on " + list[i].Summary(), list[i]}
	}
	note := "none found: ask, then collect (the answer joins the ledger)"
	if len(out) > 0 {
		note = "tell the person what was decided and ask whether to reopen it before asking again"
	}
	return map[string]any{"decisions": out, "note": note}
}
