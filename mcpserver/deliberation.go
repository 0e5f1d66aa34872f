package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/config"
	"github.com/elicit/elicit/internal/delibdb"
	"github.com/elicit/elicit/internal/relay"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/elicit/elicit/problem"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// store opens the deliberation store: Options.DeliberationDir, else
// $ELICIT_HOME/deliberations (or ~/.elicit/deliberations).
func (h *handlers) store(a *args) *deliberation.Store {
	dir := h.opts.DeliberationDir
	if dir == "" {
		d, err := config.Home(h.opts.Getenv)
		if err != nil {
			a.errorf("", "no deliberation folder: the server was given none, and neither ELICIT_HOME nor HOME is set in its environment (set ELICIT_HOME to the folder where elicit keeps its state; a program serving the tools can set Options.DeliberationDir instead)")
			return nil
		}
		d = filepath.Join(d, "deliberations")
		dir = d
	}
	sh, err := delibdb.For(h.opts.Project, h.opts.Getenv)
	if err != nil {
		a.errorf("", "%v", err)
		return nil
	}
	if sh == nil {
		return deliberation.NewStore(dir, nil)
	}
	return deliberation.NewStore(dir, &deliberation.StoreOptions{Shared: sh})
}

// withID runs fn with the store and the "id" argument.
func (h *handlers) withID(a *args, fn func(st *deliberation.Store, id string) any) any {
	ref := a.str("id", true)
	if len(a.probs) > 0 {
		return nil
	}
	dir, id, err := deliberation.ParseRef(ref)
	if err != nil {
		a.addPrefixed("", err) // ParseRef names the path itself
		return nil
	}
	st := h.store(a)
	if st == nil {
		return nil
	}
	if dir != "" && !sameDir(dir, st.Dir()) {
		a.errorf("id", "%q is a state file in %s, not in this server's deliberations folder %s: give the ID alone (%s)", ref, dir, st.Dir(), id)
		return nil
	}
	if !owns(a, st, id) {
		return nil
	}
	return fn(st, id)
}

// owns reports whether the caller may read and change deliberation id:
// any caller when the server does not know its callers, else the one who
// started it (a deliberation started before there were tokens has no
// owner). A deliberation that cannot be read is left to the tool to
// report.
func owns(a *args, st *deliberation.Store, id string) bool {
	if a.user == "" {
		return true
	}
	s, err := st.Load(id)
	if err != nil || s.Owner == "" || s.Owner == a.user {
		return true
	}
	a.errorf("id", "deliberation %s was started by another user: a token reads and changes only the deliberations its user started (start one of your own with deliberation_start)", id)
	return false
}

// sameDir reports whether two folder paths name the same folder.
func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// addUnreported adds err's problems but those about an argument that
// already has one.
func (a *args) addUnreported(err error) {
	var probs problem.List
	if !errors.As(err, &probs) {
		a.addPrefixed("", err)
		return
	}
	argument := func(path string) string {
		return path[:strings.IndexAny(path+"[.", "[.")]
	}
	reported := map[string]bool{}
	for _, p := range a.probs {
		reported[argument(p.Path)] = true
	}
	for _, p := range probs {
		if !reported[argument(p.Path)] {
			a.probs = append(a.probs, p)
		}
	}
}

// check adds err's problems, a state to rebuild named as the tool that
// does it, and reports whether there were none.
func (a *args) check(err error) bool {
	a.addPrefixed("", deliberation.NameRestore(err, restoreTool))
	return err == nil
}

// restoreTool is how a client rebuilds the state of id from its
// transcript: deliberation_recover with restore.
func restoreTool(id string) string {
	return fmt.Sprintf(`deliberation_recover {"id": %q, "restore": true}`, id)
}

var startArgs = []string{"question", "quick", "facts", "interpretations", "paths", "shape", "tangents", "drift_signals", "ledger_budget", "consultants", "review"}

