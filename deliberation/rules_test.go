package deliberation

import (
	"slices"
	"strings"
	"testing"
)

func TestReferences(t *testing.T) {
	got := references("Re C1: fine. Regarding C12, see C1 again; C3: ok. CC4, C0 and xC5 are not refs.")
	if strings.Join(got, " ") != "C1 C12 C3" {
		t.Errorf("References = %v", got)
	}
}

func TestIterationAdvancesOnlyAfterValidResponse(t *testing.T) {
	s := start(t, nil)
	next := step(t, s, "garbage", `{"response":"format_failure"}`)
	if next.Action != ActionRetry || s.Iteration != 1 || s.LastFailureType != "format" {
		t.Fatalf("after a format failure: action %s, N=%d, last_failure_type %s", next.Action, s.Iteration, s.LastFailureType)
	}
	if !strings.Contains(next.Prompt, "Iteration 1/8 (RETRY #1).") {
		t.Errorf("retry prompt lacks the retry header:\n%s", next.Prompt)
	}
	next = step(t, s, "1. retry with backoff", points(agree("retry with backoff")))
	if next.Action != ActionCritique || s.Iteration != 2 || s.LastFailureType != "none" {
		t.Fatalf("after a valid response: action %s, N=%d, last_failure_type %s", next.Action, s.Iteration, s.LastFailureType)
	}
	if !strings.Contains(next.Prompt, "Iteration 2/8. Phase: CONSTRUCTIVE") {
		t.Errorf("subsequent call header:\n%s", next.Prompt)
	}
}

func TestSecondConsecutiveFailureExitsQuality(t *testing.T) {
	s := start(t, nil)
	step(t, s, "garbage", `{"response":"quality_failure"}`)
	if !strings.Contains(s.Next.Prompt, qualityNote) {
		t.Errorf("quality retry lacks the quality note")
	}
	next := step(t, s, "garbage again", `{"response":"format_failure"}`)
	if s.Status != StatusFinished || s.ExitReason != ExitQuality || next.Action != ActionSynthesize || s.Iteration != 1 {
		t.Errorf("status %s, exit %q, action %s, N=%d", s.Status, s.ExitReason, next.Action, s.Iteration)
	}
}

func TestFailureThenValidThenFailureDoesNotExit(t *testing.T) {
	s := start(t, nil)
	step(t, s, "x", `{"response":"format_failure"}`)
	step(t, s, "1. a", points(agree("a")))
	step(t, s, "x", `{"response":"format_failure"}`)
	if !s.Active() || s.Next.Action != ActionRetry || !strings.Contains(s.Next.Prompt, "(RETRY #2)") {
		t.Errorf("status %s, action %s", s.Status, s.Next.Action)
	}
}

func TestTriage(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. a 2. b 3. c", points(
		`{"text":"use gRPC","triage":"out-of-scope","reason":"transport is fixed"}`,
		`{"text":"ask whether to import at all","triage":"anchor-shift"}`,
		`{"text":"measure 429 rate first","triage":"anchor-shift","serves_anchor":true,"classification":"AGREE","claim_type":"value"}`,
	))
	if got := bucketOf(s, "P1"); got != "buckets.dismissed[0]" || s.Buckets.Dismissed[0].Tag != TagOutOfScope {
		t.Errorf("out-of-scope point at %s", got)
	}
	if got := bucketOf(s, "P2"); got != "buckets.unresolved[0]" || s.Buckets.Unresolved[0].Status != UnresolvedAnchorShift {
		t.Errorf("anchor-shift point at %s", got)
	}
	if got := bucketOf(s, "P3"); got != "buckets.agreed[0]" {
		t.Errorf("anchor-serving point at %s", got)
	}
	if !s.Active() {
		t.Fatal("one anchor shift must not exit")
	}
	next := step(t, s, "1. d", points(`{"text":"reframe as a queue design","triage":"anchor-shift"}`))
	if next.Action != ActionSynthesize || s.ExitReason != ExitAnchorShift || next.Reason != exitMsgAnchorShift {
		t.Errorf("two anchor shifts: action %s, exit %q", next.Action, s.ExitReason)
	}
}

func TestClassificationGates(t *testing.T) {
	tests := []struct {
		name, point string
		want        []string
	}{
		{"SKEPTICAL needs a flaw", `{"text":"a","triage":"in-scope","classification":"SKEPTICAL"}`,
			[]string{"points[0].flaw: is required for SKEPTICAL (the flaw in one sentence; if you cannot state one, use ILL-FORMED)"}},
		{"Flaw none with SKEPTICAL", `{"text":"a","triage":"in-scope","classification":"SKEPTICAL","flaw":"none"}`,
			[]string{`points[0].flaw: "none" with SKEPTICAL is a contradiction: articulate the flaw or revise to AGREE`}},
		{"REJECT needs the full block", `{"text":"a","triage":"in-scope","classification":"REJECT","flaw":"None"}`, []string{
			`points[0].flaw: "None" with REJECT is a contradiction: articulate the flaw or revise to AGREE`,
			`points[0].claim_type: is "", want empirical or value`,
			"points[0].evidence: is required for REJECT (execution, textual or reasoning supporting the rejection)",
			"points[0].why_terminal: is required for REJECT (why SKEPTICAL is insufficient)"}},
		{"empirical AGREE on a claim", `{"text":"a","triage":"in-scope","classification":"AGREE","claim_type":"empirical","evidence_type":"claim"}`,
			[]string{`points[0].evidence_type: is "claim": an empirical AGREE needs execution or textual evidence (otherwise BLOCKED)`}},
		{"AGREE on an unverified fact", `{"text":"a","triage":"in-scope","classification":"AGREE","claim_type":"value","relies_on":["F2","F9"]}`, []string{
			"points[0].relies_on[0]: F2 is codex-unverified: it cannot justify an AGREE (verify it first)",
			`points[0].relies_on[1]: "F9" is not in the ledger`}},
		{"ILL-FORMED needs a question", `{"text":"a","triage":"in-scope","classification":"ILL-FORMED","flaw":"no referent"}`,
			[]string{"points[0].clarify: is required for ILL-FORMED (the question that would make the point evaluable)"}},
		{"BLOCKED needs measurement, threshold, verdict delta", `{"text":"a","triage":"in-scope","classification":"BLOCKED","blocked":{"measurement":"write QPS"}}`, []string{
			"points[0].blocked.threshold: is required (Blocked = measurement + threshold + verdict delta)",
			"points[0].blocked.verdict_delta: is required (Blocked = measurement + threshold + verdict delta)"}},
		{"dependency CERTAIN needs an operation", `{"text":"a","triage":"in-scope","classification":"AGREE","claim_type":"value","dependency":{"confidence":"CERTAIN"}}`,
			[]string{"points[0].dependency.operation: is required for CERTAIN: state the granular operation that fails without it, or classify GUESS"}},
		{"missing classification and bad enums", `{"text":"","triage":"maybe","kind":"vibe"}`, []string{
			"points[0].text: is empty",
			`points[0].triage: is "maybe", want in-scope, out-of-scope or anchor-shift`,
			`points[0].kind: is "vibe", want argument or evidence`,
			"points[0].classification: is required for an evaluated point (AGREE, SKEPTICAL, REJECT, ILL-FORMED or BLOCKED)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, &StartOptions{Facts: []string{"writes idempotent"}})
			s.addFact(tagUnverified, "", "caching helps", "")
			respond(t, s, "1. a")
			before := s.clone()
			_, err := evalJSON(s, points(tt.point))
			assertProblems(t, err, tt.want)
			if s.Counters != before.Counters || len(s.Disputed) != 0 || s.Next.Awaiting != AwaitEvaluation {
				t.Error("a refused evaluation changed the state")
			}
		})
	}
}

