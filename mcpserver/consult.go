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

func init() { toolGroups = append(toolGroups, (*handlers).consultTools) }

var sendArgs = []string{"id", "consultant", "effort", "model", "timeout_seconds", "idle_timeout_seconds", "max_tokens", "max_time_seconds", "structured", "fresh"}

func (h *handlers) consultTools() []toolDef {
	props := obj{
		"consultant":           obj{"type": "string", "description": "codex (default), or command:PROGRAM ARGS... for any agent CLI that reads the prompt on stdin and answers on stdout."},
		"effort":               obj{"type": "string", "enum": []string{"high", "xhigh"}, "description": "Reasoning effort (default high); xhigh for non-obvious consequences or costly mistakes."},
		"model":                obj{"type": "string", "description": "The codex model (default: codex's configured model)."},
		"timeout_seconds":      obj{"type": "integer", "minimum": 1, "description": "Wall-clock limit of the call (default 1800: consultations take 5-20+ minutes)."},
		"idle_timeout_seconds": obj{"type": "integer", "minimum": 1, "description": "End a codex call after this long without an event (default 1200)."},
		"max_tokens":           obj{"type": "integer", "minimum": 1, "description": "Token budget of the whole deliberation (kept until changed)."},
		"max_time_seconds":     obj{"type": "integer", "minimum": 1, "description": "Consultant-time budget of the whole deliberation (kept until changed)."},
		"structured":           obj{"type": "boolean", "description": "Hold codex to a JSON answer schema (points labelled EVIDENCE/INFERENCE/GUESS, challenge IDs defended or conceded), recorded as protocol text, so format failures cannot happen."},
		"fresh":                obj{"type": "boolean", "description": "Open a fresh session with the Recovery prompt instead of resuming."},
	}
	for k, v := range idArg {
		props[k] = v
	}
	return []toolDef{
		{&mcp.Tool{Name: "deliberation_send", Title: "Send the pending prompt to the consultant",
			Description: "Send the deliberation's pending prompt to the consultant (codex by default) and record its answer: a new session on the first iteration, a resume after it; a failed resume recovers with the Recovery prompt in a fresh session (noted in the state). Returns {id, iteration, session_id, resumed, recovery, answer, usage, totals, next}; evaluate the answer next with deliberation_evaluate. A consultant failure returns {success:false, failure:{kind, message, stderr_tail}} with kind not_installed, auth, rate_limit, model, network, context_length, thread_not_found, timeout, exit or unparseable. Calls can take many minutes.",
			InputSchema: inputSchema(props, "id")}, simple(sendArgs, h.delibSend)},
	}
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
