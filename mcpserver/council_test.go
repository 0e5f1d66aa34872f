package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/internal/golden"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// councilServer serves with the scripted consultants by their names
// (command:alpha, ...): every other name is refused.
func councilServer(t *testing.T, scripted map[string]*consult.Scripted) *mcp.ClientSession {
	t.Helper()
	old := sendConsultant
	sendConsultant = func(_ func(string) string, name string, _ *consult.CodexOptions) (consult.Consultant, error) {
		if sc, ok := scripted[name]; ok {
			return sc, nil
		}
		return consult.New(name, nil)
	}
	t.Cleanup(func() { sendConsultant = old })
	t.Setenv("ELICIT_NOW", "2026-01-31T17:15:00Z")
	opts := &Options{Version: "test", Project: t.TempDir(), DeliberationDir: t.TempDir(), Background: NewBackground()}
	t.Cleanup(func() { opts.Background.Stop(10 * time.Second) })
	return dial(t, New(opts), protocols[0], nil)
}

func replies(texts ...any) []consult.ScriptedReply {
	var out []consult.ScriptedReply
	for _, x := range texts {
		switch x := x.(type) {
		case string:
			out = append(out, consult.ScriptedReply{Reply: consult.Reply{SessionID: "s", Text: x}})
		case error:
			out = append(out, consult.ScriptedReply{Err: x})
		}
	}
	return out
}

func councilEvaluate(t *testing.T, cs *mcp.ClientSession, id, doc string) map[string]any {
	t.Helper()
	var ev map[string]any
	if err := json.Unmarshal([]byte(doc), &ev); err != nil {
		t.Fatal(err)
	}
	got, isErr := call(t, cs, "deliberation_evaluate", map[string]any{"id": id, "evaluation": ev})
	if isErr {
		t.Fatalf("evaluate %s: %v", doc, got)
	}
	return got
}

// member is consultee name of a council step or synthesis.
func member(t *testing.T, doc map[string]any, name string) map[string]any {
	t.Helper()
	for _, m := range doc["consultees"].([]any) {
		if m := m.(map[string]any); m["name"] == name {
			return m
		}
	}
	t.Fatalf("no consultee %s in %v", name, doc)
	return nil
}