func (h *handlers) delibStart(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	q := a.str("question", true)
	opts := &deliberation.StartOptions{
		Facts:           a.strings("facts"),
		Interpretations: a.strings("interpretations"),
		Paths:           a.strings("paths"),
		SSM:             deliberation.SSM{Shape: a.str("shape", false), Tangents: a.str("tangents", false), DriftSignals: a.str("drift_signals", false)},
		LedgerBudget:    a.integer("ledger_budget", maxCount),
		Owner:           a.user,
	}
	if b := a.boolean("quick"); b != nil {
		opts.Quick = *b
	}
	specs, review := h.councilSpecs(a), a.boolean("review")
	if review != nil && *review && !a.has("consultants") {
		a.errorf("review", "is for a council: name 2 to 5 consultants")
	}
	// Every problem at once: the start's own checks join the arguments'
	// type problems (an argument already reported is not judged again).
	if len(a.probs) > 0 {
		a.addUnreported(deliberation.CheckStart(q, opts))
		return nil
	}
	if a.has("consultants") {
		return h.councilStart(a, q, opts, specs, review != nil && *review)
	}
	st := h.store(a)
	if st == nil {
		return nil
	}
	id, s, err := st.Start(q, opts)
	if !a.check(err) {
		return nil
	}
	out := map[string]any{"id": id, "state_file": st.StatePath(id), "prompt": s.Next.Prompt, "prompt_id": promptID(s.Next.Prompt)}
	if n := s.NotesNaming(toolMapping); len(n) > 0 {
		out["notes"] = n
	}
	return out
}

func (h *handlers) delibRespond(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	text := a.str("response", true)
	return h.withID(a, func(st *deliberation.Store, id string) any {
		if h.notForCouncil(a, st, id) {
			return nil
		}
		s, err := st.Respond(id, text)
		if !a.check(err) {
			return nil
		}
		return step(s.Next, false)
	})
}

func (h *handlers) delibEvaluate(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	doc := a.object("evaluation", true, false)
	return h.withID(a, func(st *deliberation.Store, id string) any {
		if doc == nil {
			return nil
		}
		if c, err := st.Council(id); c != nil || err != nil {
			if !a.check(err) {
				return nil
			}
			return h.councilEvaluate(a, st, id, doc)
		}
		s, err := st.Evaluate(id, doc)
		if !a.check(err) {
			return nil
		}
		return step(s.Next, true)
	})
}

