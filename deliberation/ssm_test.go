package deliberation

import (
	"strings"
	"testing"
)

// TestSolutionSpaceMappingAndDrift: the Solution Space Mapping and drift.
func TestSolutionSpaceMappingAndDrift(t *testing.T) {
	t.Run("a missing map is named at start", func(t *testing.T) {
		s := start(t, nil)
		if n := s.NotesNaming("the inputs"); len(n) != 1 || !strings.Contains(n[0], "no Solution Space Mapping") {
			t.Errorf("notes %q", n)
		}
		part := start(t, &StartOptions{SSM: SSM{Shape: "a retry policy"}})
		if n := part.NotesNaming("the inputs"); len(n) != 1 || !strings.Contains(n[0], "tangents, drift_signals") {
			t.Errorf("notes %q", n)
		}
		full := start(t, &StartOptions{SSM: SSM{Shape: "a", Tangents: "b", DriftSignals: "c"}})
		quick := start(t, &StartOptions{Quick: true})
		if len(full.NotesNaming("the inputs"))+len(quick.NotesNaming("the inputs")) != 0 {
			t.Errorf("notes %q %q", full.NotesNaming("the inputs"), quick.NotesNaming("the inputs"))
		}
	})
	t.Run("tangents and drift are counted and shown in the next prompt", func(t *testing.T) {
		s := start(t, &StartOptions{SSM: SSM{Shape: "a retry policy for 429", Tangents: "transport changes", DriftSignals: "talk of rewriting the client"}})
		next := step(t, s, "1. a 2. b 3. c", points(
			`{"text":"switch to gRPC","triage":"out-of-scope","drift":"tangent"}`,
			`{"text":"rewrite the client in Rust","triage":"in-scope","drift":"drift","classification":"SKEPTICAL","flaw":"unrelated to 429 handling"}`,
			skeptical("retry 5 times", "arbitrary")))
		if s.Counters.Tangents != 1 || s.Counters.Drift != 1 {
			t.Errorf("counters %+v", s.Counters)
		}
		if s.Buckets.Dismissed[0].Reason != "tangent" {
			t.Errorf("dismissed %+v", s.Buckets.Dismissed)
		}
		if !strings.Contains(next.Prompt, "Drift: P1 (tangent), P2 (drift) left the question. Keep to it: a retry policy for 429.") {
			t.Errorf("prompt:\n%s", next.Prompt)
		}
	})
	t.Run("degraded context leads to a recover action in a fresh session", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. x", points(skeptical("x", "fx")))
		respond(t, s, "What was the question again?")
		next, err := evalJSON(s, `{"response":"degraded_context","degraded":["ignores_challenges","asks_settled"]}`)
		if err != nil {
			t.Fatal(err)
		}
		if next.Action != ActionRecover || next.For != ActionCritique || s.Iteration != 2 || !s.FreshSession || !strings.Contains(next.Prompt, "SESSION RECOVERY at iteration 2/8") {
			t.Fatalf("action %s for %s, N=%d, fresh %v:\n%s", next.Action, next.For, s.Iteration, s.FreshSession, next.Prompt)
		}
		if !strings.Contains(strings.Join(s.Warnings, "\n"), "Degraded context at iteration 2 (ignores_challenges, asks_settled)") {
			t.Errorf("warnings %q", s.Warnings)
		}
		next = step(t, s, "Re C1: conceded.", challengeEval(`{"id":"C1","outcome":"conceded"}`))
		if next.Action != ActionCritique && next.Action != ActionCoverage {
			t.Errorf("after the recovered answer: %s", next.Action)
		}
	})
}
