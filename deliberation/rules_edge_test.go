package deliberation

import (
	"strings"
	"testing"
)

// TestRuleEdgeCases: the rules where the seed leaves a case open: the
// empirical gate, arbitration at the cap, revisions, coverage, extended
// CONSTRUCTIVE runs, dependency claims and phase mismatches.
func TestRuleEdgeCases(t *testing.T) {
	t.Run("empirical gate: accepting on n/a needs a value claim", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. a", points(skeptical("the cache halves latency", "no measurement")))
		respond(t, s, "Re C1: it obviously does.")
		_, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"accepted","evidence_type":"n/a"}`))
		assertProblems(t, err, []string{"challenges[0].claim_type: the claim type of P1 is unknown: accepting on n/a needs claim_type value (a value judgment); an empirical claim needs execution or textual evidence"})
		_, err = evalJSON(s, challengeEval(`{"id":"C1","outcome":"accepted","evidence_type":"n/a","claim_type":"empirical"}`))
		assertProblems(t, err, []string{"challenges[0].evidence_type: the point is empirical: accepting it needs execution or textual evidence (otherwise a missing-data deadlock, Blocked)"})
		if _, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"accepted","evidence_type":"n/a","claim_type":"value"}`)); err != nil {
			t.Fatal(err)
		}
		if s.Points["P1"].ClaimType != "value" || bucketOf(s, "P1") != "buckets.agreed[0]" {
			t.Errorf("P1 %+v at %s", s.Points["P1"], bucketOf(s, "P1"))
		}
	})
	t.Run("arbitration requested at the cap is asked", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. x", points(skeptical("x", "fx"), agree("y")))
		s.Iteration, s.Phase = 8, Crystallization
		next := step(t, s, "1. nothing", `{"request_arbitration":true}`)
		if next.Action != ActionArbitrate || !s.Active() || bucketOf(s, "P1") != "buckets.unresolved[0]" {
			t.Fatalf("action %s, status %s, P1 at %s", next.Action, s.Status, bucketOf(s, "P1"))
		}
		next = step(t, s, "fine", `{"arbitration":{"flagged":[]}}`)
		if next.Action != ActionSynthesize || s.ExitReason != ExitCap {
			t.Errorf("after arbitration: action %s, exit %q", next.Action, s.ExitReason)
		}
	})
	t.Run("a different-core revision in DEVELOPMENT keeps the disputed claim", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. x", points(skeptical("write-through cache", "no invalidation plan")))
		step(t, s, "Re C1: it is fine.", challengeEval(`{"id":"C1","outcome":"rejected"}`))
		step(t, s, "Re C1: use a message queue instead.", `{"challenges":[{"id":"C1","outcome":"evaluating"}],
			"points":[{"text":"use a message queue","triage":"in-scope","revises":"P1","classification":"AGREE","claim_type":"value"}]}`)
		if bucketOf(s, "P1") != "disputed C1" || s.Points["P1"].Text != "write-through cache" {
			t.Errorf("P1 at %s: %+v", bucketOf(s, "P1"), s.Points["P1"])
		}
		if bucketOf(s, "P2") != "not_evaluated[0]" || !strings.Contains(s.NotEvaluated[0].Reason, "phase violation") {
			t.Errorf("the new argument at %s: %+v", bucketOf(s, "P2"), s.NotEvaluated)
		}
	})
	t.Run("coverage: client.go:1 is new after client.go:12", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. see client.go:12", points(agree("retry on 429")))
		step(t, s, "1. fine", points(agree("honour Retry-After")))
		next := step(t, s, "client.go:1 has no cap", `{"coverage":{"artifacts":["client.go:1"],"attack":true},"points":[`+skeptical("no cap at client.go:1", "unbounded retries")+`]}`)
		if next.Action != ActionCritique || bucketOf(s, "P3") != "disputed C1" {
			t.Errorf("action %s, P3 at %s, not evaluated %+v", next.Action, bucketOf(s, "P3"), s.NotEvaluated)
		}
	})
	t.Run("extended CONSTRUCTIVE runs", func(t *testing.T) {
		s := twoAgreed(t, "")
		next := step(t, s, "tests/x_test.go fails", `{"coverage":{"artifacts":["tests/x_test.go"],"attack":true,"summary":"retries break idempotency"},"points":[`+agree("idempotency keys are required")+`]}`)
		if next.Action != ActionCritique || s.Iteration != 3 || s.Phase != Constructive || !strings.Contains(next.Prompt, "Phase: CONSTRUCTIVE") || !strings.Contains(next.Prompt, "Extended CONSTRUCTIVE") {
			t.Fatalf("action %s, N=%d, phase %s:\n%s", next.Action, s.Iteration, s.Phase, next.Prompt)
		}
	})
	t.Run("grouped dependency claims need the concession", func(t *testing.T) {
		s := start(t, nil)
		dep := func(text string) string {
			return `{"text":"` + text + `","triage":"in-scope","classification":"SKEPTICAL","flaw":"no failing operation","group":"g","dependency":{"confidence":"GUESS"},"claim_type":"value"}`
		}
		step(t, s, "1. a 2. b", points(dep("redis for locks"), dep("redis for queues")))
		step(t, s, "Re C1: redis is standard.", challengeEval(`{"id":"C1","outcome":"adjudicated","bindings":[{"id":"P1","outcome":"withdrawn","evidence_type":"n/a"},{"id":"P2","outcome":"withdrawn","evidence_type":"n/a","concession":{"operation":"flock on NFS","evidence":"flock_test: EOPNOTSUPP"}}]}`))
		if bucketOf(s, "P1") != "buckets.dismissed[0]" || s.Buckets.Dismissed[0].Reason != "No concrete failure mode verified. Simpler version preferred." {
			t.Errorf("P1 at %s: %+v", bucketOf(s, "P1"), s.Buckets.Dismissed)
		}
		if bucketOf(s, "P2") != "buckets.agreed[0]" {
			t.Errorf("P2 at %s", bucketOf(s, "P2"))
		}
	})
	t.Run("a dependency dismissal is told to the consultee", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. redis", points(`{"text":"need redis for locks","triage":"in-scope","classification":"SKEPTICAL","flaw":"no failing operation named","claim_type":"value","dependency":{"confidence":"GUESS"}}`, skeptical("retry 5 times", "arbitrary")))
		next := step(t, s, "Re C1: redis is standard. Re C2: keep 5.", challengeEval(`{"id":"C1","outcome":"accepted","evidence_type":"n/a"}`, `{"id":"C2","outcome":"rejected"}`))
		if !strings.Contains(next.Prompt, "REJECT [C1: need redis for locks — No concrete failure mode verified. Simpler version preferred.]") {
			t.Errorf("the Evaluation line does not tell the dismissal:\n%s", next.Prompt)
		}
	})
	t.Run("coverage attack with NEW artifacts needs points", func(t *testing.T) {
		s := twoAgreed(t, "")
		respond(t, s, "tests/x_test.go fails")
		_, err := evalJSON(s, `{"coverage":{"artifacts":["tests/x_test.go"],"attack":true,"summary":"retries break idempotency"}}`)
		assertProblems(t, err, []string{"points: the coverage answer cites NEW evidence (tests/x_test.go) that passes the ATTACK test: give the gap as points (they enter the deliberation), or set attack false"})
	})
	t.Run("a phase mismatch is logged", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. x", points(skeptical("x", "fx")))
		s.Phase = Crystallization
		step(t, s, "Re C1: fine", challengeEval(`{"id":"C1","outcome":"evaluating"}`))
		if !strings.Contains(strings.Join(s.Warnings, "\n"), "phase mismatch at iteration 2: stored CRYSTALLIZATION, derived CONSTRUCTIVE (the stored phase is used)") {
			t.Errorf("warnings %q", s.Warnings)
		}
	})
}
