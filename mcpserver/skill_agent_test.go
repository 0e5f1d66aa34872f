package mcpserver

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// contradicts is the part of an evidence point that contradicts point id
// the way the skill says ("refutes: the point it contradicts").
func contradicts(id string) map[string]any { return map[string]any{"refutes": id} }

// TestSkillAndToolsListSuffice is an agent that knows only what the
// deliberate skill (the MCP prompt "deliberate") and tools/list say, and
// never reads a resource: with a scripted consultant it runs a
// deliberation through a challenge, a decisive contradiction of an agreed
// claim, the coverage check and the synthesis. Every key of its
// evaluations is named in the skill and passes deliberation_evaluate's
// input schema before it is sent.
func TestSkillAndToolsListSuffice(t *testing.T) {
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{
		{Reply: consult.Reply{SessionID: "s1", Text: "1. Honour Retry-After (client.py:88 parses it). EVIDENCE.\n" +
			"2. Retry 5 times with exponential backoff. GUESS.\n" +
			"3. codex emits an event at least every 5 minutes, so a 5-minute idle timeout is enough (docs/events.md:12). EVIDENCE."}},
		{Reply: consult.Reply{Text: "Re C1: I concede C1; 5 is arbitrary.\n" +
			"4. Measured: the longest gap between codex events was 11 min 40 s (go test -run TestIdleGap: PASS, gap=700s). EVIDENCE."}},
		{Reply: consult.Reply{Text: "Nothing missing beyond client.py:88 and the measured gap."}},
	}}
	old := sendConsultant
	sendConsultant = func(func(string) string, string, *consult.CodexOptions) (consult.Consultant, error) { return sc, nil }
	t.Cleanup(func() { sendConsultant = old })
	opts := &Options{Version: "test", Project: t.TempDir(), DeliberationDir: t.TempDir(), Background: NewBackground()}
	t.Cleanup(func() { opts.Background.Stop(10 * time.Second) })

	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := New(opts).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "0"}, nil)
	var mu sync.Mutex
	var methods []string
	client.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			mu.Lock()
			methods = append(methods, method)
			mu.Unlock()
			return next(ctx, method, req)
		}
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })

	// What the agent is given: the skill and tools/list.
	p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "deliberate", Arguments: map[string]string{"question": "Should the importer retry on HTTP 429?"}})
	if err != nil {
		t.Fatal(err)
	}
	var skill strings.Builder
	for _, m := range p.Messages {
		if tc, ok := m.Content.(*mcp.TextContent); ok {
			skill.WriteString(tc.Text)
		}
	}
	// The names the skill gives: every word in its code spans.
	named := map[string]bool{}
	for _, span := range regexp.MustCompile("`[^`]+`").FindAllString(skill.String(), -1) {
		for _, w := range regexp.MustCompile(`[a-z_]+`).FindAllString(span, -1) {
			named[w] = true
		}
	}
	raw, _ := json.Marshal(evaluateInput(t, cs))
	var s jsonschema.Schema
	json.Unmarshal(raw, &s)
	schema, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}

	tool := func(name string, args map[string]any) map[string]any {
		t.Helper()
		if !named[name] {
			t.Errorf("the skill does not name the tool %s", name)
		}
		for k := range args {
			if !named[k] {
				t.Errorf("the skill does not name %s's argument %s", name, k)
			}
		}
		got, isErr := call(t, cs, name, args)
		if isErr {
			t.Fatalf("%s: %v", name, got["problems"])
		}
		return got
	}
	// keys checks that every key of an evaluation is one the skill names.
	var keys func(path string, v any)
	keys = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if !named[k] {
					t.Errorf("%s.%s: the skill does not name %s", path, k, k)
				}
				keys(path+"."+k, x)
			}
		case []any:
			for _, x := range v {
				keys(path+"[]", x)
			}
		}
	}
	evaluate := func(id string, doc string, patch ...map[string]any) map[string]any {
		t.Helper()
		var ev map[string]any
		if err := json.Unmarshal([]byte(doc), &ev); err != nil {
			t.Fatal(err)
		}
		for _, p := range patch {
			pts := ev["points"].([]any)
			for k, v := range p {
				pts[len(pts)-1].(map[string]any)[k] = v
			}
		}
		keys("evaluation", ev)
		if err := schema.Validate(ev); err != nil {
			t.Fatalf("the tool's schema refuses the evaluation: %v\n%s", err, doc)
		}
		return tool("deliberation_evaluate", map[string]any{"id": id, "evaluation": ev})
	}
	// consult sends the pending prompt and waits for the answer (the
	// skill: send, then wait again while running).
	consult := func(id string) string {
		t.Helper()
		tool("deliberation_send", map[string]any{"id": id})
		for range 20 {
			got := tool("deliberation_wait", map[string]any{"id": id})
			if got["status"] == "done" {
				return got["result"].(map[string]any)["answer"].(string)
			}
			if got["status"] != "running" {
				t.Fatalf("wait: %v", got)
			}
		}
		t.Fatal("the consultation never ended")
		return ""
	}
	assigned := func(next map[string]any, path string) string {
		for _, p := range next["assigned"].(map[string]any)["points"].([]any) {
			if p := p.(map[string]any); p["path"] == path {
				return p["id"].(string)
			}
		}
		t.Fatalf("no ID assigned to %s: %v", path, next["assigned"])
		return ""
	}

	started := tool("deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?", "facts": []any{"no new infrastructure"}})
	id := started["id"].(string)

	// Iteration 1: one point agreed, one challenged, one agreed on a quote.
	if a := consult(id); !strings.Contains(a, "Retry-After") {
		t.Fatalf("answer %q", a)
	}
	next := evaluate(id, `{"iteration": 1, "response": "valid", "points": [
		{"text": "honour Retry-After", "triage": "in-scope", "kind": "argument", "classification": "AGREE", "claim_type": "empirical", "evidence_type": "textual", "reason": "client.py:88 parses the header"},
		{"text": "retry 5 times with exponential backoff", "triage": "in-scope", "classification": "SKEPTICAL", "flaw": "5 is arbitrary: no failure rate measured", "upgrade_if": "a measured 429 rate"},
		{"text": "a 5-minute idle timeout is enough", "triage": "in-scope", "classification": "AGREE", "claim_type": "empirical", "evidence_type": "textual", "reason": "docs/events.md:12"}]}`)
	if next["action"] != "critique" || !strings.Contains(next["prompt"].(string), "C1: retry 5 times") {
		t.Fatalf("after iteration 1: %v", next)
	}
	timeout := assigned(next, "points[2]")

	// Iteration 2: the challenge conceded; measured evidence contradicts
	// the agreed timeout claim's exact predicate.
	if a := consult(id); !strings.Contains(a, "Re C1") {
		t.Fatalf("answer %q", a)
	}
	next = evaluate(id, `{"iteration": 2, "response": "valid", "challenges": [{"id": "C1", "outcome": "conceded"}], "points": [
		{"text": "measured: the longest gap between codex events was 11 min 40 s", "triage": "in-scope", "kind": "evidence", "decisive": true,
		 "classification": "AGREE", "claim_type": "empirical", "evidence_type": "execution", "reason": "go test -run TestIdleGap: gap=700s"}]}`, contradicts(timeout))
	if next["action"] != "coverage_check" {
		t.Fatalf("after iteration 2: %v", next)
	}

	// The coverage check: nothing NEW.
	consult(id)
	next = evaluate(id, `{"iteration": 2, "response": "valid", "coverage": {"artifacts": ["client.py:88"], "attack": false, "summary": "nothing missing"}}`)
	if next["action"] != "synthesize" {
		t.Fatalf("after the coverage check: %v", next)
	}

	y := tool("deliberation_synthesize", map[string]any{"id": id, "answer": "Yes: honour Retry-After; no fixed retry cap, and the idle timeout must exceed 12 minutes."})
	md := y["markdown"].(string)
	for _, want := range []string{
		"**Answer:** Yes: honour Retry-After; no fixed retry cap, and the idle timeout must exceed 12 minutes.\n",
		"| P1 | honour Retry-After | textual | client.py:88 parses the header |",
		"| P2 | retry 5 times with exponential backoff | CONCEDED | explicitly (iter 2) |",
		"| " + timeout + " | a 5-minute idle timeout is enough | REJECTED | contradicted by decisive evidence: measured: the longest gap between codex events was 11 min 40 s |",
		"| P4 | measured: the longest gap between codex events was 11 min 40 s | execution | go test -run TestIdleGap: gap=700s |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the synthesis lacks %q:\n%s", want, md)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if slices.Contains(methods, "resources/read") || slices.Contains(methods, "resources/list") {
		t.Errorf("the agent read a resource: %v", methods)
	}
}

