package deliberation

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDocsWorkedExample runs the worked example of docs/deliberation.md:
// its evaluation documents decode strictly and walk the deliberation to the
// synthesis the page shows.
func TestDocsWorkedExample(t *testing.T) {
	page, err := os.ReadFile("../docs/deliberation.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)<!-- evaluation example: [^>]*-->\n```json\n(.*?)```").FindAllSubmatch(page, -1)
	if len(blocks) != 3 {
		t.Fatalf("found %d evaluation examples, want 3", len(blocks))
	}
	answers := []string{
		"1. Honour Retry-After (client.py:88 parses it). EVIDENCE.\n2. Retry 5 times with exponential backoff. GUESS.",
		"Re C1: I concede C1; the cap is arbitrary.",
		"Nothing beyond client.py:88.",
	}
	s, err := New("Should the importer retry on HTTP 429?", &StartOptions{Facts: []string{"no new infrastructure"}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range blocks {
		respond(t, s, answers[i])
		ev, err := DecodeEvaluation(b[1])
		if err != nil {
			t.Fatalf("example %d: %v", i+1, err)
		}
		if _, err := s.Evaluate(ev, t0); err != nil {
			t.Fatalf("example %d: %v", i+1, err)
		}
		if i > 0 {
			continue
		}
		if tail := s.Next.Prompt[strings.Index(s.Next.Prompt, "Iteration"):]; !strings.Contains(string(page), tail) {
			t.Errorf("the page's Subsequent Call differs from the engine's:\n%s", tail)
		}
		// The whole of it, from its first line (the question as data).
		if whole := "```\n" + strings.TrimRight(s.Next.Prompt, "\n") + "\n```"; !strings.Contains(string(page), whole) {
			t.Errorf("the page's Subsequent Call is not the engine's whole prompt:\n%s", s.Next.Prompt)
		}
	}
	y, err := synthesize(s, testAnswer)
	if err != nil {
		t.Fatal(err)
	}
	head := strings.TrimRight(y.Markdown()[:strings.Index(y.Markdown(), "## SURFACED")], "\n") + "\n"
	if !strings.Contains(string(page), head) {
		t.Errorf("the page's synthesis differs from the engine's:\n%s", head)
	}
}

// TestDocsVerdictExamples applies every verdict example of
// docs/deliberation.md to a deliberation in the situation it names: each
// must pass as it is.
func TestDocsVerdictExamples(t *testing.T) {
	page, err := os.ReadFile("../docs/deliberation.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)<!-- verdict example: ([a-z]+) -->\n```json\n(.*?)```").FindAllSubmatch(page, -1)
	if len(blocks) < 15 {
		t.Fatalf("found %d verdict examples", len(blocks))
	}
	skeptical1 := points(skeptical("retry 5 times", "5 is arbitrary"))
	setups := map[string]func(t *testing.T) *State{
		"points": func(t *testing.T) *State {
			s := start(t, nil)
			respond(t, s, "1. a")
			return s
		},
		"clarification": func(t *testing.T) *State {
			s := start(t, nil)
			step(t, s, "1. it depends", points(`{"text":"it depends on the load","triage":"in-scope","classification":"ILL-FORMED","flaw":"no referent for the load","clarify":"which load?"}`, agree("b")))
			respond(t, s, "under 100/s")
			return s
		},
		"challenge": func(t *testing.T) *State {
			s := start(t, nil)
			step(t, s, "1. retry 5 times", skeptical1)
			respond(t, s, "Re C1: the SLA names 5 attempts.")
			return s
		},
		"grouped": func(t *testing.T) *State {
			s := start(t, nil)
			g := `{"text":"%s","triage":"in-scope","classification":"SKEPTICAL","flaw":"no measurement","group":"g"}`
			step(t, s, "1. a 2. b", points(fmt.Sprintf(g, "a"), fmt.Sprintf(g, "b")))
			respond(t, s, "Re C1: both hold.")
			return s
		},
		"deadlock": func(t *testing.T) *State {
			s := start(t, nil)
			step(t, s, "1. retry 5 times", skeptical1)
			step(t, s, "Re C1: keep 5.", challengeEval(`{"id":"C1","outcome":"rejected"}`))
			step(t, s, "Re C1: keep 5.", challengeEval(`{"id":"C1","outcome":"rejected"}`))
			respond(t, s, "Re C1: keep 5.")
			return s
		},
		"decisive": func(t *testing.T) *State {
			s := start(t, nil)
			step(t, s, "1. a 5-minute idle timeout is enough 2. the timer resets on each event", points(
				`{"text":"a 5-minute idle timeout is enough","triage":"in-scope","classification":"BLOCKED","blocked":{"measurement":"longest gap between codex events","threshold":"5 min","verdict_delta":"over: REJECT"}}`,
				skeptical("the timer resets on each event", "not shown")))
			respond(t, s, "Re C1: go test -run TestIdle passes. Measured: longest gap 11 min 40 s.")
			return s
		},
		"coverage": func(t *testing.T) *State {
			s := twoAgreed(t, "")
			respond(t, s, "tests/retry_test.go:31 fails on a retried POST")
			return s
		},
		"stress": func(t *testing.T) *State {
			s := twoAgreed(t, `,"require_stress_test":true`)
			step(t, s, "nothing new", `{"coverage":{}}`)
			respond(t, s, "Objection: retries amplify an outage. Mitigable. Impact: P1.")
			return s
		},
		"arbitration": func(t *testing.T) *State {
			s := reachArbitration(t)
			respond(t, s, "P3 rests on a claim.")
			return s
		},
	}
	for i, b := range blocks {
		setup := setups[string(b[1])]
		if setup == nil {
			t.Fatalf("example %d names no known situation %q", i+1, b[1])
		}
		s := setup(t)
		if _, err := s.evaluateJSON(b[2], t0); err != nil {
			t.Errorf("example %d (%s):\n%s\n%v", i+1, b[1], b[2], err)
		}
	}
}
