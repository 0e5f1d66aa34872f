package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/elicit/elicit/deliberation"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func init() { toolGroups = append(toolGroups, (*handlers).deliberationTools) }

// store opens the deliberation store: Options.DeliberationDir, else
// $ELICIT_HOME/deliberations (or ~/.elicit/deliberations).
func (h *handlers) store(a *args) *deliberation.Store {
	dir := h.opts.DeliberationDir
	if dir == "" {
		d, err := deliberation.DefaultDir(h.opts.Getenv)
		if err != nil {
			a.errorf("", "no deliberation folder: %v", err)
			return nil
		}
		dir = d
	}
	return deliberation.NewStore(dir, nil)
}

// withID runs fn with the store and the "id" argument.
func (h *handlers) withID(a *args, fn func(st *deliberation.Store, id string) any) any {
	ref := a.str("id", true)
	if len(a.probs) > 0 {
		return nil
	}
	id, err := deliberation.ParseID(ref)
	if err != nil {
		a.addPrefixed("", err) // ParseID names the path itself
		return nil
	}
	st := h.store(a)
	if st == nil {
		return nil
	}
	return fn(st, id)
}

// check adds err's problems and reports whether there were none.
func (a *args) check(err error) bool {
	a.addPrefixed("", err)
	return err == nil
}

var startArgs = []string{"question", "quick", "facts", "interpretations", "paths", "shape", "tangents", "drift_signals", "ledger_budget"}

func (h *handlers) delibStart(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	q := a.str("question", true)
	opts := &deliberation.StartOptions{
		Facts:           a.strings("facts"),
		Interpretations: a.strings("interpretations"),
		Paths:           a.strings("paths"),
		SSM:             deliberation.SSM{Shape: a.str("shape", false), Tangents: a.str("tangents", false), DriftSignals: a.str("drift_signals", false)},
		LedgerBudget:    a.integer("ledger_budget"),
	}
	if b := a.boolean("quick"); b != nil {
		opts.Quick = *b
	}
	st := h.store(a)
	if len(a.probs) > 0 {
		return nil
	}
	id, s, err := st.Start(q, opts)
	if !a.check(err) {
		return nil
	}
	return map[string]any{"id": id, "state_file": st.StatePath(id), "prompt": s.Next.Prompt}
}

func (h *handlers) delibRespond(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	text := a.str("response", true)
	return h.withID(a, func(st *deliberation.Store, id string) any {
		s, err := st.Respond(id, text)
		if !a.check(err) {
			return nil
		}
		return s.Next
	})
}

func (h *handlers) delibEvaluate(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	doc := a.object("evaluation", true, false)
	return h.withID(a, func(st *deliberation.Store, id string) any {
		if doc == nil {
			return nil
		}
		s, err := st.Evaluate(id, doc)
		if !a.check(err) {
			return nil
		}
		return s.Next
	})
}

func (h *handlers) delibStatus(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	return h.withID(a, func(st *deliberation.Store, id string) any {
		s, err := st.Load(id)
		if !a.check(err) {
			return nil
		}
		return s
	})
}

func (h *handlers) delibList(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	st := h.store(a)
	if st == nil {
		return nil
	}
	entries, err := st.List()
	if !a.check(err) {
		return nil
	}
	if entries == nil {
		entries = []deliberation.Entry{}
	}
	return map[string]any{"deliberations": entries}
}

func (h *handlers) delibSynthesize(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	return h.withID(a, func(st *deliberation.Store, id string) any {
		y, err := st.Synthesize(id)
		if !a.check(err) {
			return nil
		}
		raw, _ := json.Marshal(y)
		var out map[string]any
		json.Unmarshal(raw, &out)
		out["markdown"] = y.Markdown()
		return out
	})
}

func (h *handlers) delibRecover(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	return h.withID(a, func(st *deliberation.Store, id string) any {
		prompt, err := st.Recover(id)
		if !a.check(err) {
			return nil
		}
		return map[string]any{"id": id, "prompt": prompt}
	})
}

var idArg = obj{"id": obj{"type": "string", "description": "The deliberation's id (from deliberation_start or deliberation_list)."}}