func TestEvaluationChecksTheStep(t *testing.T) {
	s := start(t, nil)
	if _, err := evalJSON(s, `{}`); err == nil || !strings.Contains(err.Error(), "awaits a response, not an evaluation") {
		t.Errorf("evaluate before respond: %v", err)
	}
	respond(t, s, "1. a")
	if err := s.Respond("again", t0); err == nil {
		t.Error("second respond accepted")
	}
	ev, _ := DecodeEvaluation([]byte(`{"iteration":4,"response":"valid"}`))
	_, err := s.Evaluate(ev, t0)
	assertProblems(t, err, []string{"iteration: is 4, want 1 (the iteration being evaluated)"})
	_, err = evalJSON(s, `{"response":"sure"}`)
	assertProblems(t, err, []string{`response: is "sure", want valid, format_failure, quality_failure or degraded_context`})
}

func TestSkepticalDroppedRemindedUndefended(t *testing.T) {
	s := start(t, nil)
	next := step(t, s, "1. retry forever", points(skeptical("retry forever", "no cap on retries")))
	c := s.Challenges["C1"]
	if c == nil || c.Status != ChallengeOpen || !slices.Equal(s.Disputed, []string{"C1"}) || c.RaisedIter != 1 {
		t.Fatalf("challenge not issued: %+v", s.Challenges)
	}
	if !strings.Contains(next.Prompt, "- C1: retry forever — no cap on retries (iter 1)") {
		t.Errorf("open challenge missing from prompt:\n%s", next.Prompt)
	}
	next = step(t, s, "1. unrelated", `{}`)
	if c := s.Challenges["C1"]; c.Status != ChallengeDropped || !c.ReminderSent || next.Action != ActionReminder {
		t.Fatalf("first drop: status %s, reminder %v, action %s", c.Status, c.ReminderSent, next.Action)
	}
	if !strings.Contains(next.Prompt, "C1 was not addressed. Defend or explicitly concede.") {
		t.Errorf("reminder missing:\n%s", next.Prompt)
	}
	next = step(t, s, "1. still unrelated", `{}`)
	d := s.Buckets.Dismissed
	if s.Challenges["C1"].Status != ChallengeUndefended || len(d) != 1 || d[0].Tag != TagUndefended || d[0].Reason != "not defended (iter 3)" {
		t.Fatalf("second drop: %+v", d)
	}
	if next.Action != ActionSynthesize || s.ExitReason != ExitConverged {
		t.Errorf("no open challenges after iteration 3: action %s exit %q", next.Action, s.ExitReason)
	}
}

func TestRejectChallenge(t *testing.T) {
	tests := []struct {
		name, response, eval string
		tag, reason          string
	}{
		{"dropped: dismissed at once, no reminder", "1. other", `{}`, TagUndefended, "not defended (iter 2)"},
		{"defense rejected: terminal", "Re C1: it is right", challengeEval(`{"id":"C1","outcome":"rejected","reason":"api.py:3 still says so"}`), TagRejected, "api.py:3 still says so"},
		{"conceded", "I concede C1", challengeEval(`{"id":"C1","outcome":"conceded"}`), TagConceded, "explicitly (iter 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, nil)
			step(t, s, "1. the API never sends 429", points(reject("the API never sends 429", "logs show 429s")))
			step(t, s, tt.response, tt.eval)
			d := s.Buckets.Dismissed
			if len(d) != 1 || d[0].Tag != tt.tag || d[0].Reason != tt.reason || d[0].ID != "P1" {
				t.Errorf("dismissed = %+v", d)
			}
			if len(s.Disputed) != 0 {
				t.Errorf("still disputed: %v", s.Disputed)
			}
		})
	}
}

func TestRejectUpgradedToSkeptical(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. x", points(reject("x", "wrong")))
	step(t, s, "Re C1: partly", challengeEval(`{"id":"C1","outcome":"upgraded"}`))
	if c := s.Challenges["C1"]; c.Kind != KindSkeptical || !slices.Contains(s.Disputed, "C1") {
		t.Errorf("upgrade: %+v", c)
	}
	_, err := func() (*Next, error) {
		respond(t, s, "Re C1")
		return evalJSON(s, challengeEval(`{"id":"C1","outcome":"upgraded"}`))
	}()
	assertProblems(t, err, []string{"challenges[0].outcome: upgraded applies only to a REJECT challenge"})
}

func TestDefenseAccepted(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. backoff", points(`{"text":"backoff halves 429s","triage":"in-scope","classification":"SKEPTICAL","flaw":"no measurement","claim_type":"empirical"}`))
	respond(t, s, "Re C1: bench: 429s 120 -> 58")
	_, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"accepted","evidence_type":"n/a"}`))
	assertProblems(t, err, []string{"challenges[0].evidence_type: the point is empirical: accepting it needs execution or textual evidence (otherwise a missing-data deadlock, Blocked)"})
	if _, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"accepted","evidence_type":"execution","reason":"benchmark output"}`)); err != nil {
		t.Fatal(err)
	}
	a := s.Buckets.Agreed
	if len(a) != 1 || a[0].ID != "P1" || a[0].EvidenceType != "execution" || s.Challenges["C1"].Status != ChallengeDefended {
		t.Errorf("agreed = %+v", a)
	}
}