// TestCouncilOfThreeToSynthesisOverMCP runs issue 31's council over MCP:
// A drops a challenge (reminder, then UNDEFENDED, counted for A only), B
// fails at iteration 2 (recorded; the others go on), C agrees with
// everything; one point made independently by all three is merged; an
// anonymized cross-review; a synthesis saying who agreed with what.
func TestCouncilOfThreeToSynthesisOverMCP(t *testing.T) {
	alpha := &consult.Scripted{Replies: replies(
		"1. Honour Retry-After (client.py:88 parses it). EVIDENCE.\n2. Retry 5 times. GUESS.\n3. Log every 429. INFERENCE.",
		"Retry-After stays the core.",
		"Nothing further.",
		"R1: CHALLENGE: jitter without a measured thundering herd is cargo cult.",
	)}
	beta := &consult.Scripted{Replies: replies(
		"1. Honour Retry-After: client.py:88. EVIDENCE.\n2. Cap retries at 3. GUESS.",
		&consult.Error{Kind: consult.KindAuth, Consultant: "command:beta", Message: "401 unauthorized", ExitCode: 1},
	)}
	gamma := &consult.Scripted{Replies: replies(
		"1. Honour Retry-After (client.py:88). EVIDENCE.\n2. Add jitter. INFERENCE.",
		"Agreed on all points.",
		"Nothing is missing.",
		"R1: AGREE",
	)}
	cs := councilServer(t, map[string]*consult.Scripted{"command:alpha": alpha, "command:beta": beta, "command:gamma": gamma})

	started, isErr := call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?",
		"consultants": []string{"command:alpha", "against=command:beta", "for=command:gamma"}, "review": true})
	if isErr {
		t.Fatalf("start: %v", started)
	}
	id := started["id"].(string)
	if a := started["next"].(map[string]any)["action"]; a != "send" {
		t.Fatalf("after start: %v", started)
	}

	// Round 1: all three answer the First Call, each with its stance.
	call(t, cs, "deliberation_send", map[string]any{"id": id})
	got := waitDone(t, cs, id)
	if next := got["next"].(map[string]any); next["action"] != "evaluate" {
		t.Fatalf("round 1 wait: %v", got)
	}
	if p := beta.Calls()[0].Request.Prompt; !strings.Contains(p, "Stance: AGAINST.") {
		t.Errorf("B's First Call states no stance:\n%s", p)
	}
	if p := alpha.Calls()[0].Request.Prompt; strings.Contains(p, "Stance:") {
		t.Errorf("A has no stance, but its First Call states one:\n%s", p)
	}
	step := councilEvaluate(t, cs, id, `{"round": 1,
	 "consultees": {
	  "A": {"iteration": 1, "response": "valid", "points": [
	    {"text": "honour Retry-After", "triage": "in-scope", "classification": "AGREE", "claim_type": "empirical", "evidence_type": "textual", "reason": "client.py:88 parses the header"},
	    {"text": "retry 5 times", "triage": "in-scope", "classification": "SKEPTICAL", "flaw": "5 is arbitrary"},
	    {"text": "log every 429", "triage": "in-scope", "classification": "AGREE", "claim_type": "value", "evidence_type": "n/a"}]},
	  "B": {"iteration": 1, "response": "valid", "points": [
	    {"text": "honour Retry-After", "triage": "in-scope", "classification": "AGREE", "claim_type": "empirical", "evidence_type": "textual"},
	    {"text": "cap retries at 3", "triage": "in-scope", "classification": "SKEPTICAL", "flaw": "3 is as arbitrary as 5"}]},
	  "C": {"iteration": 1, "response": "valid", "points": [
	    {"text": "honour Retry-After", "triage": "in-scope", "classification": "AGREE", "claim_type": "empirical", "evidence_type": "textual"},
	    {"text": "add jitter", "triage": "in-scope", "classification": "AGREE", "claim_type": "value", "evidence_type": "n/a"}]}},
	 "same": [["A:points[0]", "B:points[0]", "C:points[0]"]]}`)
	if step["action"] != "send" || step["round"] != float64(2) {
		t.Fatalf("after round 1: %v", step)
	}

	// Round 2: B fails; A drops C1; C agrees.
	call(t, cs, "deliberation_send", map[string]any{"id": id})
	got = waitDone(t, cs, id)
	b := member(t, got, "B")
	if b["failed"] != true || b["outcome"].(map[string]any)["status"] != "failed" {
		t.Fatalf("B did not fail at round 2: %v", got)
	}
	if a := member(t, got, "A")["outcome"].(map[string]any); a["status"] != "done" {
		t.Fatalf("A stopped with B: %v", a)
	}
	bv := member(t, got["next"].(map[string]any), "B")
	if bv["status"] != "failed" || bv["failure"].(map[string]any)["iteration"] != float64(2) || bv["failure"].(map[string]any)["kind"] != "auth" {
		t.Errorf("B's failure is not recorded: %v", bv)
	}
	if !strings.Contains(alpha.Calls()[1].Request.Prompt, "C1: retry 5 times") {
		t.Errorf("A's iteration 2 prompt lacks its own challenge C1:\n%s", alpha.Calls()[1].Request.Prompt)
	}
	if strings.Contains(gamma.Calls()[1].Request.Prompt, "retry 5 times") {
		t.Errorf("C was asked to defend A's point:\n%s", gamma.Calls()[1].Request.Prompt)
	}
	// Evaluating the failed member is refused, with every other problem.
	_, isErr = call(t, cs, "deliberation_evaluate", map[string]any{"id": id, "evaluation": map[string]any{"round": 2,
		"consultees": map[string]any{"B": map[string]any{"iteration": 2, "response": "valid"}}}})
	if !isErr {
		t.Fatal("evaluating a failed member was accepted")
	}
	step = councilEvaluate(t, cs, id, `{"round": 2, "consultees": {
	  "A": {"iteration": 2, "response": "valid"},
	  "C": {"iteration": 2, "response": "valid"}}}`)
	if a := member(t, step, "A"); a["next"].(map[string]any)["action"] != "reminder" || a["challenges"].(map[string]any)["reminded"] != float64(1) {
		t.Fatalf("A's dropped challenge got no reminder: %v", a)
	}
	if c := member(t, step, "C"); c["next"].(map[string]any)["action"] != "coverage_check" {
		t.Fatalf("C: %v", c)
	}

	// Round 3: A drops C1 again (UNDEFENDED, for A alone); C's coverage
	// check finds nothing.
	call(t, cs, "deliberation_send", map[string]any{"id": id})
	waitDone(t, cs, id)
	if !strings.Contains(alpha.Calls()[2].Request.Prompt, "C1 was not addressed") {
		t.Errorf("A's reminder:\n%s", alpha.Calls()[2].Request.Prompt)
	}
	step = councilEvaluate(t, cs, id, `{"round": 3, "consultees": {
	  "A": {"iteration": 3, "response": "valid"},
	  "C": {"iteration": 2, "response": "valid", "coverage": {"artifacts": [], "attack": false}}}}`)
	if step["action"] != "review" {
		t.Fatalf("after round 3: %v", step)
	}
	if a := member(t, step, "A")["challenges"].(map[string]any); a["undefended"] != float64(1) || a["issued"] != float64(1) {
		t.Errorf("A's challenges: %v", a)
	}
	if c := member(t, step, "C")["challenges"].(map[string]any); c["issued"] != float64(0) || c["undefended"] != float64(0) {
		t.Errorf("C's challenges: %v", c)
	}

	// The anonymized cross-review: A sees C's point, C sees A's, neither
	// sees a point of its own or a name; B, failed, reviews nothing.
	call(t, cs, "deliberation_send", map[string]any{"id": id})
	got = waitDone(t, cs, id)
	if r := got["reviews"].(map[string]any); r["A"] != "answered" || r["C"] != "answered" || len(r) != 2 {
		t.Fatalf("reviews: %v", got)
	}
	reviewA, reviewC := alpha.Calls()[3], gamma.Calls()[3]
	if reviewA.SessionID != "" || !strings.Contains(reviewA.Request.Prompt, "- R1: add jitter") ||
		strings.Contains(reviewA.Request.Prompt, "log every 429") || strings.Contains(reviewA.Request.Prompt, "honour Retry-After\n") {
		t.Errorf("A's review prompt:\n%s", reviewA.Request.Prompt)
	}
	if !strings.Contains(reviewC.Request.Prompt, "- R1: log every 429") || strings.Contains(reviewC.Request.Prompt, "add jitter") ||
		strings.Contains(reviewC.Request.Prompt, "cap retries") {
		t.Errorf("C's review prompt:\n%s", reviewC.Request.Prompt)
	}
	for _, p := range []string{reviewA.Request.Prompt, reviewC.Request.Prompt} {
		for _, name := range []string{"alpha", "beta", "gamma", " A:", " C:"} {
			if strings.Contains(p, name) {
				t.Errorf("a review prompt names %q:\n%s", name, p)
			}
		}
	}
	// A challenge without a flaw does not count.
	_, isErr = call(t, cs, "deliberation_evaluate", map[string]any{"id": id, "evaluation": map[string]any{"round": 4,
		"review": []any{map[string]any{"by": "A", "point": "R1", "verdict": "challenge"}}}})
	if !isErr {
		t.Error("a challenge without its flaw was accepted")
	}
	step = councilEvaluate(t, cs, id, `{"round": 4, "review": [
	  {"by": "A", "point": "R1", "verdict": "challenge", "flaw": "no thundering herd was measured", "evidence_type": "claim"},
	  {"by": "C", "point": "R1", "verdict": "agree"}]}`)
	if step["action"] != "synthesize" {
		t.Fatalf("after the review: %v", step)
	}

	y, isErr := call(t, cs, "deliberation_synthesize", map[string]any{"id": id, "answer": "Yes: honour Retry-After; no fixed retry cap."})
	if isErr {
		t.Fatalf("synthesize: %v", y)
	}
	want := map[string][4]string{ // point: agreed, disagreed, silent, confidence
		"honour Retry-After": {"A,B,C", "", "", "cross-model consensus — high confidence"},
		"retry 5 times":      {"A", "", "B,C", "not every consultee agreed"},
		"log every 429":      {"A,C", "", "B", "not every consultee agreed"},
		"cap retries at 3":   {"B", "", "A,C", "not every consultee agreed"},
		"add jitter":         {"C", "A", "B", "consultees disagree"},
	}
	rows := y["agreement"].([]any)
	if len(rows) != len(want) {
		t.Fatalf("agreement has %d rows, want %d: %v", len(rows), len(want), rows)
	}
	join := func(v any) string {
		var out []string
		for _, x := range v.([]any) {
			out = append(out, x.(string))
		}
		return strings.Join(out, ",")
	}
	for _, r := range rows {
		r := r.(map[string]any)
		w, ok := want[r["point"].(string)]
		if !ok {
			t.Errorf("unexpected row %v", r)
			continue
		}
		if g := [4]string{join(r["agreed"]), join(r["disagreed"]), join(r["silent"]), r["confidence"].(string)}; g != w {
			t.Errorf("%s: agreed/disagreed/silent/confidence %q, want %q", r["point"], g, w)
		}
	}
	if srcs := join(rows[0].(map[string]any)["sources"]); srcs != "A:P1,B:P1,C:P1" {
		t.Errorf("the merged point's sources: %s", srcs)
	}
	if syn := y["syntheses"].(map[string]any); len(syn) != 2 || syn["A"] == nil || syn["C"] == nil {
		t.Errorf("the finished consultees' syntheses: %v", slices.Collect(func(yield func(string) bool) {
			for k := range syn {
				yield(k)
			}
		}))
	}
	golden.Check(t, "council_synthesis.md", []byte(y["markdown"].(string)))
}