func (h *handlers) deliberationTools() []toolDef {
	strList := func(desc string) obj {
		return obj{"type": "array", "items": obj{"type": "string"}, "description": desc}
	}
	return []toolDef{
		{&mcp.Tool{Name: "deliberation_start", Title: "Start a deliberation",
			Description: "Start a bounded deliberation with a consulted agent (the codex-ask protocol, at most 8 iterations; quick mode at most 2). The state is kept in a file, so nothing is lost on compaction. Returns {id, state_file, prompt}: send prompt to the consultee, then record its answer with deliberation_respond.",
			InputSchema: inputSchema(obj{
				"question":        obj{"type": "string", "description": "The user's question, verbatim."},
				"quick":           obj{"type": "boolean", "description": "Quick mode: at most 2 iterations, no phases, ledger or challenge IDs."},
				"facts":           strList("User-provided constraints for the facts ledger."),
				"interpretations": strList("Two readings of a critical ambiguity (A, the default, then B)."),
				"paths":           strList("Absolute paths of files the consultee should read."),
				"shape":           obj{"type": "string", "description": "Solution Space Mapping: characteristics valid responses must have."},
				"tangents":        obj{"type": "string", "description": "Solution Space Mapping: likely unproductive directions."},
				"drift_signals":   obj{"type": "string", "description": "Solution Space Mapping: signs the deliberation left productive territory."},
				"ledger_budget":   obj{"type": "integer", "minimum": 0, "description": "Cap on ledger characters per prompt (0: none)."},
			}, "question")}, simple(startArgs, h.delibStart)},
		{&mcp.Tool{Name: "deliberation_respond", Title: "Record the consultee's answer",
			Description: "Record the consultee's answer to the pending prompt. Returns the next step: evaluate it (your judgments go to deliberation_evaluate as one evaluation document; its JSON Schema is `elicit deliberate schema`), or retry a malformed answer.",
			InputSchema: inputSchema(obj{"id": idArg["id"], "response": obj{"type": "string", "description": "The consultee's answer, verbatim."}}, "id", "response")},
			simple([]string{"id", "response"}, h.delibRespond)},
		{&mcp.Tool{Name: "deliberation_evaluate", Title: "Apply your evaluation",
			Description: "Apply your evaluation of the last answer (classification of each point, flaws, evidence, defenses accepted, new facts). The engine enforces the protocol's rules and returns the next action (critique, reminder, clarification, coverage check, stress test, synthesize, exit) with the next prompt. Every problem in the evaluation is listed.",
			InputSchema: inputSchema(obj{"id": idArg["id"], "evaluation": obj{"type": "object", "description": "The evaluation document (JSON Schema: `elicit deliberate schema`)."}}, "id", "evaluation")},
			simple([]string{"id", "evaluation"}, h.delibEvaluate)},
		{&mcp.Tool{Name: "deliberation_status", Title: "A deliberation's state",
			Description: "The deliberation's state document: iteration, phase, challenges, ledger, buckets, status and the pending step.",
			InputSchema: inputSchema(idArg, "id")}, simple([]string{"id"}, h.delibStatus)},
		{&mcp.Tool{Name: "deliberation_list", Title: "List deliberations",
			Description: "List the deliberations with their status (active, finished, abandoned), iteration and age.",
			InputSchema: inputSchema(obj{})}, simple(nil, h.delibList)},
		{&mcp.Tool{Name: "deliberation_synthesize", Title: "Synthesize a deliberation",
			Description: "The final output, once the state permits it: AGREED / DISMISSED / UNRESOLVED / SURFACED QUESTIONS / NOT EVALUATED / ARBITRATION CONCERNS, every point in exactly one bucket, as JSON plus markdown.",
			InputSchema: inputSchema(idArg, "id")}, simple([]string{"id"}, h.delibSynthesize)},
		{&mcp.Tool{Name: "deliberation_recover", Title: "Recovery prompt",
			Description: "The Recovery prompt for a fresh consultee session, built from the state file (never from memory): use it when the consultee's session is lost.",
			InputSchema: inputSchema(idArg, "id")}, simple([]string{"id"}, h.delibRecover)},
	}
}