func TestChallengeNotReferenced(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. x", points(skeptical("x", "y")))
	respond(t, s, "about x: fine")
	_, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"accepted","evidence_type":"n/a","claim_type":"value"}`, `{"id":"C7","outcome":"accepted"}`))
	assertProblems(t, err, []string{
		"challenges[0].outcome: C1 is not referenced in the response: use missing_id (or leave it out: it counts as dropped)",
		`challenges[1].id: "C7" is not a challenge of this deliberation`,
	})
}

func TestPartialDefense(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. retry 5 times with backoff", points(skeptical("retry 5 times with backoff", "5 is arbitrary")))
	next := step(t, s, "Re C1: drop the 5, keep backoff", challengeEval(`{"id":"C1","outcome":"partial","conceded_part":"a fixed cap of 5","narrowed":"backoff with jitter on 429 only"}`))
	if d := s.Buckets.Dismissed; len(d) != 1 || d[0].Tag != TagPartialConcede || d[0].ID != "P2" {
		t.Fatalf("conceded part: %+v", d)
	}
	if !strings.Contains(next.Prompt, "C1: You now claim backoff with jitter on 429 only. Confirm or correct.") {
		t.Errorf("confirmation missing:\n%s", next.Prompt)
	}
	t.Run("confirmed and sound", func(t *testing.T) {
		s := s.clone()
		step(t, s, "Re C1: confirmed", challengeEval(`{"id":"C1","outcome":"accepted","evidence_type":"n/a","claim_type":"value"}`))
		if a := s.Buckets.Agreed; len(a) != 1 || a[0].Point != "backoff with jitter on 429 only" {
			t.Errorf("agreed = %+v", a)
		}
	})
	t.Run("corrected twice", func(t *testing.T) {
		s := s.clone()
		step(t, s, "Re C1: rather jitter on 429 and 503", challengeEval(`{"id":"C1","outcome":"corrected","narrowed":"backoff with jitter on 429 and 503"}`))
		if !strings.Contains(s.Next.Prompt, "You now claim backoff with jitter on 429 and 503.") {
			t.Errorf("corrected claim not re-sent:\n%s", s.Next.Prompt)
		}
		step(t, s, "Re C1: rather all 5xx", challengeEval(`{"id":"C1","outcome":"corrected","narrowed":"all 5xx"}`))
		d := s.Buckets.Dismissed
		if last := d[len(d)-1]; last.Tag != TagStall || last.Reason != "scope unstable" || s.Counters.Stalls != 1 {
			t.Errorf("second correction: %+v", d)
		}
	})
}

func TestMissingIDRecovery(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. a 2. b", points(skeptical("a", "fa"), skeptical("b", "fb")))
	next := step(t, s, "about a: it holds", challengeEval(`{"id":"C1","outcome":"missing_id"}`))
	if !strings.Contains(next.Prompt, "Your response appears to address C1 but doesn't reference it. Confirm?") ||
		!strings.Contains(next.Prompt, "C2 was not addressed.") {
		t.Errorf("prompt:\n%s", next.Prompt)
	}
	respond(t, s, "Re C1: yes")
	_, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"missing_id"}`))
	assertProblems(t, err, []string{"challenges[0].outcome: missing_id, but the response references C1"})
	_, err = evalJSON(s, challengeEval(`{"id":"C1","outcome":"evaluating"}`, `{"id":"C2","outcome":"missing_id"}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.ExitReason != ExitProtocol || s.Next.Action != ActionExit || s.Next.Reason != exitMsgProtocol {
		t.Errorf("two challenges needing ID recovery: exit %q action %s", s.ExitReason, s.Next.Action)
	}
}

func TestMissingIDOnlyOncePerChallenge(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. a", points(skeptical("a", "fa")))
	step(t, s, "about a", challengeEval(`{"id":"C1","outcome":"missing_id"}`))
	step(t, s, "about a again", challengeEval(`{"id":"C1","outcome":"missing_id"}`))
	if c := s.Challenges["C1"]; c.Status != ChallengeDropped || !c.ReminderSent || s.Counters.IDRecoveries != 1 {
		t.Errorf("second missing ID must count as a drop: %+v, recoveries %d", c, s.Counters.IDRecoveries)
	}
}

func TestIllFormedClarification(t *testing.T) {
	illFormed := `{"text":"it depends","triage":"in-scope","classification":"ILL-FORMED","flaw":"no referent","clarify":"depends on what?"}`
	s := start(t, nil)
	next := step(t, s, "1. it depends", points(illFormed, agree("a")))
	if next.Action != ActionClarify || s.Iteration != 1 || !slices.Equal(s.Pending, []string{"P1"}) {
		t.Fatalf("action %s N=%d pending %v", next.Action, s.Iteration, s.Pending)
	}
	if !strings.Contains(next.Prompt, `P1 ("it depends") is unevaluable as stated: no referent. Clarify: depends on what?`) {
		t.Errorf("clarification prompt:\n%s", next.Prompt)
	}
	t.Run("sharpened", func(t *testing.T) {
		s := s.clone()
		step(t, s, "on volume", points(`{"text":"retry when volume < 100/s","triage":"in-scope","clarifies":"P1","classification":"AGREE","claim_type":"value"}`))
		if bucketOf(s, "P1") != "buckets.agreed[1]" || s.Iteration != 2 {
			t.Errorf("P1 at %s, N=%d", bucketOf(s, "P1"), s.Iteration)
		}
	})
	t.Run("still unevaluable", func(t *testing.T) {
		s := s.clone()
		step(t, s, "it just depends", points(`{"text":"it depends on things","triage":"in-scope","clarifies":"P1","classification":"ILL-FORMED","flaw":"things has no referent","clarify":"which things?"}`))
		d := s.Buckets.Dismissed
		if len(d) != 1 || d[0].Tag != TagStall || d[0].Reason != "unevaluable after clarification" || s.Counters.Stalls != 1 {
			t.Errorf("dismissed = %+v", d)
		}
	})
	t.Run("ignored", func(t *testing.T) {
		s := s.clone()
		step(t, s, "no answer", `{}`)
		if d := s.Buckets.Dismissed; len(d) != 1 || d[0].Tag != TagStall {
			t.Errorf("dismissed = %+v", d)
		}
	})
}

func TestPhaseViolations(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		phase Phase
		point string
		want  string // placement prefix or Not evaluated reason
	}{
		{"argument in DEVELOPMENT", 3, Development, agree("new idea"), "phase violation: raised in DEVELOPMENT"},
		{"evidence in DEVELOPMENT", 4, Development, `{"text":"pytest -k retry: FAILED","triage":"in-scope","kind":"evidence","classification":"AGREE","claim_type":"empirical","evidence_type":"execution"}`, "buckets.agreed"},
		{"argument in CRYSTALLIZATION", 6, Crystallization, agree("new idea"), "phase closed"},
		{"non-decisive evidence in CRYSTALLIZATION", 7, Crystallization, `{"text":"bench 10ms","triage":"in-scope","kind":"evidence"}`, "non-decisive evidence in CRYSTALLIZATION"},
		{"decisive evidence in CRYSTALLIZATION", 7, Crystallization, `{"text":"signature returns string","triage":"in-scope","kind":"evidence","decisive":true,"classification":"AGREE","claim_type":"empirical","evidence_type":"textual"}`, "buckets.agreed"},
		{"stored phase wins over N", 4, Constructive, agree("extended idea"), "buckets.agreed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, nil)
			s.Iteration, s.Phase = tt.n, tt.phase
			step(t, s, "1. x", points(tt.point))
			where := bucketOf(s, "P1")
			if strings.HasPrefix(where, "not_evaluated") {
				where = s.NotEvaluated[0].Reason
			}
			if !strings.HasPrefix(where, tt.want) {
				t.Errorf("P1 went to %q, want %q", where, tt.want)
			}
		})
	}
}

func TestRevisionAfterIteration2(t *testing.T) {
	s := start(t, nil)
	s.Iteration = 2
	step(t, s, "1. x", points(skeptical("x", "vague")))
	if s.Iteration != 3 || s.Phase != Development {
		t.Fatalf("N=%d phase %s", s.Iteration, s.Phase)
	}
	same := `{"text":"x, measured","triage":"in-scope","revises":"P1","same_core_claim":true,"classification":"AGREE","claim_type":"value"}`
	step(t, s, "Re C1: revised", points(same))
	if bucketOf(s, "P1") != "buckets.agreed[0]" || len(s.Disputed) != 0 {
		t.Errorf("same-core revision: P1 at %s, disputed %v", bucketOf(s, "P1"), s.Disputed)
	}
}

func TestLedger(t *testing.T) {
	s := start(t, &StartOptions{Facts: []string{"writes idempotent"}})
	step(t, s, "1. a", `{"facts":[
		{"tag":"verified","ref":"api.py:42","text":"rate=100/s"},
		{"tag":"codex-unverified","text":"caching helps"},
		{"tag":"user","text":"writes idempotent per key","supersedes":"F1"}],
		"points":[`+agree("a")+`]}`)
	want := []string{"F1 [user]: writes idempotent", "F2 [verified: api.py:42]: rate=100/s", "F3 [codex-unverified]: caching helps", "F4 (supersedes F1) [user]: writes idempotent per key"}
	if !slices.Equal(s.Ledger, want) {
		t.Errorf("ledger (append-only) = %q", s.Ledger)
	}
	if got := s.activeLedger(); !slices.Equal(got, want[1:]) {
		t.Errorf("active ledger = %q", got)
	}
	if strings.Contains(s.Next.Prompt, "F1 [user]") || !strings.Contains(s.Next.Prompt, "F4 (supersedes F1) [user]: writes idempotent per key") {
		t.Errorf("prompt must show only the active truth set:\n%s", s.Next.Prompt)
	}
	respond(t, s, "1. b")
	_, err := evalJSON(s, `{"facts":[
		{"tag":"codex-unverified","text":"rate is 200/s","supersedes":"F2"},
		{"tag":"revision","text":"not idempotent","supersedes":"F4"},
		{"tag":"verified","text":"x"},
		{"tag":"rumour","text":"y","supersedes":"F99"}]}`)
	assertProblems(t, err, []string{
		"facts[0].supersedes: a codex-unverified fact cannot supersede a verified fact (F2)",
		"facts[1].supersedes: only the user can supersede a user fact (F4)",
		"facts[2].ref: is required for a verified fact (the file:line, test or spec it was verified against)",
		`facts[3].tag: is "rumour", want user, verified, codex-unverified or revision`,
		`facts[3].supersedes: "F99" is not in the ledger (nor an earlier fact of this evaluation)`,
	})
	// A fact may supersede an earlier one of the same evaluation (as a
	// point may rely on it), not itself or a later one; the rules hold.
	_, err = evalJSON(s, `{"facts":[
		{"tag":"verified","ref":"a.py:1","text":"x"},
		{"tag":"codex-unverified","text":"y","supersedes":"F5"},
		{"tag":"codex-unverified","text":"z","supersedes":"F7"},
		{"tag":"codex-unverified","text":"w","supersedes":"F9"}]}`)
	assertProblems(t, err, []string{
		"facts[1].supersedes: a codex-unverified fact cannot supersede a verified fact (F5)",
		`facts[2].supersedes: "F7" is not in the ledger (nor an earlier fact of this evaluation)`,
		`facts[3].supersedes: "F9" is not in the ledger (nor an earlier fact of this evaluation)`,
	})
	if _, err := evalJSON(s, `{"facts":[
		{"tag":"verified","ref":"a.py:1","text":"rate=150/s"},
		{"tag":"codex-unverified","text":"bursts"},
		{"tag":"verified","ref":"a.py:2","text":"rate=120/s","supersedes":"F5"}],
		"points":[`+agree("b")+`]}`); err != nil {
		t.Fatal(err)
	}
	if got := s.activeLedger(); !slices.Contains(got, "F7 (supersedes F5) [verified: a.py:2]: rate=120/s") || slices.Contains(got, "F5 [verified: a.py:1]: rate=150/s") {
		t.Errorf("active ledger = %q", got)
	}
}

func TestUnverifiedFactsNotEvaluatedAtTheEnd(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. a", `{"trivial":"yes","facts":[{"tag":"codex-unverified","text":"caching helps"}]}`)
	if len(s.NotEvaluated) != 0 {
		t.Fatal("trivial exit applies before facts")
	}
	s = start(t, nil)
	step(t, s, "1. a", `{"facts":[{"tag":"codex-unverified","text":"caching helps"}],"points":[`+agree("a")+`]}`)
	s.finish(ExitConverged, "")
	if n := s.NotEvaluated; len(n) != 1 || n[0].Point != "F1 [codex-unverified]: caching helps" {
		t.Errorf("not evaluated = %+v", n)
	}
}

// twoAgreed runs iterations 1 and 2 with one AGREE each, reaching the
// coverage check.
func twoAgreed(t *testing.T, extra string) *State {
	t.Helper()
	s := start(t, nil)
	step(t, s, "1. retry on 429 (see api.py:42)", points(agree("retry on 429")))
	next := step(t, s, "1. honour Retry-After", `{"points":[`+agree("honour Retry-After")+`]`+extra+`}`)
	if next.Action != ActionCoverage || s.Iteration != 2 || !strings.Contains(next.Prompt, "What's missing from this analysis?") {
		t.Fatalf("iteration 2 without disputes: action %s N=%d", next.Action, s.Iteration)
	}
	return s
}

func TestCoverageCheck(t *testing.T) {
	t.Run("cited before: not NEW, synthesize", func(t *testing.T) {
		s := twoAgreed(t, "")
		next := step(t, s, "api.py:42 shows no cap", `{"coverage":{"artifacts":["API.py:42"],"attack":true},"points":[`+skeptical("no cap", "x")+`]}`)
		if next.Action != ActionSynthesize || s.ExitReason != ExitConverged || s.NotEvaluated[0].Reason != "coverage check: no qualifying new evidence" {
			t.Errorf("action %s, not evaluated %+v", next.Action, s.NotEvaluated)
		}
	})
	t.Run("NEW but no attack", func(t *testing.T) {
		s := twoAgreed(t, "")
		next := step(t, s, "consider also tests/x_test.go", `{"coverage":{"artifacts":["tests/x_test.go"]}}`)
		if next.Action != ActionSynthesize {
			t.Errorf("action %s", next.Action)
		}
	})
	t.Run("NEW and attack: Extended CONSTRUCTIVE", func(t *testing.T) {
		s := twoAgreed(t, "")
		next := step(t, s, "tests/retry_test.go:10 FAILS: duplicate writes", `{"coverage":{"artifacts":["tests/retry_test.go:10"],"attack":true},"points":[`+skeptical("retries duplicate writes", "idempotency key unproven")+`]}`)
		if next.Action != ActionCritique || s.Iteration != 3 || s.Phase != Constructive || s.Checks.Extended != 1 {
			t.Errorf("action %s N=%d phase %s extended %d", next.Action, s.Iteration, s.Phase, s.Checks.Extended)
		}
		if !strings.Contains(next.Prompt, "Phase: CONSTRUCTIVE") {
			t.Errorf("prompt:\n%s", next.Prompt)
		}
	})
	t.Run("contradicts Agreed", func(t *testing.T) {
		s := twoAgreed(t, "")
		step(t, s, "tests/retry_test.go:10 FAILS", `{"coverage":{"artifacts":["tests/retry_test.go:10"],"attack":true,"contradicts":"P1"},"points":[`+skeptical("retry breaks", "x")+`]}`)
		if u := s.Buckets.Unresolved; len(u) != 1 || u[0].Crux != "conflicts with P1 (Agreed)" || len(s.Warnings) != 1 {
			t.Errorf("unresolved %+v warnings %v", u, s.Warnings)
		}
	})
	t.Run("coverage judgment required", func(t *testing.T) {
		s := twoAgreed(t, "")
		respond(t, s, "nothing")
		_, err := evalJSON(s, `{}`)
		assertProblems(t, err, []string{"coverage: is required: the response answers the coverage_check prompt"})
	})
}

func TestStressTest(t *testing.T) {
	reach := func(t *testing.T) *State {
		s := twoAgreed(t, `,"require_stress_test":true`)
		next := step(t, s, "nothing new", `{"coverage":{}}`)
		if next.Action != ActionStress || s.Iteration != 3 || s.Phase != Constructive || !strings.Contains(next.Prompt, "Steelman strongest objection") {
			t.Fatalf("action %s N=%d phase %s", next.Action, s.Iteration, s.Phase)
		}
		return s
	}
	t.Run("fatal moves the impact set to Unresolved", func(t *testing.T) {
		s := reach(t)
		step(t, s, "objection: Retry-After absent", `{"stress_test":{"objection":"Retry-After is absent","classification":"fatal","impact":["P2"],"top_line_affected":true,"next_step":"measure"}}`)
		if bucketOf(s, "P2") != "buckets.unresolved[0]" || bucketOf(s, "P1") != "buckets.agreed[0]" || s.Warnings[0] != "Do not proceed; next step: measure" {
			t.Errorf("P1 %s P2 %s warnings %v", bucketOf(s, "P1"), bucketOf(s, "P2"), s.Warnings)
		}
		if s.ExitReason != ExitConverged {
			t.Errorf("exit %q", s.ExitReason)
		}
	})
	t.Run("omitted impact set means every Agreed point", func(t *testing.T) {
		s := reach(t)
		step(t, s, "objection", `{"stress_test":{"objection":"o","classification":"inconclusive"}}`)
		if len(s.Buckets.Agreed) != 0 || len(s.Buckets.Unresolved) != 2 {
			t.Errorf("buckets %+v", s.Buckets)
		}
	})
	t.Run("mitigable makes points conditional", func(t *testing.T) {
		s := reach(t)
		step(t, s, "objection", `{"stress_test":{"objection":"o","classification":"mitigable","impact":["P1"],"mitigation":"cap total wait at 60s"}}`)
		if s.Buckets.Agreed[0].Mitigation != "cap total wait at 60s" || s.Buckets.Agreed[1].Mitigation != "" {
			t.Errorf("agreed %+v", s.Buckets.Agreed)
		}
	})
	t.Run("refuted dismisses the objection", func(t *testing.T) {
		s := reach(t)
		step(t, s, "objection", `{"stress_test":{"objection":"o","classification":"refuted","evidence":"api.py:50 sets Retry-After"}}`)
		if d := s.Buckets.Dismissed; len(d) != 1 || d[0].Point != "o" || len(s.Buckets.Agreed) != 2 {
			t.Errorf("dismissed %+v", d)
		}
	})
}

// TestStressTestRequestedButNotRun: an out-of-scope point does not break
// unanimity; a required stress test that cannot run is recorded as skipped
// with its reason, warned about, and named in the synthesis.
func TestStressTestRequestedButNotRun(t *testing.T) {
	outOfScope := `{"text":"B","triage":"out-of-scope"}`
	tests := []struct {
		name    string
		run     func(t *testing.T, s *State) *Next
		action  string
		skipped string // the reason recorded, "" when the stress test is asked
	}{
		{"an out-of-scope point does not count against unanimity", func(t *testing.T, s *State) *Next {
			step(t, s, "1. A 2. B", points(agree("A"), outOfScope))
			step(t, s, "nothing", `{"require_stress_test":true}`)
			return step(t, s, "nothing missing", `{"coverage":{}}`)
		}, ActionStress, ""},
		{"a rejected point breaks unanimity", func(t *testing.T, s *State) *Next {
			step(t, s, "1. A 2. B", points(agree("A"), reject("B", "fails under load")))
			step(t, s, "nothing", `{"require_stress_test":true}`)
			return step(t, s, "nothing missing", `{"coverage":{}}`)
		}, ActionSynthesize, "it needs unanimity and P2 is Dismissed (UNDEFENDED)"},
		{"requested after iteration 3", func(t *testing.T, s *State) *Next {
			step(t, s, "1. A", points(skeptical("A", "x")))
			for range 2 {
				step(t, s, "Re C1: still A", challengeEval(`{"id":"C1","outcome":"rejected"}`))
			}
			return step(t, s, "Re C1: A, again", `{"challenges":[{"id":"C1","outcome":"accepted","evidence_type":"n/a","claim_type":"value"}],"require_stress_test":true}`)
		}, ActionSynthesize, "it must start by iteration 3 and the deliberation is at iteration 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, nil)
			next := tt.run(t, s)
			if next.Action != tt.action {
				t.Fatalf("next %s, want %s (checks %+v, warnings %v)", next.Action, tt.action, s.Checks, s.Warnings)
			}
			if tt.skipped == "" {
				if s.Checks.StressTest != "asked" || len(s.Warnings) != 0 {
					t.Errorf("checks %+v warnings %v", s.Checks, s.Warnings)
				}
				return
			}
			warning := "The requested stress test was not run: " + tt.skipped + "."
			if s.Checks.StressTest != "skipped" || s.Checks.StressSkipped != tt.skipped || !slices.Contains(s.Warnings, warning) {
				t.Errorf("checks %+v warnings %q, want skipped: %s", s.Checks, s.Warnings, tt.skipped)
			}
			y, err := synthesize(s, testAnswer)
			if err != nil {
				t.Fatal(err)
			}
			if md := y.Markdown(); !strings.Contains(md, "**Warning:** "+warning) {
				t.Errorf("synthesis does not say the stress test was not run:\n%s", md)
			}
		})
	}
}

func TestDeadlock(t *testing.T) {
	// C1 raised at 1, defended and pushed back at 2 and 3; at 4 it has
	// been open 3 rounds.
	reach := func(t *testing.T) *State {
		s := start(t, nil)
		step(t, s, "1. x", points(skeptical("x", "fx")))
		for range 2 {
			step(t, s, "Re C1: still x", challengeEval(`{"id":"C1","outcome":"rejected"}`))
		}
		respond(t, s, "Re C1: x, again")
		_, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"rejected"}`))
		assertProblems(t, err, []string{"challenges[0].deadlock: is required: C1 has been open 3 rounds (missing-data, definitional, criteria or terms-unclear)"})
		return s
	}
	t.Run("criteria difference: tradeoff", func(t *testing.T) {
		s := reach(t)
		if _, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"rejected","deadlock":"criteria","crux":"latency vs simplicity"}`)); err != nil {
			t.Fatal(err)
		}
		if u := s.Buckets.Unresolved; len(u) != 1 || u[0].Status != UnresolvedTradeoff || u[0].Crux != "latency vs simplicity" {
			t.Errorf("unresolved %+v", u)
		}
	})
	t.Run("missing data: blocked and surfaced", func(t *testing.T) {
		s := reach(t)
		if _, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"evaluating","deadlock":"missing-data","blocked":{"measurement":"write QPS","threshold":"100/s","verdict_delta":"<100/s AGREE, >1000/s REJECT"}}`)); err != nil {
			t.Fatal(err)
		}
		if u := s.Buckets.Unresolved; len(u) != 1 || u[0].Status != UnresolvedBlocked || len(s.SurfacedQuestions) != 1 {
			t.Errorf("unresolved %+v surfaced %v", u, s.SurfacedQuestions)
		}
	})
	t.Run("definitional: one retry, then terms unclear", func(t *testing.T) {
		s := reach(t)
		if _, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"rejected","deadlock":"definitional"}`)); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(s.Next.Prompt, "C1: the disagreement may be definitional.") {
			t.Errorf("prompt:\n%s", s.Next.Prompt)
		}
		respond(t, s, "Re C1: by x I mean y")
		_, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"rejected","deadlock":"definitional"}`))
		assertProblems(t, err, []string{"challenges[0].deadlock: the one definitional retry of C1 was used: criteria (terms clear) or terms-unclear"})
		if _, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"rejected","deadlock":"terms-unclear"}`)); err != nil {
			t.Fatal(err)
		}
		if d := s.Buckets.Dismissed; len(d) != 1 || d[0].Tag != TagStall || d[0].Reason != "terms unclear" {
			t.Errorf("dismissed %+v", d)
		}
	})
}

func TestTwoStallsExit(t *testing.T) {
	s := start(t, nil)
	il := func(text string) string {
		return `{"text":"` + text + `","triage":"in-scope","classification":"ILL-FORMED","flaw":"no referent","clarify":"what?"}`
	}
	step(t, s, "1. a 2. b", points(il("a"), il("b")))
	next := step(t, s, "no idea", `{}`)
	if next.Action != ActionExit || s.ExitReason != ExitStalled {
		t.Errorf("two stalls: action %s exit %q", next.Action, s.ExitReason)
	}
	_, err := synthesize(s, testAnswer)
	assertProblems(t, err, []string{"status: the deliberation is finished (stalled): Deliberation stalled: narrow the scope, give examples or constraints, or split the question; there is nothing to synthesize"})
}

func TestArbitration(t *testing.T) {
	blocked := func(text string) string {
		return `{"text":"` + text + `","triage":"in-scope","classification":"BLOCKED","blocked":{"measurement":"m","threshold":"t","verdict_delta":"d"}}`
	}
	reach := func(t *testing.T) *State {
		s := start(t, nil)
		step(t, s, "1. a 2. b 3. c", points(blocked("a"), blocked("b"), agree("c")))
		step(t, s, "nothing", `{}`)
		next := step(t, s, "nothing", `{"coverage":{}}`)
		if next.Action != ActionArbitrate || !strings.Contains(next.Prompt, "Are agreed points well-supported?") {
			t.Fatalf("two unresolved: action %s", next.Action)
		}
		return s
	}
	t.Run("below 60%: concerns", func(t *testing.T) {
		s := reach(t)
		next := step(t, s, "P3 weak", `{"arbitration":{"flagged":[{"id":"P3","reason":"no evidence"}]}}`)
		if next.Action != ActionSynthesize || s.ExitReason != ExitConverged || len(s.ArbitrationConcerns) != 1 {
			t.Errorf("action %s exit %q concerns %v", next.Action, s.ExitReason, s.ArbitrationConcerns)
		}
	})
	t.Run("60% or more: exit", func(t *testing.T) {
		s := reach(t)
		next := step(t, s, "weak", `{"arbitration":{"flagged":[{"id":"P1","reason":"r"},{"id":"P2","reason":"r"}]}}`)
		if next.Action != ActionExit || s.ExitReason != ExitArbitration || next.Reason != exitMsgArbitration {
			t.Errorf("action %s exit %q", next.Action, s.ExitReason)
		}
	})
	t.Run("flags name evaluated points", func(t *testing.T) {
		s := reach(t)
		respond(t, s, "x")
		_, err := evalJSON(s, `{"arbitration":{"flagged":[{"id":"P9","reason":""}]}}`)
		assertProblems(t, err, []string{`arbitration.flagged[0].id: "P9" is not an evaluated point`, "arbitration.flagged[0].reason: is empty"})
	})
}

func TestDependencyGate(t *testing.T) {
	dep := `{"text":"need redis for locks","triage":"in-scope","classification":"SKEPTICAL","flaw":"no failing operation named","dependency":{"confidence":"GUESS"}}`
	t.Run("concession without a failure mode", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. redis", points(dep))
		step(t, s, "Re C1: redis is standard", challengeEval(`{"id":"C1","outcome":"accepted","evidence_type":"n/a","claim_type":"value"}`))
		if d := s.Buckets.Dismissed; len(d) != 1 || d[0].Reason != "No concrete failure mode verified. Simpler version preferred." {
			t.Errorf("dismissed %+v", d)
		}
	})
	t.Run("concession with operation and evidence", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. redis", points(dep))
		step(t, s, "Re C1: flock fails on NFS", challengeEval(`{"id":"C1","outcome":"accepted","evidence_type":"execution","concession":{"operation":"flock on NFS","evidence":"flock_test: EOPNOTSUPP"}}`))
		if a := s.Buckets.Agreed; len(a) != 1 {
			t.Errorf("agreed %+v", a)
		}
	})
	t.Run("both GUESS: fewer dependencies wins", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. redis", points(`{"text":"use redis","triage":"in-scope","classification":"AGREE","claim_type":"value","dependency":{"confidence":"GUESS","alternative":"a file lock","alternative_confidence":"GUESS"}}`))
		if d := s.Buckets.Dismissed; len(d) != 1 || !strings.Contains(d[0].Reason, "fewer dependencies wins (a file lock)") {
			t.Errorf("dismissed %+v", d)
		}
	})
}

func TestCapAtIteration8(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. x", points(skeptical("x", "fx")))
	s.Iteration, s.Phase = 8, Crystallization
	next := step(t, s, "1. nothing", `{}`)
	if next.Action != ActionSynthesize || s.ExitReason != ExitCap || len(s.Disputed) != 0 || bucketOf(s, "P1") != "buckets.unresolved[0]" {
		t.Errorf("action %s exit %q P1 %s", next.Action, s.ExitReason, bucketOf(s, "P1"))
	}
	if s.Iteration != 8 {
		t.Errorf("N = %d after the cap", s.Iteration)
	}
}

func TestThemes(t *testing.T) {
	eight := func(f func(i int) string) string {
		var ps []string
		for i := range 8 {
			ps = append(ps, f(i))
		}
		return points(ps...)
	}
	t.Run("more than 7 points need themes", func(t *testing.T) {
		s := start(t, nil)
		respond(t, s, "1..8")
		_, err := evalJSON(s, eight(func(i int) string { return agree("p") }))
		if err == nil || len(err.(interface{ Strings() []string }).Strings()) != 8 {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("at most 5 themes", func(t *testing.T) {
		s := start(t, nil)
		respond(t, s, "1..8")
		_, err := evalJSON(s, eight(func(i int) string {
			return `{"text":"p","triage":"in-scope","theme":"t` + string(rune('a'+i)) + `","classification":"AGREE","claim_type":"value"}`
		}))
		assertProblems(t, err, []string{"points: 8 themes, want at most 5"})
	})
	t.Run("blocking themes first, overflow not evaluated", func(t *testing.T) {
		s := start(t, nil)
		respond(t, s, "1..8")
		_, err := evalJSON(s, eight(func(i int) string {
			if i == 0 {
				return `{"text":"p","triage":"in-scope","theme":"core","blocking":true,"overflow":true,"classification":"AGREE"}`
			}
			return `{"text":"p","triage":"in-scope","theme":"nits","classification":"AGREE","claim_type":"value"}`
		}))
		assertProblems(t, err, []string{
			"points[0].classification: an overflow point is not deliberated, so not classified (never AGREE)",
			`points[0].overflow: theme "core" is blocking: blocking themes are deliberated first`,
		})
		_, err = evalJSON(s, eight(func(i int) string {
			if i < 2 {
				return `{"text":"p","triage":"in-scope","theme":"core","blocking":true,"classification":"AGREE","claim_type":"value"}`
			}
			return `{"text":"p","triage":"in-scope","theme":"nits","overflow":true}`
		}))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.NotEvaluated) != 6 || len(s.Buckets.Agreed) != 2 {
			t.Errorf("not evaluated %d agreed %d", len(s.NotEvaluated), len(s.Buckets.Agreed))
		}
	})
	t.Run("overflow needs more than 7", func(t *testing.T) {
		s := start(t, nil)
		respond(t, s, "1")
		_, err := evalJSON(s, points(`{"text":"p","triage":"in-scope","overflow":true}`))
		assertProblems(t, err, []string{"points[0].overflow: overflow applies only with more than 7 in-scope points (there are 1)"})
	})
}

func TestQuickMode(t *testing.T) {
	t.Run("two iterations, by content", func(t *testing.T) {
		s := start(t, &StartOptions{Quick: true})
		if !strings.Contains(s.Next.Prompt, "Iteration 1/2.") || !strings.Contains(s.Next.Prompt, quickRules[5]) || strings.Contains(s.Next.Prompt, "Ledger") {
			t.Errorf("quick first call:\n%s", s.Next.Prompt)
		}
		next := step(t, s, "1. x", points(skeptical("x", "fx")))
		if next.Action != ActionCritique || s.Iteration != 2 || strings.Contains(next.Prompt, "C1") || strings.Contains(next.Prompt, "Phase") {
			t.Errorf("quick iteration 2:\n%s", next.Prompt)
		}
		next = step(t, s, "x holds because y", `{}`)
		if next.Action != ActionSynthesize || s.ExitReason != ExitCap || bucketOf(s, "P1") != "buckets.unresolved[0]" {
			t.Errorf("action %s exit %q", next.Action, s.ExitReason)
		}
	})
	t.Run("converges in one", func(t *testing.T) {
		s := start(t, &StartOptions{Quick: true})
		if next := step(t, s, "1. x", points(agree("x"))); next.Action != ActionSynthesize {
			t.Errorf("action %s", next.Action)
		}
	})
	t.Run("one retry in total", func(t *testing.T) {
		s := start(t, &StartOptions{Quick: true})
		step(t, s, "x", `{"response":"format_failure"}`)
		step(t, s, "1. x", points(skeptical("x", "fx")))
		next := step(t, s, "x", `{"response":"format_failure"}`)
		if next.Action != ActionExit || s.ExitReason != ExitQuickUnengaged {
			t.Errorf("action %s exit %q", next.Action, s.ExitReason)
		}
	})
}

func TestTrivialExit(t *testing.T) {
	s := start(t, nil)
	next := step(t, s, "it is a yes", `{"trivial":"Yes: retry after Retry-After."}`)
	if next.Action != ActionSynthesize || s.ExitReason != ExitTrivial || s.Answer == "" {
		t.Errorf("action %s exit %q", next.Action, s.ExitReason)
	}
	s = start(t, nil)
	s.Iteration = 3
	respond(t, s, "x")
	_, err := evalJSON(s, `{"trivial":"yes"}`)
	assertProblems(t, err, []string{"trivial: an early exit (trivial) is only possible by iteration 2 (this is 3)"})
}

func TestFinishedAcceptsNothing(t *testing.T) {
	s := start(t, nil)
	step(t, s, "yes", `{"trivial":"yes"}`)
	if err := s.Respond("more", t0); err == nil || !strings.Contains(err.Error(), "finished") {
		t.Errorf("respond after finish: %v", err)
	}
	if err := s.abandon(t0); err == nil {
		t.Error("abandon after finish accepted")
	}
}

func TestUngroundedValueClaim(t *testing.T) {
	ungrounded := `{"text":"the new client is cleaner","triage":"in-scope","classification":"SKEPTICAL","claim_type":"value","ungrounded":true}`
	tests := []struct {
		name, response, eval, tag string
	}{
		{"not reframed", "1. other", `{}`, TagUngrounded},
		{"still ungrounded", "Re C1: it just is", challengeEval(`{"id":"C1","outcome":"rejected","reason":"no metric named"}`), TagUngrounded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := start(t, nil)
			next := step(t, s, "1. cleaner", points(ungrounded))
			if !strings.Contains(next.Prompt, "- C1: the new client is cleaner — Reframe with observable referents or withdraw. (iter 1)") {
				t.Fatalf("prompt:\n%s", next.Prompt)
			}
			step(t, s, tt.response, tt.eval)
			if d := s.Buckets.Dismissed; len(d) != 1 || d[0].Tag != tt.tag {
				t.Errorf("dismissed %+v", d)
			}
		})
	}
	t.Run("reframed", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. cleaner", points(ungrounded))
		step(t, s, "Re C1: 40% fewer lines (wc -l)", challengeEval(`{"id":"C1","outcome":"accepted","evidence_type":"n/a"}`))
		if len(s.Buckets.Agreed) != 1 {
			t.Errorf("agreed %+v", s.Buckets.Agreed)
		}
	})
	t.Run("only for value claims", func(t *testing.T) {
		s := start(t, nil)
		respond(t, s, "1. x")
		_, err := evalJSON(s, points(`{"text":"x","triage":"in-scope","classification":"AGREE","claim_type":"empirical","evidence_type":"textual","ungrounded":true}`))
		assertProblems(t, err, []string{"points[0].ungrounded: applies only with SKEPTICAL (the one reframing challenge)"})
	})
}

func TestRetryKeepsTheRetriedAction(t *testing.T) {
	s := twoAgreed(t, "")
	next := step(t, s, "garbage", `{"response":"format_failure"}`)
	if next.Action != ActionRetry || next.For != ActionCoverage || !strings.Contains(next.Prompt, "Iteration 2/8 (RETRY #1).") ||
		!strings.Contains(next.Prompt, "What's missing from this analysis?") {
		t.Fatalf("retry of the coverage check: %+v", next)
	}
	respond(t, s, "nothing new")
	_, err := evalJSON(s, `{}`)
	assertProblems(t, err, []string{"coverage: is required: the response answers the coverage_check prompt"})
	if _, err := evalJSON(s, `{"coverage":{}}`); err != nil {
		t.Fatal(err)
	}
	if s.ExitReason != ExitConverged {
		t.Errorf("exit %q", s.ExitReason)
	}
}

func TestRoundContents(t *testing.T) {
	t.Run("a clarification reply only clarifies", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. it depends", points(`{"text":"it depends","triage":"in-scope","classification":"ILL-FORMED","flaw":"no referent","clarify":"on what?"}`))
		respond(t, s, "on load; also a new idea")
		_, err := evalJSON(s, points(agree("a new idea")))
		assertProblems(t, err, []string{"points[0].clarifies: is required: a clarification reply only sharpens the pending points (P1)"})
	})
	t.Run("a stress-test answer carries only its judgment", func(t *testing.T) {
		s := twoAgreed(t, `,"require_stress_test":true`)
		step(t, s, "nothing", `{"coverage":{}}`)
		respond(t, s, "objection")
		_, err := evalJSON(s, `{"stress_test":{"objection":"o","classification":"fatal"},"points":[`+agree("x")+`]}`)
		assertProblems(t, err, []string{"points: the answer to the stress_test prompt carries only its judgment, no points or challenges"})
	})
}

func TestLedgerBudget(t *testing.T) {
	s := start(t, &StartOptions{Facts: []string{"no new infrastructure"}, LedgerBudget: 120})
	step(t, s, "1. x", `{"facts":[
		{"tag":"verified","ref":"client.py:88","text":"429 responses carry Retry-After"},
		{"tag":"verified","ref":"metrics","text":"p99 latency is 80 ms at 40 rps"},
		{"tag":"codex-unverified","text":"the vendor will raise limits next quarter"}],
		"points":[`+skeptical("retry 5 times (see F3)", "F3 says nothing about retries")+`]}`)
	want := "Ledger (over budget; omitted: F2, F4):\n- F1 [user]: no new infrastructure\n- F3 [verified: metrics]: p99 latency is 80 ms at 40 rps\n"
	if !strings.Contains(s.Next.Prompt, want) {
		t.Errorf("prompt ledger over budget, want\n%s\nin\n%s", want, s.Next.Prompt)
	}
	respond(t, s, "1. y")
	_, err := evalJSON(s, `{"facts":[{"tag":"user","text":"`+strings.Repeat("x", 120)+`"}]}`)
	assertProblems(t, err, []string{"facts: the user facts would need 165 characters, over the ledger budget of 120: " + overCapacity})

	_, err = New("q", &StartOptions{Facts: []string{strings.Repeat("y", 100)}, LedgerBudget: 50}, t0)
	assertProblems(t, err, []string{"facts: the user facts need 112 characters, over the ledger budget of 50: " + overCapacity})
}

// decisive is decisive evidence, agreed on execution output, that
// confirms or refutes (key) the point id.
func decisive(text, key, id string) string {
	return `{"text":"` + text + `","triage":"in-scope","kind":"evidence","decisive":true,"classification":"AGREE","claim_type":"empirical","evidence_type":"execution","` + key + `":"` + id + `"}`
}

func TestDecisiveEvidenceFlips(t *testing.T) {
	t.Run("refutes: an Agreed point is Dismissed", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. parse never throws", points(agree("parse never throws")))
		s.Iteration, s.Phase = 6, Crystallization
		step(t, s, "trace", points(decisive("stack trace: parse() throws on empty input", "refutes", "P1")))
		if d := s.Buckets.Dismissed; len(d) != 1 || d[0].ID != "P1" || d[0].Tag != TagRejected || d[0].Reason != "contradicted by decisive evidence: stack trace: parse() throws on empty input" {
			t.Errorf("dismissed %+v", d)
		}
		if bucketOf(s, "P2") != "buckets.agreed[0]" {
			t.Errorf("the evidence itself at %s", bucketOf(s, "P2"))
		}
	})
	t.Run("confirms: a disputed point is Agreed", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. parse throws on empty input", points(skeptical("parse throws on empty input", "no trace")))
		next := step(t, s, "Re C1: trace", points(decisive("trace: parse() throws on empty input", "confirms", "P1")))
		if bucketOf(s, "P1") != "buckets.agreed[1]" || len(s.Disputed) != 0 || s.Buckets.Agreed[1].EvidenceType != "execution" {
			t.Errorf("P1 at %s, disputed %v, agreed %+v", bucketOf(s, "P1"), s.Disputed, s.Buckets.Agreed)
		}
		if want := "\nEvaluation: AGREE [trace: parse() throws on empty input; parse throws on empty input (confirmed by decisive evidence: trace: parse() throws on empty input)].\n"; next.Action != ActionCoverage || !strings.Contains(next.Prompt, want) {
			t.Errorf("want %q in:\n%s", want, next.Prompt)
		}
	})
	t.Run("only decisive evidence moves a point", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. x", points(agree("x")))
		respond(t, s, "y")
		_, err := evalJSON(s, points(`{"text":"bench 10ms","triage":"in-scope","kind":"evidence","classification":"AGREE","claim_type":"value","refutes":"P9"}`))
		assertProblems(t, err, []string{
			"points[0].refutes: only decisive evidence refutes a point: this one needs decisive true, evidence_type execution or textual (if you must explain why the evidence matters, it is not decisive: leave refutes out)",
			`points[0].refutes: "P9" is not an agreed, dismissed, unresolved or disputed point`,
		})
	})
}

func TestGroupedChallenge(t *testing.T) {
	grouped := func(text string) string {
		return `{"text":"` + text + `","triage":"in-scope","classification":"SKEPTICAL","flaw":"no failure rate measured","group":"g1"}`
	}
	reach := func(t *testing.T) *State {
		s := start(t, nil)
		next := step(t, s, "1. a 2. b 3. c", points(grouped("retry 5 times"), agree("honour Retry-After"), grouped("back off 2x")))
		if !strings.Contains(next.Prompt, "- C1 [P1, P3]: retry 5 times; back off 2x — no failure rate measured (iter 1)") || len(s.Challenges) != 1 {
			t.Fatalf("grouped challenge:\n%s", next.Prompt)
		}
		return s
	}
	t.Run("adjudicated binding by binding", func(t *testing.T) {
		s := reach(t)
		step(t, s, "Re C1: 5 is arbitrary, 2x is from the SLA", challengeEval(`{"id":"C1","outcome":"adjudicated","bindings":[
			{"id":"P1","outcome":"sustained"},{"id":"P3","outcome":"withdrawn","evidence_type":"textual","reason":"sla.md:12"}]}`))
		if bucketOf(s, "P1") != "buckets.dismissed[0]" || !strings.HasPrefix(bucketOf(s, "P3"), "buckets.agreed") || len(s.Disputed) != 0 {
			t.Errorf("P1 %s P3 %s", bucketOf(s, "P1"), bucketOf(s, "P3"))
		}
	})
	t.Run("dropped: every binding", func(t *testing.T) {
		s := reach(t)
		step(t, s, "other", `{}`)
		step(t, s, "other", `{}`)
		if d := s.Buckets.Dismissed; len(d) != 2 || d[0].Tag != TagUndefended || d[1].ID != "P3" {
			t.Errorf("dismissed %+v", d)
		}
	})
	t.Run("a revised binding leaves the group", func(t *testing.T) {
		s := reach(t)
		step(t, s, "Re C1: P1 revised", points(`{"text":"retry 3 times","triage":"in-scope","revises":"P1","classification":"AGREE","claim_type":"value"}`))
		if c := s.Challenges["C1"]; !slices.Equal(c.Bindings, []string{"P3"}) || c.Point != "back off 2x" || !slices.Contains(s.Disputed, "C1") {
			t.Errorf("C1 = %+v", c)
		}
	})
	t.Run("judging mistakes", func(t *testing.T) {
		s := reach(t)
		respond(t, s, "Re C1")
		_, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"adjudicated","bindings":[{"id":"P2","outcome":"sustained"},{"id":"P1","outcome":"withdrawn"}]}`))
		assertProblems(t, err, []string{
			`challenges[0].bindings[0].id: "P2" is not a binding of C1 (P1, P3)`,
			`challenges[0].bindings[1].evidence_type: is "", want execution, textual or n/a`,
			"challenges[0].bindings: P3 is not judged (every binding is adjudicated separately)",
		})
		_, err = evalJSON(s, challengeEval(`{"id":"C1","outcome":"partial","conceded_part":"a","narrowed":"b"}`))
		assertProblems(t, err, []string{"challenges[0].outcome: C1 is grouped: adjudicate each binding instead of narrowing"})
	})
	t.Run("group mistakes", func(t *testing.T) {
		s := start(t, nil)
		respond(t, s, "1. a")
		_, err := evalJSON(s, points(grouped("a"), `{"text":"b","triage":"in-scope","classification":"SKEPTICAL","flaw":"other","group":"g1"}`, `{"text":"c","triage":"in-scope","classification":"AGREE","claim_type":"value","group":"g2"}`))
		assertProblems(t, err, []string{
			`points[1].group: the points of group "g1" must share one flaw ("no failure rate measured", not "other")`,
			"points[2].group: groups SKEPTICAL points only (one challenge, one flaw)",
			`points[2].group: group "g2" has one point; a group binds two or more`,
		})
	})
}

