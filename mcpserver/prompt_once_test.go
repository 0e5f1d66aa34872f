package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/elicit/elicit/consult"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// resultText is a tool result's text content.
func resultText(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// TestPendingPromptSentOnce: the pending prompt comes once per step, from
// the call that produced it (deliberation_start, _evaluate, _recover),
// with its prompt_id; deliberation_send, _wait, _respond and _cancel name
// it by that id (and, once the consultation has ended, its length and
// where it is again: deliberation_status), never repeat it.
func TestPendingPromptSentOnce(t *testing.T) {
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{
		{Reply: consult.Reply{SessionID: "t1", Text: "1. Honour Retry-After. EVIDENCE.\n2. Retry 5 times. GUESS."}},
	}}
	cs := sendSession(t, sc)
	started, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?"})
	id, first := started["id"].(string), started["prompt"].(string)
	firstID := promptID(first)
	if started["prompt_id"] != firstID || len(firstID) != 12 {
		t.Fatalf("start: prompt_id %v, want %s", started["prompt_id"], firstID)
	}
	// A line of the prompt that no result but the one producing it has.
	marker := "Answer the question in numbered points"
	if !strings.Contains(first, marker) {
		t.Fatalf("no %q in the First Call", marker)
	}

	got, _ := call(t, cs, "deliberation_send", map[string]any{"id": id})
	if got["status"] == "running" && (got["prompt_id"] != firstID || got["next"] != nil) {
		t.Errorf("send while running: %v, want prompt_id %s and no next", got, firstID)
	}
	got = waitDone(t, cs, id)
	next := got["next"].(map[string]any)
	if next["prompt"] != nil || next["prompt_id"] != firstID || next["prompt_bytes"] != float64(len(first)) || next["prompt_again"] != "deliberation_status (next.prompt)" {
		t.Errorf("wait, done: next %v", next)
	}
	if r := got["result"].(map[string]any); r["next"] != nil || r["id"] != nil {
		t.Errorf("the result repeats the outcome's next or id: %v", r)
	}
	if text := resultText(t, cs, "deliberation_wait", map[string]any{"id": id, "timeout_seconds": 1}); strings.Contains(text, marker) {
		t.Errorf("wait repeats the prompt: %s", text)
	}
	status, _ := call(t, cs, "deliberation_status", map[string]any{"id": id})
	if p := status["next"].(map[string]any)["prompt"]; p != first {
		t.Errorf("status has not the prompt again: %v", p)
	}

	got, _ = call(t, cs, "deliberation_evaluate", map[string]any{"id": id, "evaluation": map[string]any{"iteration": 1, "response": "valid", "points": []any{
		map[string]any{"text": "honour Retry-After", "triage": "in-scope", "classification": "AGREE", "claim_type": "empirical", "evidence_type": "textual"},
		map[string]any{"text": "retry 5 times", "triage": "in-scope", "classification": "SKEPTICAL", "flaw": "5 is arbitrary"}}}})
	second, _ := got["prompt"].(string)
	if !strings.Contains(second, "Iteration 2/8") || got["prompt_id"] != promptID(second) || got["prompt_bytes"] != nil {
		t.Fatalf("evaluate: %v", got)
	}

	// Relayed by hand: respond names the prompt it answered, by id.
	text := resultText(t, cs, "deliberation_respond", map[string]any{"id": id, "response": "Re C1: I concede C1."})
	if strings.Contains(text, "Open challenges") || !strings.Contains(text, `"prompt_id":"`+promptID(second)+`"`) {
		t.Errorf("respond: %s", text)
	}

	recovered, _ := call(t, cs, "deliberation_recover", map[string]any{"id": id})
	if p, _ := recovered["prompt"].(string); !strings.Contains(p, "SESSION RECOVERY") || recovered["prompt_id"] != promptID(p) {
		t.Errorf("recover: %v", recovered)
	}
}
