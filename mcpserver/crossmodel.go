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

var crossModelArgs = []string{"method", "topic", "section", "workflow", "id", "run", "verdict", "council"}

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
			"council":  strProp("a council's id: its member of the role runs it"),
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
	council := a.str("council", false)
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
	opts := &crossmodel.Options{Project: h.opts.Project, Workflow: workflow, ID: id, Settings: &settings.Codex}
	var c consult.Consultant
	if council != "" && m.CodexRole != "" {
		// nil when no member takes the role: the gate is closed then.
		if c = h.councilMember(a, council, m.CodexRole, opts); len(a.probs) > 0 {
			return nil
		}
	} else {
		c, opts.Available = crossModelConsultant(h.opts.Getenv, settings.Codex)
	}
	plan, err := crossmodel.Prepare(crossmodel.Request{Method: m, Topic: topic, Section: section}, opts)
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

// councilMember is the consultant of the member of council id that takes
// role (crossmodel.Options.Route), with its model and effort over the
// settings'; nil when no member takes it (opts says why: single-model).
func (h *handlers) councilMember(a *args, id, role string, opts *crossmodel.Options) consult.Consultant {
	st := h.store(a)
	if st == nil {
		return nil
	}
	c, err := st.Council(id)
	switch {
	case err != nil:
		a.errorf("council", "%v", err)
		return nil
	case c == nil:
		a.errorf("council", "no council %s in %s (deliberation_start with consultants starts one)", id, st.Dir())
		return nil
	}
	m := opts.Route(c, role)
	if m == nil {
		return nil
	}
	if err := h.allowConsultant(m.Consultant); err != nil {
		a.errorf("council", "member %s: %v", m.Name, err)
		return nil
	}
	s := opts.Settings
	t := time.Duration(s.Elicitation.Timeout * float64(time.Second))
	cons, err := sendConsultant(h.opts.Getenv, m.Consultant, &consult.CodexOptions{Model: s.Model, Effort: s.Reasoning, Timeout: t, IdleTimeout: t})
	if err != nil {
		a.errorf("council", "member %s: %v", m.Name, err)
		return nil
	}
	program := consult.Program(cons)
	_, err = exec.LookPath(program)
	opts.Reach(program == "" || err == nil, program) // "": no program to find (a scripted consultant)
	return cons
}
