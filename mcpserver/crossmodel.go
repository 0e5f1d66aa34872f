package mcpserver

import (
	"context"
	"os/exec"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/internal/config"
	"github.com/elicit/elicit/internal/crossmodel"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var crossModelArgs = []string{"method", "topic", "section", "workflow", "id", "run", "verdict"}

func (h *handlers) crossModelTool() toolDef {
	return toolDef{&mcp.Tool{Name: "elicitation_cross_model", Annotations: consults,
		Description: "A second model's codex_role view of a method: its prompt (run=true runs codex); then your verdict.",
		InputSchema: inputSchema(obj{
			"method":   obj{"type": "string"},
			"topic":    obj{"type": "string"},
			"section":  obj{"type": "string"},
			"workflow": obj{"type": "string"},
			"id":       obj{"type": "string"},
			"run":      obj{"type": "boolean"},
			"verdict":  obj{"type": "string", "enum": []string{crossmodel.VerdictConsensus, crossmodel.VerdictFailed}},
		}, "method")}, simple(crossModelArgs, h.crossModel)}
}

// crossModelConsultant builds the codex consultant; tests replace it.
var crossModelConsultant = func(getenv func(string) string, s config.Codex) (consult.Consultant, bool) {
	path := consult.CodexPath(getenv)
	t := time.Duration(s.Elicitation.Timeout * float64(time.Second))
	c := consult.NewCodex(&consult.CodexOptions{Path: path, Model: s.Model, Effort: s.Reasoning, Timeout: t, IdleTimeout: t})
	_, err := exec.LookPath(path)
	return c, err == nil
}

// crossModel prepares (run: runs) a method's cross-model step, or with
// verdict judges the output of an earlier run: the seed's notes for the
// orchestrator's verdict ("Cross-model consensus — high confidence";
// "Codex output failed verification", the output discarded).
func (h *handlers) crossModel(ctx context.Context, _ *mcp.CallToolRequest, a *args) any {
	ref := a.ref("method", methodRef, true)
	verdict := a.str("verdict", false)
	topic, section := a.str("topic", verdict == ""), a.str("section", verdict == "")
	workflow, id := a.str("workflow", false), a.ref("id", "a run id (a string, or a whole number)", false)
	run := a.boolean("run")
	if verdict != "" && run != nil && *run {
		a.errorf("run", "give run or verdict, not both: run first, then judge its output with verdict")
	}
	if len(a.probs) > 0 {
		return nil
	}
	m, ok := h.method(a, ref)
	if !ok {
		return nil
	}
	if verdict != "" {
		v, err := crossmodel.Judge(m, verdict, &crossmodel.Options{Project: h.opts.Project, Workflow: workflow, ID: id})
		if err != nil {
			a.addPrefixed("", err)
			return nil
		}
		return map[string]any{"success": true, "verdict": v}
	}
	settings, err := config.CodexFor(h.opts.Project)
	if err != nil {
		a.addPrefixed("", err)
		return nil
	}
	c, available := crossModelConsultant(h.opts.Getenv, settings.Codex)
	plan, err := crossmodel.Prepare(crossmodel.Request{Method: m, Topic: topic, Section: section},
		&crossmodel.Options{Project: h.opts.Project, Workflow: workflow, ID: id, Settings: &settings.Codex, Available: available})
	if err != nil {
		a.addPrefixed("", err)
		return nil
	}
	return h.crossModelResult(ctx, a, plan, c, run != nil && *run, settings.Warnings)
}

func (h *handlers) crossModelResult(ctx context.Context, a *args, p *crossmodel.Plan, c consult.Consultant, run bool, warnings []string) any {
	if !run {
		if p.Prompt != "" {
			if err := crossmodel.WritePrompt(p); err != nil {
				a.addPrefixed("", err)
				return nil
			}
		}
		return map[string]any{"success": true, "plan": p, "warnings": nonNil(warnings)}
	}
	res, err := crossmodel.Run(ctx, p, c)
	if err != nil {
		a.addPrefixed("", err)
		return nil
	}
	return map[string]any{"success": res.Status != "failed", "result": res, "warnings": nonNil(warnings)}
}
