package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/internal/config"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// crossModelSession connects to a server whose project is dir and whose
// codex is the scripted consultant.
func crossModelSession(t *testing.T, dir string, sc *consult.Scripted) *mcp.ClientSession {
	t.Helper()
	old := crossModelConsultant
	crossModelConsultant = func(func(string) string, config.Codex) (consult.Consultant, bool) { return sc, true }
	t.Cleanup(func() { crossModelConsultant = old })
	s := New(&Options{Version: "test", Project: dir})
	return dial(t, s, protocols[0], nil)
}

func TestCrossModelTool(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".codexignore"), nil, 0o644)
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{{Reply: consult.Reply{Text: "1. The attack."}}}}
	cs := crossModelSession(t, dir, sc)
	args := map[string]any{"method": "Red Team vs Blue Team", "topic": "Auth", "section": "Tokens never expire.", "workflow": "review", "id": "9"}

	got, isErr := call(t, cs, "elicitation_cross_model", args)
	plan, _ := got["plan"].(map[string]any)
	if isErr || plan["codex_role"] != "red_team" || !strings.Contains(plan["prompt"].(string), "RED TEAM") || plan["gate"].(map[string]any)["open"] != true {
		t.Fatalf("prompt only: %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "tmp/review/9/elicitation/codex-prompt-red-team-vs-blue-team.txt")); err != nil {
		t.Errorf("prompt file: %v", err)
	}
	if len(sc.Calls()) != 0 {
		t.Error("the consultant ran without run=true")
	}

	args["run"] = true
	got, isErr = call(t, cs, "elicitation_cross_model", args)
	res, _ := got["result"].(map[string]any)
	if isErr || got["success"] != true || res["status"] != "ok" || res["output"] != "1. The attack." {
		t.Fatalf("run: %v", got)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "tmp/review/9/elicitation/codex-red-team-vs-blue-team.md")); string(data) != "1. The attack." {
		t.Errorf("output file %q", data)
	}
}

func TestCrossModelToolProblems(t *testing.T) {
	cs := crossModelSession(t, t.TempDir(), &consult.Scripted{})
	got, isErr := call(t, cs, "elicitation_cross_model", map[string]any{"method": "nope", "topic": "t", "section": "s", "run": "yes"})
	want := "run: must be true or false"
	if !isErr || len(got["problems"].([]any)) != 1 || got["problems"].([]any)[0] != want {
		t.Errorf("got %v", got)
	}
	got, isErr = call(t, cs, "elicitation_cross_model", map[string]any{"method": "nope", "topic": "t", "section": "s"})
	if !isErr || !strings.Contains(got["problems"].([]any)[0].(string), `no method named or numbered "nope"`) {
		t.Errorf("got %v", got)
	}
	got, isErr = call(t, cs, "elicitation_cross_model", map[string]any{"method": "34", "topic": "t", "section": "s", "workflow": "../up"})
	if !isErr || !strings.Contains(got["problems"].([]any)[0].(string), `workflow: "../up" is not a simple name`) {
		t.Errorf("got %v", got)
	}
}
