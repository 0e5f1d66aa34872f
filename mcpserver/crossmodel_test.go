package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// TestCrossModelVerdictNotes: over MCP the orchestrator's verdict on a
// run's output comes back with seed 000's exact notes: full agreement
// reports "Cross-model consensus — high confidence"; an output that failed
// verification is discarded (its file then holds the note, so the sage
// goes on single-model) and "Codex output failed verification" is logged.
// (They were constants no tool returned.)
func TestCrossModelVerdictNotes(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".codexignore"), nil, 0o644)
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{{Reply: consult.Reply{Text: "1. Tokens never expire: replay."}}}}
	cs := crossModelSession(t, dir, sc)
	run := map[string]any{"method": "Red Team vs Blue Team", "topic": "Auth", "section": "Tokens never expire.", "workflow": "review", "id": "9", "run": true}
	got, isErr := call(t, cs, "elicitation_cross_model", run)
	plan := got["result"].(map[string]any)["plan"].(map[string]any)
	if isErr || plan["workflow"] != "review" || plan["id"] != "9" {
		t.Fatalf("run: %v", got)
	}
	output := filepath.Join(dir, "tmp/review/9/elicitation/codex-red-team-vs-blue-team.md")

	got, isErr = call(t, cs, "elicitation_cross_model", map[string]any{"method": "Red Team vs Blue Team", "workflow": "review", "id": 9, "verdict": "consensus"})
	v, _ := got["verdict"].(map[string]any)
	if isErr || v["note"] != "Cross-model consensus — high confidence" || v["discarded"] != false || v["output_file"] != output {
		t.Errorf("consensus: %v", got)
	}
	if data, _ := os.ReadFile(output); string(data) != "1. Tokens never expire: replay." {
		t.Errorf("consensus changed the output: %q", data)
	}

	got, isErr = call(t, cs, "elicitation_cross_model", map[string]any{"method": "Red Team vs Blue Team", "workflow": "review", "id": "9", "verdict": "failed_verification"})
	v, _ = got["verdict"].(map[string]any)
	if isErr || v["note"] != "Codex output failed verification" || v["discarded"] != true {
		t.Errorf("failed verification: %v", got)
	}
	if data, _ := os.ReadFile(output); string(data) != "Codex output failed verification\n" {
		t.Errorf("the output was not discarded: %q", data)
	}

	for _, tt := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"method": "Red Team vs Blue Team", "workflow": "review", "id": "9", "verdict": "consensus"},
			[]string{`verdict: the run of "Red Team vs Blue Team" left no output to judge (` + output + ` holds "Codex output failed verification"): go on single-model`}},
		{map[string]any{"method": "Red Team vs Blue Team", "workflow": "review", "id": "10", "verdict": "consensus"},
			[]string{`verdict: no output of "Red Team vs Blue Team" to judge at ` + filepath.Join(dir, "tmp/review/10/elicitation/codex-red-team-vs-blue-team.md") + `: run it first (with the same workflow and id)`}},
		{map[string]any{"method": "Red Team vs Blue Team", "verdict": "agree", "run": true},
			[]string{"run: give run or verdict, not both: run first, then judge its output with verdict"}},
		{map[string]any{"method": "Red Team vs Blue Team", "verdict": "agree", "workflow": "../x"},
			[]string{"id: is required with a verdict: the id of the run judged (its plan's id), as its workflow",
				`workflow: "../x" is not a simple name (letters, digits, '.', '_', '-'; no '..'; at most 100)`,
				`verdict: is "agree", want consensus (both models fully agree) or failed_verification (the output failed your verification: it is discarded)`}},
		{map[string]any{"method": "Tree of Thoughts", "id": "9", "verdict": "consensus"},
			[]string{`method: "Tree of Thoughts" has no codex_role: it has no cross-model output to judge`}},
		{map[string]any{"method": "Red Team vs Blue Team"},
			[]string{"topic: missing (a string is required)", "section: missing (a string is required)"}},
	} {
		got, isErr := call(t, cs, "elicitation_cross_model", tt.args)
		if probs := toStrings(got["problems"]); !isErr || !slices.Equal(probs, tt.want) {
			t.Errorf("%v:\n%s\nwant:\n%s", tt.args, strings.Join(probs, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}

// TestSelectMethodsNoMatchSaysTheMode: over MCP a selection that finds
// nothing carries seed 000's line for its mode, as the CLI prints it: in
// auto mode the line to log before going on without a method, in manual
// mode the offer to browse the registry, with the tool that lists it.
func TestSelectMethodsNoMatchSaysTheMode(t *testing.T) {
	cs := connect(t, protocols[0], nil)
	got, _ := call(t, cs, "elicitation_select_methods", map[string]any{"phase": "plan:0", "title": "Bananas and apples"})
	if got["status"] != "NO_MATCH" || got["notice"] != "No elicitation methods matched for section 'Bananas and apples' — proceeding without method injection." || got["browse"] != nil {
		t.Errorf("auto mode: %v", got)
	}
	got, _ = call(t, cs, "elicitation_select_methods", map[string]any{"phase": "plan:0", "title": "Bananas and apples", "manual": true})
	if got["status"] != "NO_MATCH" || got["notice"] != "No methods match your current context. Would you like to browse the full registry?" || got["browse"] != "elicitation_list_methods (or the resource elicit://methods)" {
		t.Errorf("manual mode: %v", got)
	}
	got, _ = call(t, cs, "elicitation_select_methods", map[string]any{"phase": "plan:0", "title": "Architecture Design", "text": "layers and boundaries"})
	if got["status"] != "OK" || got["notice"] != nil {
		t.Errorf("a match: %v", got)
	}
}

// TestCrossModelRoutesToACouncilMember: with council, a method's
// codex_role goes to the council's member of that stance (else the first
// without one), with its model and effort; a member whose program is not
// found, or that answers nothing, leaves the step single-model with the
// seed's note, and its output can fail verification as any other.
func TestCrossModelRoutesToACouncilMember(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".codexignore"), nil, 0o644)
	codex := &consult.Scripted{}
	oldCodex, oldSend := crossModelConsultant, sendConsultant
	crossModelConsultant = func(func(string) string, config.Codex) (consult.Consultant, bool) { return codex, true }
	var built []string
	members := map[string]*consult.Scripted{
		"command:redteam": {Replies: replies("1. Replay the token.")},
		"command:quiet":   {Replies: []consult.ScriptedReply{{Reply: consult.Reply{Text: " "}}}},
	}
	sendConsultant = func(_ func(string) string, name string, o *consult.CodexOptions) (consult.Consultant, error) {
		built = append(built, name+" "+o.Model+"/"+o.Effort)
		if sc, ok := members[name]; ok {
			return sc, nil
		}
		return consult.New(name, o)
	}
	t.Cleanup(func() { crossModelConsultant, sendConsultant = oldCodex, oldSend })
	cs := dial(t, New(&Options{Version: "test", Project: dir, DeliberationDir: t.TempDir()}), protocols[0], nil)
	started, isErr := call(t, cs, "deliberation_start", map[string]any{"question": "Are the tokens safe?", "consultants": []any{
		map[string]any{"consultant": "command:redteam", "stance": "red_team", "model": "m-r", "effort": "high"}, "command:quiet", "failure=command:gone-for-good"}})
	if isErr {
		t.Fatalf("start: %v", started)
	}
	run := func(method, id string) map[string]any {
		got, isErr := call(t, cs, "elicitation_cross_model", map[string]any{"method": method, "topic": "Auth", "section": "Tokens never expire.",
			"workflow": "review", "id": id, "run": true, "council": started["id"]})
		if isErr {
			t.Fatalf("%s: %v", method, got)
		}
		return got["result"].(map[string]any)
	}

	res := run("Red Team vs Blue Team", "1")
	plan := res["plan"].(map[string]any)
	if res["status"] != "ok" || res["output"] != "1. Replay the token." || plan["model"] != "m-r" || plan["reasoning"] != "high" ||
		plan["via"].(map[string]any)["member"] != "A" {
		t.Fatalf("red_team: %v", res)
	}
	if p := members["command:redteam"].Calls()[0].Request; p.Effort != "high" || !strings.Contains(p.Prompt, "RED TEAM") {
		t.Errorf("the red team member was asked %+v", p)
	}
	res = run("Challenge from Critical Perspective", "2") // no critic: B, which has no stance
	if res["status"] != "empty" || res["plan"].(map[string]any)["via"].(map[string]any)["member"] != "B" || !slices.Contains(res["notes"].([]any), any("Codex perspective unavailable")) {
		t.Errorf("critic: %v", res)
	}
	res = run("Pre-mortem Analysis", "3")
	if gate := res["plan"].(map[string]any)["gate"].(map[string]any); res["status"] != "skipped" ||
		gate["reason"] != "member C's consultant command:gone-for-good is not available (gone-for-good not found): single-model only" {
		t.Errorf("failure, its member's program missing: %v", res)
	}
	if len(codex.Calls()) != 0 || !slices.Equal(built, []string{"command:redteam m-r/high", "command:quiet gpt-5.3-codex/xhigh", "command:gone-for-good gpt-5.3-codex/xhigh"}) {
		t.Errorf("codex ran %d times; built %q", len(codex.Calls()), built)
	}

	got, isErr := call(t, cs, "elicitation_cross_model", map[string]any{"method": "Red Team vs Blue Team", "workflow": "review", "id": "1", "verdict": "failed_verification"})
	if v, _ := got["verdict"].(map[string]any); isErr || v["discarded"] != true || v["note"] != "Codex output failed verification" {
		t.Errorf("failed verification: %v", got)
	}
	got, isErr = call(t, cs, "elicitation_cross_model", map[string]any{"method": "34", "topic": "t", "section": "s", "council": "20990101-000000"})
	if probs := fmt.Sprint(got["problems"]); !isErr || !strings.Contains(probs, "council: no council 20990101-000000 in") {
		t.Errorf("unknown council: %v", got)
	}
}