// TestSkillNamesEveryEvaluationField: every field of the evaluation
// document, as deliberation_evaluate's input schema lists it, is named in
// the deliberate skill (a field the schema gains must be taught there
// too), and the skill stays within about 6 KB.
func TestSkillNamesEveryEvaluationField(t *testing.T) {
	cs := connectWith(t, &Options{Version: "test", DeliberationDir: t.TempDir()})
	p, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "deliberate"})
	if err != nil {
		t.Fatal(err)
	}
	var skill string
	for _, m := range p.Messages {
		if tc, ok := m.Content.(*mcp.TextContent); ok {
			skill += tc.Text
		}
	}
	named := map[string]bool{}
	for _, span := range regexp.MustCompile("`[^`]+`").FindAllString(skill, -1) {
		for _, w := range regexp.MustCompile(`[A-Za-z_/-]+`).FindAllString(span, -1) {
			named[w] = true
		}
	}
	var missing []string
	var walk func(path string, s map[string]any)
	walk = func(path string, s map[string]any) {
		if props, ok := s["properties"].(map[string]any); ok {
			for name, p := range props {
				if !named[name] {
					missing = append(missing, path+"."+name)
				}
				walk(path+"."+name, p.(map[string]any))
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			walk(path+"[]", items)
		}
		if e, ok := s["enum"].([]any); ok {
			for _, v := range e {
				if v, _ := v.(string); !named[v] {
					missing = append(missing, path+" = "+v)
				}
			}
		}
	}
	walk("evaluation", evaluateInput(t, cs))
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("the deliberate skill does not name:\n%s", strings.Join(missing, "\n"))
	}
	if len(skill) > 6200 {
		t.Errorf("the skill is %d bytes, over about 6 KB", len(skill))
	}
}
