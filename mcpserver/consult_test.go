package mcpserver

import (
	"strings"
	"testing"

	"github.com/elicit/elicit/consult"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func sendSession(t *testing.T, sc *consult.Scripted) *mcp.ClientSession {
	t.Helper()
	old := sendConsultant
	sendConsultant = func(_ func(string) string, name string, _ *consult.CodexOptions) (consult.Consultant, error) {
		if name != "codex" {
			return consult.New(name, nil)
		}
		return sc, nil
	}
	t.Cleanup(func() { sendConsultant = old })
	s := New(&Options{Version: "test", Project: t.TempDir(), DeliberationDir: t.TempDir()})
	return dial(t, s, protocols[0], nil)
}

func TestDeliberationSend(t *testing.T) {
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{
		{Reply: consult.Reply{SessionID: "t1", Text: "1. Honour Retry-After. EVIDENCE.", Usage: consult.Usage{InputTokens: 10, OutputTokens: 2}}},
	}}
	cs := sendSession(t, sc)
	started, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?"})
	id := started["id"].(string)

	got, isErr := call(t, cs, "deliberation_send", map[string]any{"id": id, "effort": "xhigh", "max_tokens": 100})
	if isErr || got["session_id"] != "t1" || got["answer"] != "1. Honour Retry-After. EVIDENCE." || got["next"].(map[string]any)["awaiting"] != "evaluation" {
		t.Fatalf("send: %v", got)
	}
	if calls := sc.Calls(); len(calls) != 1 || calls[0].Request.Effort != "xhigh" || calls[0].Request.Prompt != started["prompt"] {
		t.Errorf("calls %+v", calls)
	}
	if totals := got["totals"].(map[string]any); totals["tokens"] != float64(12) || totals["budget"].(map[string]any)["max_tokens"] != float64(100) {
		t.Errorf("totals %v", totals)
	}

	got, isErr = call(t, cs, "deliberation_send", map[string]any{"id": id})
	if !isErr || !strings.Contains(got["problems"].([]any)[0].(string), "awaits your evaluation") {
		t.Errorf("second send: %v", got)
	}
	got, isErr = call(t, cs, "deliberation_send", map[string]any{"id": id, "structured": true, "consultant": "command:cat"})
	if !isErr || !strings.Contains(got["problems"].([]any)[0].(string), "consultant command:cat cannot be held to a response schema") {
		t.Errorf("structured with a command: %v", got)
	}
}

func TestDeliberationSendFailures(t *testing.T) {
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{{Err: &consult.Error{Kind: consult.KindAuth, Consultant: "codex", Message: "401", ExitCode: 1}}}}
	cs := sendSession(t, sc)
	started, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?"})
	got, _ := call(t, cs, "deliberation_send", map[string]any{"id": started["id"]})
	if got["success"] != false || got["failure"].(map[string]any)["kind"] != "auth" {
		t.Errorf("failure: %v", got)
	}
	got, isErr := call(t, cs, "deliberation_send", map[string]any{"id": started["id"], "effort": "max", "consultant": "gemini"})
	want := []any{`effort: must be high or xhigh (got "max")`, `consultant: unknown consultant "gemini" (want codex or command:PROGRAM [ARGS...])`}
	if !isErr || len(got["problems"].([]any)) != 2 || got["problems"].([]any)[0] != want[0] || got["problems"].([]any)[1] != want[1] {
		t.Errorf("bad arguments: %v", got)
	}
}
