package deliberation

import (
	"encoding/json"
	"strings"
	"testing"
)

// The scenarios of issue 13, one test per reproduced defect: each failed
// before its fix.

// Defect 1: two anchor shifts end the deliberation, but the agreed points
// and the suggested reframings are still synthesized.
func TestIssue13AnchorShiftKeepsTheWork(t *testing.T) {
	s := start(t, nil)
	next := step(t, s, "1. a 2. b 3. c", points(agree("honour Retry-After"),
		`{"text":"ask whether to import at all","triage":"anchor-shift"}`,
		`{"text":"reframe as a queue design","triage":"anchor-shift"}`))
	if next.Action != ActionSynthesize || s.ExitReason != ExitAnchorShift || next.Reason != exitMsgAnchorShift {
		t.Fatalf("two anchor shifts: action %s, exit %q, reason %q", next.Action, s.ExitReason, next.Reason)
	}
	y, err := Synthesize(s)
	if err != nil {
		t.Fatalf("synthesize refused: %v", err)
	}
	md := y.Markdown()
	for _, want := range []string{"| P1 | honour Retry-After | n/a |", "Suggested reframings", "P2: ask whether to import at all", "P3: reframe as a queue design", exitMsgAnchorShift} {
		if !strings.Contains(md, want) {
			t.Errorf("synthesis lacks %q:\n%s", want, md)
		}
	}
	if y.PermittedBy == "" || y.Inconclusive {
		t.Errorf("permitted by %q, inconclusive %v", y.PermittedBy, y.Inconclusive)
	}
}

// Defect 6: the Recovery prompt keeps the special steps, the last
// Evaluation line and what the consultee defended.
func TestIssue13RecoveryKeepsSpecialSteps(t *testing.T) {
	t.Run("stress test lists the agreed points", func(t *testing.T) {
		s := twoAgreed(t, `,"require_stress_test":true`)
		step(t, s, "nothing new", `{"coverage":{}}`)
		if s.Next.Action != ActionStress {
			t.Fatalf("action %s", s.Next.Action)
		}
		rec := s.Recovery()
		for _, want := range []string{"- P1: retry on 429", "- P2: honour Retry-After", "Steelman strongest objection"} {
			if !strings.Contains(rec, want) {
				t.Errorf("recovery at the stress test lacks %q:\n%s", want, rec)
			}
		}
		if strings.Contains(rec, "Revise or defend") {
			t.Errorf("recovery at the stress test asks to revise or defend:\n%s", rec)
		}
	})
	t.Run("arbitration asks the arbiter's question without attribution", func(t *testing.T) {
		s := reachArbitration(t)
		rec := s.Recovery()
		if !strings.Contains(rec, "Are agreed points well-supported?") || strings.Contains(rec, "Revise or defend") || strings.Contains(rec, "You argued") {
			t.Errorf("recovery at arbitration:\n%s", rec)
		}
	})
	t.Run("the last Evaluation line and the defense", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. a 2. b", points(skeptical("retry 5 times", "5 is arbitrary"), agree("honour Retry-After")))
		step(t, s, "Re C1: 5 matches the upstream SLA of 5 attempts.", challengeEval(`{"id":"C1","outcome":"rejected","reason":"the SLA is not cited"}`))
		rec := s.Recovery()
		for _, want := range []string{
			"Evaluation: SKEPTICAL [C1: defense not accepted — the SLA is not cited].",
			"You defended: Re C1: 5 matches the upstream SLA of 5 attempts.",
		} {
			if !strings.Contains(rec, want) {
				t.Errorf("recovery lacks %q:\n%s", want, rec)
			}
		}
	})
}

func reachArbitration(t *testing.T) *State {
	t.Helper()
	blocked := func(text string) string {
		return `{"text":"` + text + `","triage":"in-scope","classification":"BLOCKED","blocked":{"measurement":"m","threshold":"t","verdict_delta":"d"}}`
	}
	s := start(t, nil)
	step(t, s, "1. a 2. b 3. c", points(blocked("a"), blocked("b"), agree("c")))
	step(t, s, "nothing", `{}`)
	if next := step(t, s, "nothing", `{"coverage":{}}`); next.Action != ActionArbitrate {
		t.Fatalf("two unresolved: action %s", next.Action)
	}
	return s
}

