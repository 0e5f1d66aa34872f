package mcpserver

import (
	"context"
	"errors"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/consult/relay"
	"github.com/elicit/elicit/deliberation"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var sendArgs = []string{"id", "consultant", "effort", "model", "timeout_seconds", "idle_timeout_seconds", "max_tokens", "max_time_seconds", "structured", "fresh"}

func (h *handlers) delibSendTool() toolDef {
	props := obj{
		"id":                   idProp,
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
	return toolDef{&mcp.Tool{Name: "deliberation_send", Title: "Send to the consultant", Annotations: consults,
		Description: "Send the pending prompt to the consultant (codex by default; can take minutes), record and return its answer, recovering a lost session. Evaluate it next.",
		InputSchema: inputSchema(props, "id")}, simple(sendArgs, h.delibSend)}
}

// sendConsultant builds the consultant; tests replace it.
var sendConsultant = func(getenv func(string) string, name string, o *consult.CodexOptions) (consult.Consultant, error) {
	o.Path = getenv("ELICIT_CODEX")
	if o.Path == "" {
		o.Path = "codex"
	}
	return consult.New(name, o)
}

func (h *handlers) delibSend(ctx context.Context, _ *mcp.CallToolRequest, a *args) any {
	name := a.str("consultant", false)
	if name == "" {
		name = "codex"
	}
	effort := a.str("effort", false)
	if effort != "" && effort != "high" && effort != "xhigh" {
		a.errorf("effort", "must be high or xhigh (got %q)", effort)
	}
	o := &consult.CodexOptions{Model: a.str("model", false), Effort: effort,
		Timeout: seconds(a.integer("timeout_seconds")), IdleTimeout: seconds(a.integer("idle_timeout_seconds"))}
	budget := relay.Budget{MaxTokens: int64(a.integer("max_tokens")), MaxTime: seconds(a.integer("max_time_seconds"))}
	structured, fresh := a.boolean("structured"), a.boolean("fresh")
	c, err := sendConsultant(h.opts.Getenv, name, o)
	if err != nil {
		a.errorf("consultant", "%v", err)
	}
	return h.withID(a, func(st *deliberation.Store, id string) any {
		r, err := relay.Send(ctx, st, id, c, &relay.Options{Effort: effort, Budget: budget, Structured: structured != nil && *structured, Fresh: fresh != nil && *fresh})
		var ce *consult.Error
		if errors.As(err, &ce) {
			return map[string]any{"success": false, "failure": map[string]any{"consultant": ce.Consultant, "kind": ce.Kind,
				"message": ce.Message, "exit_code": ce.ExitCode, "stderr_tail": ce.StderrTail}}
		}
		if !a.check(err) {
			return nil
		}
		return r
	})
}

func seconds(n int) time.Duration { return time.Duration(n) * time.Second }
