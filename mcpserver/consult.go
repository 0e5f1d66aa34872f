package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/relay"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var sendArgs = []string{"id", "consultant", "effort", "model", "timeout_seconds", "idle_timeout_seconds", "max_tokens", "max_time_seconds", "structured", "fresh"}

func (h *handlers) delibSendTool() toolDef {
	props := obj{
		"id":                   obj{"type": "string"},
		"consultant":           strProp("codex, or command:PROGRAM ARGS"),
		"effort":               obj{"type": "string", "enum": []string{"high", "xhigh"}},
		"model":                obj{"type": "string"},
		"timeout_seconds":      obj{"type": "integer"},
		"idle_timeout_seconds": obj{"type": "integer"},
		"max_tokens":           obj{"type": "integer"},
		"max_time_seconds":     obj{"type": "integer"},
		"structured":           obj{"type": "boolean"},
		"fresh":                obj{"type": "boolean"},
	}
	return toolDef{&mcp.Tool{Name: "deliberation_send", Annotations: consults,
		Description: "Consult (default codex) on the pending prompt in the background; then deliberation_wait.",
		InputSchema: inputSchema(props, "id")}, simple(sendArgs, h.delibSend)}
}

func (h *handlers) delibWaitTool() toolDef {
	d := idTool(&mcp.Tool{Name: "deliberation_wait", Annotations: readOnly,
		Description: "Wait up to timeout_seconds for consultation; again while running."},
		h.delibWait, obj{"timeout_seconds": obj{"type": "integer", "minimum": 1, "maximum": maxWait}})
	d.tool.InputSchema.(obj)["required"] = []string{"id"} // the timeout defaults to 50 s
	return d
}

func (h *handlers) delibCancelTool() toolDef {
	return idTool(&mcp.Tool{Name: "deliberation_cancel", Annotations: cancels,
		Description: "Stop the consultation; the prompt stays pending."},
		h.delibCancel, nil)
}

// cancels: stops elicit's own consultant process and records it; the
// prompt stays pending, so nothing is lost that a send cannot redo.
var cancels = &mcp.ToolAnnotations{DestructiveHint: no, IdempotentHint: true, OpenWorldHint: no}

// sendConsultant builds the consultant; tests replace it.
var sendConsultant = func(getenv func(string) string, name string, o *consult.CodexOptions) (consult.Consultant, error) {
	o.Path = consult.CodexPath(getenv)
	return consult.New(name, o)
}

func (h *handlers) delibSend(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	if st, c := h.councilOf(a); c != nil {
		if !owns(a, st, c.ID) {
			return nil
		}
		o, ro := sendOptions(a)
		if len(a.probs) > 0 {
			return nil
		}
		return h.councilSend(a, st, c, o, ro)
	}
	name := a.str("consultant", false)
	if name == "" {
		name = "codex"
	}
	if err := h.allowConsultant(name); err != nil {
		a.errorf("consultant", "%v", err)
		return nil
	}
	o, ro := sendOptions(a)
	c, err := sendConsultant(h.opts.Getenv, name, &o)
	if err != nil {
		a.errorf("consultant", "%v", err)
	}
	return h.withID(a, func(st *deliberation.Store, id string) any {
		err := h.opts.Background.start(st, id, c, ro)
		if !a.check(err) {
			return nil
		}
		out, err := h.outcome(st, id)
		if !a.check(err) {
			return nil
		}
		return outcome(out)
	})
}

// sendOptions reads deliberation_send's options of the consultant and of
// the consultation.
func sendOptions(a *args) (consult.CodexOptions, relay.Options) {
	effort := a.str("effort", false)
	if effort != "" && effort != "high" && effort != "xhigh" {
		a.errorf("effort", "must be high or xhigh (got %q)", effort)
	}
	o := consult.CodexOptions{Model: a.str("model", false), Effort: effort,
		Timeout: a.seconds("timeout_seconds"), IdleTimeout: a.seconds("idle_timeout_seconds")}
	budget := relay.Budget{MaxTokens: int64(a.integer("max_tokens", maxCount)), MaxTime: a.seconds("max_time_seconds")}
	structured, fresh := a.boolean("structured"), a.boolean("fresh")
	return o, relay.Options{Effort: effort, Budget: budget, Structured: structured != nil && *structured, Fresh: fresh != nil && *fresh, Words: &toolWords}
}

// toolWords name the next steps in messages as the tools and arguments.
var toolWords = relay.Words{Evaluate: "deliberation_evaluate", Wait: "deliberation_wait", Cancel: "deliberation_cancel",
	MaxTokens: "deliberation_send's max_tokens", MaxTime: "deliberation_send's max_time_seconds"}

// toolMapping names the Solution Space Mapping's inputs in notes.
const toolMapping = "deliberation_start's shape, tangents and drift_signals"

// maxSeconds bounds a seconds argument: consult.MaxDuration, a year.
const maxSeconds = int(consult.MaxDuration / time.Second)

// seconds reads a duration in whole seconds, 0 (the default) to a year.
func (a *args) seconds(key string) time.Duration {
	n, _ := a.whole(key, 0, maxSeconds, "seconds", "at most 365 days")
	return time.Duration(n) * time.Second
}

// allowConsultant refuses a consultant the server's operator did not allow,
// saying how the operator would allow it.
func (h *handlers) allowConsultant(name string) error {
	allowed := h.opts.Consultants
	if allowed == nil || allowed.Allows(name) {
		return nil
	}
	if _, err := consult.New(name, nil); err != nil {
		return err // not a consultant name at all
	}
	return fmt.Errorf("%q is not allowed on this server: the consultants it may run are fixed when it starts (%s); "+
		"its operator allows this one by starting it with --allow-consultant %s", name, strings.Join(allowed.Names(), ", "), shellQuote(name))
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