// Defect 7: the rule gaps.
func TestIssue13RuleGaps(t *testing.T) {
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

// Defect 8: prompt text reads as sentences.
func TestIssue13PromptTextNotGarbled(t *testing.T) {
	s := start(t, nil)
	next := step(t, s, "1. a 2. b", points(
		`{"text":"write-through is simpler.","triage":"in-scope","classification":"SKEPTICAL","claim_type":"value","ungrounded":true}`,
		`{"text":"which session cache","triage":"in-scope","classification":"ILL-FORMED","clarify":"the HTTP session cache or the token cache?"}`,
		skeptical("retry 5 times.", "5 is arbitrary.")))
	for _, bad := range []string{"because Reframe", "because it is ambiguous", "simpler. because", "times. because", "arbitrary.."} {
		if strings.Contains(next.Prompt, bad) {
			t.Errorf("prompt contains %q:\n%s", bad, next.Prompt)
		}
	}
	for _, want := range []string{
		"C1: write-through is simpler — a value claim without an observable referent: reframe with observable referents or withdraw",
		`P2 ("which session cache") is unevaluable as stated. Clarify: the HTTP session cache or the token cache?`,
		"C2: retry 5 times because 5 is arbitrary",
	} {
		if !strings.Contains(next.Prompt, want) {
			t.Errorf("prompt lacks %q:\n%s", want, next.Prompt)
		}
	}
}

// Defect 9: every problem of an evaluation document in one pass, and the
// IDs an evaluation assigned.
func TestIssue13EvaluationProblemsInOnePass(t *testing.T) {
	s := start(t, nil)
	respond(t, s, "1. a")
	_, err := s.EvaluateJSON([]byte(`{"iteration":1,"response":"valid","points":[
		{"text":"a","triage":"in-scope","clasification":"AGREE"},
		{"text":"b","triage":"sideways","classification":"SKEPTICAL"},
		{"text":"c","triage":"in-scope","classification":"AGREE","claim_type":7}],
		"surfaced_questions":[""]}`), t0)
	assertProblems(t, err, []string{
		`points[0].clasification: unknown key; did you mean "classification"?`,
		"points[2].claim_type: is a number (7), want a string",
		`points[1].triage: is "sideways", want in-scope, out-of-scope or anchor-shift`,
		"points[1].flaw: is required for SKEPTICAL (the flaw in one sentence; if you cannot state one, use ILL-FORMED)",
		"surfaced_questions[0]: is empty",
	})
}

func TestIssue13EvaluateReturnsAssignedIDs(t *testing.T) {
	s := start(t, &StartOptions{Facts: []string{"no new infrastructure"}})
	respond(t, s, "1. a 2. b 3. c")
	next, err := s.EvaluateJSON([]byte(`{"iteration":1,"response":"valid",
		"facts":[{"tag":"verified","ref":"client.py:88","text":"429 carries Retry-After"}],
		"points":[`+agree("honour Retry-After")+`,`+skeptical("retry 5 times", "arbitrary")+`,{"text":"use gRPC","triage":"out-of-scope"}]}`), t0)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(next.Assigned)
	want := `{"points":[{"path":"points[0]","id":"P1","at":"agreed"},{"path":"points[1]","id":"P2","at":"disputed","challenge":"C1"},{"path":"points[2]","id":"P3","at":"dismissed"}],"challenges":[{"id":"C1","points":["P2"]}],"facts":[{"path":"facts[0]","id":"F2"}]}`
	if string(got) != want {
		t.Errorf("assigned:\n%s\nwant\n%s", got, want)
	}
	// The next answer's step (what respond and send print) assigned
	// nothing: the evaluation's IDs are not repeated there.
	respond(t, s, "Re C1: 3 retries")
	if s.Next.Assigned != nil {
		t.Errorf("after respond, next.assigned = %+v", s.Next.Assigned)
	}
}

// Defect 10: the Solution Space Mapping and drift.
func TestIssue13SSMAndDrift(t *testing.T) {
	t.Run("a missing map is named at start", func(t *testing.T) {
		s := start(t, nil)
		if n := s.Notes(); len(n) != 1 || !strings.Contains(n[0], "no Solution Space Mapping") {
			t.Errorf("notes %q", n)
		}
		part := start(t, &StartOptions{SSM: SSM{Shape: "a retry policy"}})
		if n := part.Notes(); len(n) != 1 || !strings.Contains(n[0], "tangents, drift_signals") {
			t.Errorf("notes %q", n)
		}
		full := start(t, &StartOptions{SSM: SSM{Shape: "a", Tangents: "b", DriftSignals: "c"}})
		quick := start(t, &StartOptions{Quick: true})
		if len(full.Notes())+len(quick.Notes()) != 0 {
			t.Errorf("notes %q %q", full.Notes(), quick.Notes())
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

// A person's recover waits for a running consultation (its answer would
// be for a prompt no longer pending); once it ended, recover works.
func TestIssue13RecoverWaitsForAConsultation(t *testing.T) {
	st, _ := newTestStore(t)
	id, _, _ := st.Start("Retry?", nil)
	if _, err := st.BeginConsultation(id, NewConsultation("codex", true), false); err != nil {
		t.Fatal(err)
	}
	if _, err := st.RecoverIdle(id); err == nil || !strings.Contains(err.Error(), "codex is being consulted on iteration 1") {
		t.Errorf("recover while consulting: %v", err)
	}
	if _, err := st.EndConsultation(id, "canceled", true); err != nil {
		t.Fatal(err)
	}
	if p, err := st.RecoverIdle(id); err != nil || !strings.Contains(p, "SESSION RECOVERY") {
		t.Errorf("recover after: %v", err)
	}
}