func TestScopeStability(t *testing.T) {
	// At N>2 without disputes, an exchange that brought points into
	// deliberation is followed by another iteration; late points routed to
	// Not evaluated do not unsettle the scope.
	s := start(t, nil)
	s.Iteration, s.Phase = 3, Development
	next := step(t, s, "1. trace", points(`{"text":"pytest -k retry: FAILED","triage":"in-scope","kind":"evidence","classification":"AGREE","claim_type":"empirical","evidence_type":"execution"}`))
	if next.Action != ActionCritique || s.Iteration != 4 {
		t.Fatalf("new evidence at N=3: action %s N=%d", next.Action, s.Iteration)
	}
	next = step(t, s, "1. a new idea", points(agree("a new idea")))
	if next.Action != ActionSynthesize || s.NotEvaluated[0].Reason != "phase violation: raised in DEVELOPMENT" {
		t.Errorf("late argument only: action %s", next.Action)
	}
}

func TestRejectHasOneDefenseRound(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. x", points(reject("x", "wrong")))
	respond(t, s, "Re C1: it holds")
	_, err := evalJSON(s, `{}`)
	assertProblems(t, err, []string{"challenges: C1 is a REJECT challenge and the answer defends it: judge its one defense round"})
	_, err = evalJSON(s, challengeEval(`{"id":"C1","outcome":"evaluating"}`))
	assertProblems(t, err, []string{"challenges[0].outcome: C1 is a REJECT challenge with one defense round: judge it (accepted, upgraded, rejected, refuted or conceded)"})
}