// delibStatus is the state document, with the notes on what it lacks and,
// under consultation, the consultation as it stands (running with its
// progress, or interrupted).
func (h *handlers) delibStatus(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	return h.withID(a, func(st *deliberation.Store, id string) any {
		if c, err := st.Council(id); c != nil || err != nil {
			if !a.check(err) {
				return nil
			}
			return h.councilOutcome(a, st, id)
		}
		s, err := st.Load(id)
		if !a.check(err) {
			return nil
		}
		doc := s.StatusDocument(time.Now(), toolMapping)
		h.progress(st, id, doc.Consultation)
		return doc
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
	if a.user != "" {
		entries = slices.DeleteFunc(entries, func(e deliberation.Entry) bool { return e.Owner != "" && e.Owner != a.user })
	}
	if entries == nil {
		entries = []deliberation.Entry{}
	}
	deliberation.NameRestores(entries, restoreTool)
	return map[string]any{"deliberations": entries}
}

func (h *handlers) delibSynthesize(_ context.Context, req *mcp.CallToolRequest, a *args) any {
	answer := a.str("answer", false) // required but after an early exit (trivial): the domain says so
	return h.withID(a, func(st *deliberation.Store, id string) any {
		if c, err := st.Council(id); c != nil || err != nil {
			if !a.check(err) {
				return nil
			}
			return h.councilSynthesize(req, a, st, id, answer)
		}
		y, err := st.Synthesize(id, answer)
		if !a.check(err) {
			return nil
		}
		d := h.door(req)
		d.Log.Append(responselog.SynthesisRecord(id, y, d.Who))
		// In the synthesis's order: the answer first, as the markdown.
		return struct {
			*deliberation.Synthesis
			Markdown string `json:"markdown"`
		}{y, y.Markdown()}
	})
}

// delibRecover returns the Recovery prompt; with restore it first rewrites
// a missing or unreadable state file from the transcript, as the CLI's
// recover --restore does: a state that matches its transcript is left as
// it is (no prompt), and a finished one has no prompt.
func (h *handlers) delibRecover(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	restore := a.boolean("restore")
	return h.withID(a, func(st *deliberation.Store, id string) any {
		if h.notForCouncil(a, st, id) {
			return nil
		}
		out := map[string]any{"id": id}
		if restore != nil && *restore {
			s, kept, written, err := st.Restore(id)
			if !a.check(err) {
				return nil
			}
			out["restored"] = written
			if kept != "" {
				out["kept"] = kept
			}
			switch {
			case !written:
				out["note"] = "the state matches its transcript: nothing to restore, nothing changed (without restore, deliberation_recover gives a Recovery prompt for a fresh session)"
				return out
			case !s.Active():
				out["note"] = fmt.Sprintf("the deliberation is %s (%s): no Recovery prompt (deliberation_synthesize gives its synthesis)", s.Status, s.ExitReason)
				return out
			}
		}
		prompt, err := st.RecoverIdle(id)
		if !a.check(err) {
			return nil
		}
		out["prompt"], out["prompt_id"] = prompt, promptID(prompt)
		return out
	})
}

func (h *handlers) delibStartTool() toolDef {
	strList := obj{"type": "array", "items": obj{}}
	return toolDef{&mcp.Tool{Name: "deliberation_start", Annotations: records,
		Description: "Start a bounded deliberation (8 iterations, quick 2); see prompt deliberate.",
		InputSchema: inputSchema(obj{
			"question":        obj{"type": "string"},
			"quick":           obj{"type": "boolean"},
			"facts":           strList,
			"interpretations": strList,
			"paths":           strList,
			"shape":           obj{"type": "string"},
			"tangents":        obj{"type": "string"},
			"drift_signals":   obj{"type": "string"},
			"ledger_budget":   obj{"type": "integer"},
			"consultants":     obj{"type": "array", "items": obj{}, "description": "2-5: [STANCE=]CONSULTANT or {consultant,stance,model,effort}"},
			"review":          obj{"type": "boolean"},
		}, "question")}, simple(startArgs, h.delibStart)}
}

// idTool completes a tool that takes a deliberation's id and the extra
// arguments, all required.
func idTool(t *mcp.Tool, run func(context.Context, *mcp.CallToolRequest, *args) any, extra obj) toolDef {
	props, names := obj{"id": obj{"type": "string"}}, []string{"id"}
	for k, v := range extra {
		props[k] = v
		names = append(names, k)
	}
	slices.Sort(names[1:])
	t.InputSchema = inputSchema(props, names...)
	return toolDef{t, simple(names, run)}
}

func (h *handlers) delibRespondTool() toolDef {
	return idTool(&mcp.Tool{Name: "deliberation_respond", Annotations: records,
		Description: "Record the answer to a prompt you relayed."},
		h.delibRespond, obj{"response": obj{"type": "string"}})
}

func (h *handlers) delibEvaluateTool() toolDef {
	return idTool(&mcp.Tool{Name: "deliberation_evaluate", Annotations: records,
		Description: "Apply your evaluation of the last answer: the next step, or every problem."},
		h.delibEvaluate, obj{"evaluation": evaluationInput()})
}

func (h *handlers) delibStatusTool() toolDef {
	return idTool(&mcp.Tool{Name: "deliberation_status", Annotations: readOnly,
		Description: "A deliberation's state (phase, buckets) and next step."}, h.delibStatus, nil)
}

func (h *handlers) delibListTool() toolDef {
	return toolDef{&mcp.Tool{Name: "deliberation_list", Annotations: readOnly,
		Description: "List deliberations: status, iteration, age.",
		InputSchema: inputSchema(obj{})}, simple(nil, h.delibList)}
}

func (h *handlers) delibSynthesizeTool() toolDef {
	return idTool(&mcp.Tool{Name: "deliberation_synthesize", Annotations: records,
		Description: "Once permitted, the synthesis, opening with answer: yours to the question."},
		h.delibSynthesize, obj{"answer": obj{"type": "string"}})
}

func (h *handlers) delibRecoverTool() toolDef {
	return toolDef{&mcp.Tool{Name: "deliberation_recover", Annotations: records,
		Description: "Recovery prompt for a fresh session (restore: rebuild a lost state first).",
		InputSchema: inputSchema(obj{"id": obj{"type": "string"}, "restore": obj{"type": "boolean"}}, "id")},
		simple([]string{"id", "restore"}, h.delibRecover)}
}

// evaluationInput is deliberation_evaluate's evaluation argument: the
// evaluation document's JSON Schema (deliberation.EvaluationSchema, the
// one file, so the two cannot drift), compacted for tools/list, which is
// sent to the model in every conversation: each $ref inlined (hosts
// differ on $ref, and here each definition is used about once),
// descriptions and the keywords only the engine needs to check dropped
// (the engine reports those, with their paths; the resource
// elicit://schema/evaluation keeps every word). Built once, on first use;
// callers must not modify it.
var evaluationInput = sync.OnceValue(func() obj {
	s, err := compactSchema(deliberation.EvaluationSchema())
	if err != nil {
		// TestEvaluateSchemaIsTheDocumentSchema fails first.
		return obj{"type": "object"}
	}
	return s
})

// compactDrop are the keywords compactSchema leaves out: annotations, and
// constraints the engine checks with a better message (unknown keys with
// the key meant, empty texts, ID forms).
var compactDrop = []string{"$schema", "$id", "$comment", "$defs", "title", "description", "examples",
	"additionalProperties", "minLength", "minItems", "pattern", "minimum", "maximum"}

// compactSchema is the schema document raw without its $defs (each $ref
// to one inlined), the keywords of compactDrop, the types that a nested
// object's properties or an array's items already show, the type of a
// free-text value ({}: codex reads a key without a type as a string) and
// what the objects inside the evaluation's own keys require (the engine
// names a missing key with what it takes).
func compactSchema(raw []byte) (obj, error) {
	var doc obj
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("the evaluation schema: %w", err)
	}
	defs, _ := doc["$defs"].(map[string]any)
	var walk func(v any, depth int, props bool) (any, error)
	walk = func(v any, depth int, props bool) (any, error) {
		if depth > 32 {
			return nil, fmt.Errorf("the evaluation schema nests deeper than 32 (a $ref cycle?)")
		}
		switch v := v.(type) {
		case []any:
			out := make([]any, len(v))
			for i, x := range v {
				var err error
				if out[i], err = walk(x, depth+1, false); err != nil {
					return nil, err
				}
			}
			return out, nil
		case map[string]any:
			out := obj{}
			if ref, ok := v["$ref"].(string); ok && !props {
				name, local := strings.CutPrefix(ref, "#/$defs/")
				def, found := defs[name].(map[string]any)
				if !local || !found {
					return nil, fmt.Errorf("the evaluation schema: $ref %q is not one of its $defs", ref)
				}
				inlined, err := walk(def, depth+1, false)
				if err != nil {
					return nil, err
				}
				out = inlined.(obj)
			}
			for k, x := range v {
				if !props && (k == "$ref" || slices.Contains(compactDrop, k)) {
					continue
				}
				// The keys of properties are names, never keywords.
				y, err := walk(x, depth+1, !props && k == "properties")
				if err != nil {
					return nil, err
				}
				out[k] = y
			}
			// Below the root, an object's type shows in its properties and
			// an array's in its items.
			if _, ok := out["properties"]; ok && depth > 0 && out["type"] == "object" {
				delete(out, "type")
			}
			if _, ok := out["items"]; ok && out["type"] == "array" {
				delete(out, "type")
			}
			// A free-text key is a bare name: its value is a string, as a
			// model reads it and as codex takes a key without a type.
			if len(out) == 1 && out["type"] == "string" {
				return obj{}, nil
			}
			return out, nil
		}
		return v, nil
	}
	out, err := walk(doc, 0, false)
	if err != nil {
		return nil, err
	}
	unrequire(out.(obj), 0)
	return out.(obj), nil
}

// unrequire leaves what an object requires to the engine (which names a
// missing key and what it takes) below the evaluation, its keys and their
// items: level counts properties and items from the evaluation.
func unrequire(s obj, level int) {
	if level > 2 {
		delete(s, "required")
	}
	if props, ok := s["properties"].(obj); ok {
		for _, p := range props {
			if p, ok := p.(obj); ok {
				unrequire(p, level+1)
			}
		}
	}
	if items, ok := s["items"].(obj); ok {
		unrequire(items, level+1)
	}
}

// stepView is a deliberation's next step as the tools return it. The
// pending prompt is sent once per step, by the call that produced it
// (deliberation_start, _evaluate, _recover); the others (_respond, _send,
// _wait, _cancel) name it by its prompt_id and length, and say where it
// is again (a prompt is most of a step's bytes, and an agent that sends
// with deliberation_send never relays it).
type stepView struct {
	*deliberation.Next
	// PromptID names the prompt: the first 12 hex digits of its SHA-256.
	PromptID string `json:"prompt_id,omitempty"`
	// PromptBytes and PromptAgain stand for a prompt left out.
	PromptBytes int    `json:"prompt_bytes,omitempty"`
	PromptAgain string `json:"prompt_again,omitempty"`
}

// promptAgain is where a prompt left out is.
const promptAgain = "deliberation_status (next.prompt)"

// step is n as a tool returns it: with its prompt when withPrompt, else
// with the prompt's id and length only.
func step(n *deliberation.Next, withPrompt bool) *stepView {
	if n == nil {
		return nil
	}
	c := *n
	v := &stepView{Next: &c}
	if c.Prompt == "" {
		return v
	}
	v.PromptID = promptID(c.Prompt)
	if !withPrompt {
		v.PromptBytes, v.PromptAgain, c.Prompt = len(c.Prompt), promptAgain, ""
	}
	return v
}

// promptID is a prompt's name: the first 12 hex digits of its SHA-256.
func promptID(prompt string) string {
	sum := sha256.Sum256([]byte(prompt))
	return hex.EncodeToString(sum[:6])
}

// outcomeView is a consultation's outcome as deliberation_send, _wait and
// _cancel return it: once the consultation has ended, the next step once,
// without its prompt (the result's copy of it is left out); while it runs,
// only the id of the prompt it answers (nothing else changes until it
// ends, and a wait is called again and again). The consultation is shown
// as the agent follows it (its process's identity is the state's
// bookkeeping: deliberation_status has it), the deliberation's id once.
type outcomeView struct {
	*relay.Outcome
	PromptID     string       `json:"prompt_id,omitempty"`
	Consultation *consultView `json:"consultation,omitempty"`
	Result       *resultView  `json:"result,omitempty"`
	Next         *stepView    `json:"next,omitempty"`
}

type resultView struct {
	*relay.Result
	ID   string    `json:"id,omitempty"`   // "": the outcome's id says it
	Next *stepView `json:"next,omitempty"` // nil: the outcome's next says it
}

// consultView is a consultation in an outcome: who is consulted on which
// step, since when, and its progress once there is some.
type consultView struct {
	Consultant     string                        `json:"consultant"`
	Iteration      int                           `json:"iteration"`
	Action         string                        `json:"action"`
	Status         string                        `json:"status"`
	StartedAt      string                        `json:"started_at"`
	ElapsedSeconds int64                         `json:"elapsed_seconds"`
	Progress       *deliberation.ConsultProgress `json:"progress,omitempty"`
}

func outcome(o *relay.Outcome) *outcomeView {
	v := &outcomeView{Outcome: o, Next: step(o.Next, false)}
	if o.Status == relay.StatusRunning && v.Next != nil {
		v.PromptID, v.Next = v.Next.PromptID, nil
	}
	if o.Result != nil {
		v.Result = &resultView{Result: o.Result}
	}
	if c := o.Consultation; c != nil {
		v.Consultation = &consultView{Consultant: c.Consultant, Iteration: c.Iteration, Action: c.Action, Status: c.Status,
			StartedAt: c.StartedAt, ElapsedSeconds: c.ElapsedSeconds}
		if p := c.Progress; p != nil && p.Events > 0 {
			v.Consultation.Progress = p
		}
	}
	return v
}