// TestCouncilRunsOnlyAllowedConsultants: a server whose operator fixed its
// consultants refuses a council naming others at the start, and at a send
// of a council started elsewhere, naming each member it would not run.
func TestCouncilRunsOnlyAllowedConsultants(t *testing.T) {
	allowed, err := consult.AllowConsultants([]string{"command:alpha"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cs := connectWith(t, &Options{Version: "test", DeliberationDir: dir, Consultants: allowed, Background: NewBackground()})
	got, isErr := call(t, cs, "deliberation_start", map[string]any{"question": "Q?", "consultants": []string{"command:alpha", "against=command:beta"}})
	if probs, _ := got["problems"].([]any); !isErr || len(probs) != 1 || !strings.HasPrefix(probs[0].(string), `consultants[1]: "command:beta" is not allowed on this server`) {
		t.Fatalf("start: %v", got)
	}
	open := connectWith(t, &Options{Version: "test", DeliberationDir: dir})
	started, isErr := call(t, open, "deliberation_start", map[string]any{"question": "Q?", "consultants": []string{"command:alpha", "command:beta"}})
	if isErr {
		t.Fatalf("start elsewhere: %v", started)
	}
	got, isErr = call(t, cs, "deliberation_send", map[string]any{"id": started["id"]})
	if probs, _ := got["problems"].([]any); !isErr || len(probs) != 1 || !strings.HasPrefix(probs[0].(string), `consultees.B: "command:beta" is not allowed on this server`) {
		t.Fatalf("send: %v", got)
	}
}

// TestCouncilStatusWritesNothing: deliberation_status on a council whose
// member failed in the background reports the failure and the step that
// follows from it, but leaves the council file as it was (bytes and
// modification time); deliberation_wait records the failure.
func TestCouncilStatusWritesNothing(t *testing.T) {
	alpha := &consult.Scripted{Replies: replies("1. Honour Retry-After. EVIDENCE.")}
	beta := &consult.Scripted{Replies: replies(&consult.Error{Kind: consult.KindAuth, Consultant: "command:beta", Message: "401 unauthorized", ExitCode: 1})}
	cs := councilServer(t, map[string]*consult.Scripted{"command:alpha": alpha, "command:beta": beta})
	started, isErr := call(t, cs, "deliberation_start", map[string]any{"question": "Q?", "consultants": []string{"command:alpha", "command:beta"}})
	if isErr {
		t.Fatalf("start: %v", started)
	}
	id, file := started["id"].(string), started["council_file"].(string)
	if got, isErr := call(t, cs, "deliberation_send", map[string]any{"id": id}); isErr {
		t.Fatalf("send: %v", got)
	}
	before, info := readStat(t, file)
	var got map[string]any
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		got, isErr = call(t, cs, "deliberation_status", map[string]any{"id": id})
		if isErr {
			t.Fatalf("status: %v", got)
		}
		if got["status"] == "done" || time.Now().After(deadline) {
			break
		}
	}
	if b := member(t, got, "B"); b["failed"] != true {
		t.Fatalf("status does not report B failed: %v", got)
	}
	if next := got["next"].(map[string]any); next["action"] != "evaluate" || member(t, next, "B")["status"] != "failed" {
		t.Fatalf("status's next step does not reckon with B's failure: %v", next)
	}
	after, infoAfter := readStat(t, file)
	if after != before || !infoAfter.ModTime().Equal(info.ModTime()) {
		t.Fatalf("status wrote the council file:\nbefore %s\nafter %s", before, after)
	}
	waitDone(t, cs, id)
	if recorded, _ := readStat(t, file); !strings.Contains(recorded, `"kind": "auth"`) {
		t.Fatalf("wait did not record B's failure:\n%s", recorded)
	}
}

func readStat(t *testing.T, path string) (string, os.FileInfo) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data), info
}