func TestStressTestJudgmentProblems(t *testing.T) {
	s := twoAgreed(t, `,"require_stress_test":true`)
	step(t, s, "nothing", `{"coverage":{}}`)
	respond(t, s, "objection")
	_, err := evalJSON(s, `{"stress_test":{"objection":"","classification":"mitigable","impact":["P9"]}}`)
	assertProblems(t, err, []string{
		"stress_test.objection: is empty",
		"stress_test.mitigation: is required for mitigable (the orchestrator confirms with mitigation text)",
		`stress_test.impact[0]: "P9" is not an Agreed point`,
	})
	_, err = evalJSON(s, `{"stress_test":{"objection":"o","classification":"refuted"}}`)
	assertProblems(t, err, []string{"stress_test.evidence: is required for refuted (the orchestrator cites evidence)"})
	_, err = evalJSON(s, `{"stress_test":{"objection":"o","classification":"meh"},"coverage":{}}`)
	assertProblems(t, err, []string{
		"coverage: is only given with the answer to the coverage_check prompt (the pending action is stress_test)",
		`stress_test.classification: is "meh", want fatal, unresolved, mitigable, refuted or inconclusive`,
	})
}

// TestDeadlockIsTold: a deadlock that moves a challenge to another bucket
// is told to the consultee in the next Evaluation line, in place of
// "defense not accepted" (C2, raised later, keeps the deliberation going).
func TestDeadlockIsTold(t *testing.T) {
	for _, tc := range []struct {
		name   string
		evals  []string // the judgments from iteration 4 on
		want   string
		golden string
	}{
		{"criteria", []string{`{"id":"C1","outcome":"rejected","deadlock":"criteria","crux":"x vs y"},{"id":"C2","outcome":"rejected"}`},
			"Evaluation: SKEPTICAL [C1: unresolved (deadlock: criteria — x vs y); C2: defense not accepted — fy].", "subsequent_call_deadlock.txt"},
		{"missing data", []string{`{"id":"C1","outcome":"evaluating","deadlock":"missing-data","blocked":{"measurement":"write QPS","threshold":"100/s","verdict_delta":"<100/s AGREE, >1000/s REJECT"}},{"id":"C2","outcome":"rejected"}`},
			"Evaluation: SKEPTICAL [C1: unresolved (deadlock: missing data — missing write QPS; threshold 100/s; <100/s AGREE, >1000/s REJECT); C2: defense not accepted — fy].", ""},
		{"terms unclear", []string{`{"id":"C1","outcome":"rejected","deadlock":"definitional"},{"id":"C2","outcome":"rejected"}`,
			`{"id":"C1","outcome":"rejected","deadlock":"terms-unclear"},{"id":"C2","outcome":"rejected","deadlock":"definitional"}`},
			"Evaluation: SKEPTICAL [C1: dismissed as DIALECTICAL-STALL (deadlock: terms unclear); C2: defense not accepted — fy].", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, nil)
			step(t, s, "1. x", points(skeptical("x", "fx")))
			step(t, s, "Re C1: still x. 2. y", `{"challenges":[{"id":"C1","outcome":"rejected"}],"points":[`+skeptical("y", "fy")+`]}`)
			step(t, s, "Re C1: x. Re C2: y", challengeEval(`{"id":"C1","outcome":"rejected"}`, `{"id":"C2","outcome":"rejected"}`))
			var next *Next
			for _, e := range tc.evals {
				next = step(t, s, "Re C1: x, again. Re C2: y, again", challengeEval(e))
			}
			if next.Action != ActionCritique {
				t.Fatalf("next %+v", next)
			}
			if !strings.Contains(next.Prompt, "\n"+tc.want+"\n") || strings.Contains(next.Prompt, "C1: defense not accepted") {
				t.Errorf("want the line %q; prompt:\n%s", tc.want, next.Prompt)
			}
			if tc.golden != "" {
				golden(t, tc.golden, next.Prompt)
			}
		})
	}
}