// TestCouncilMembersHaveTheirOwnModelAndEffort: each member carries its
// model and effort (an object, or the settings before a name), recorded in
// the council file and shown by status; a send's model and effort, given,
// are every member's for that send only.
func TestCouncilMembersHaveTheirOwnModelAndEffort(t *testing.T) {
	alpha := &consult.Scripted{Replies: replies("1. Cap retries at 3. GUESS.", "Still 3.")}
	beta := &consult.Scripted{Replies: replies("1. Cap retries at 5. GUESS.", "Still 5.")}
	cs := councilServer(t, map[string]*consult.Scripted{"command:alpha": alpha, "command:beta": beta})
	var mu sync.Mutex
	models := map[string][]string{}
	stub := sendConsultant
	sendConsultant = func(getenv func(string) string, name string, o *consult.CodexOptions) (consult.Consultant, error) {
		mu.Lock()
		models[name] = append(models[name], o.Model+"/"+o.Effort)
		mu.Unlock()
		return stub(getenv, name, o)
	}
	t.Cleanup(func() { sendConsultant = stub })

	got, isErr := call(t, cs, "deliberation_start", map[string]any{"question": "Q?", "consultants": []any{
		map[string]any{"consultant": "command:beta", "effort": "max", "colour": "red"}, "model=m,effort=low,command:alpha"}})
	if probs := fmt.Sprint(got["problems"]); !isErr || !strings.Contains(probs, `consultants[0]: must be a consultant name or {consultant, stance, model, effort} (json: unknown field "colour")`) ||
		!strings.Contains(probs, `consultants[1]: effort "low" is not one of high, xhigh`) {
		t.Fatalf("bad members: %v", got)
	}
	started, isErr := call(t, cs, "deliberation_start", map[string]any{"question": "Q?", "consultants": []any{
		map[string]any{"consultant": "command:alpha", "stance": "against", "model": "m-a", "effort": "xhigh"}, "model=m-b,command:beta"}})
	if isErr {
		t.Fatalf("start: %v", started)
	}
	id := started["id"].(string)
	a := member(t, started["next"].(map[string]any), "A")
	if a["model"] != "m-a" || a["effort"] != "xhigh" || a["stance"] != "against" || member(t, started["next"].(map[string]any), "B")["model"] != "m-b" {
		t.Fatalf("start's step: %v", started["next"])
	}
	if data, _ := readStat(t, started["council_file"].(string)); !strings.Contains(data, `"model": "m-a"`) || !strings.Contains(data, `"effort": "xhigh"`) {
		t.Fatalf("the council file lacks A's model and effort:\n%s", data)
	}

	call(t, cs, "deliberation_send", map[string]any{"id": id})
	waitDone(t, cs, id)
	councilEvaluate(t, cs, id, `{"round": 1, "consultees": {
	  "A": {"iteration": 1, "response": "valid", "points": [{"text": "cap retries at 3", "triage": "in-scope", "classification": "SKEPTICAL", "flaw": "3 is arbitrary"}]},
	  "B": {"iteration": 1, "response": "valid", "points": [{"text": "cap retries at 5", "triage": "in-scope", "classification": "SKEPTICAL", "flaw": "5 is arbitrary"}]}}}`)
	call(t, cs, "deliberation_send", map[string]any{"id": id, "model": "m-send", "effort": "high"})
	waitDone(t, cs, id)

	mu.Lock()
	defer mu.Unlock()
	if got, want := fmt.Sprint(models), "map[command:alpha:[m-a/xhigh m-send/high] command:beta:[m-b/ m-send/high]]"; got != want {
		t.Errorf("models and efforts built: %s, want %s", got, want)
	}
	var efforts []string
	for _, sc := range []*consult.Scripted{alpha, beta} {
		for _, c := range sc.Calls() {
			efforts = append(efforts, c.Request.Effort)
		}
	}
	if got, want := fmt.Sprint(efforts), "[xhigh high  high]"; got != want {
		t.Errorf("efforts asked: %s, want %s", got, want)
	}
	status, _ := call(t, cs, "deliberation_status", map[string]any{"id": id})
	if a := member(t, status["next"].(map[string]any), "A"); a["model"] != "m-a" || a["effort"] != "xhigh" {
		t.Errorf("after a send's own model, status shows A %v", a)
	}
}
