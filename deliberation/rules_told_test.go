package deliberation

import (
	"slices"
	"strings"
	"testing"
)

// evaluationLine is the Evaluation line of a prompt, or "".
func evaluationLineOf(prompt string) string {
	for l := range strings.SplitSeq(prompt, "\n") {
		if strings.HasPrefix(l, "Evaluation: ") {
			return l
		}
	}
	return ""
}

// TestEveryBucketChangeIsTold: each move the issue found untold appears
// in the next prompt's Evaluation line.
func TestEveryBucketChangeIsTold(t *testing.T) {
	guess := `{"text":"use sqlite","triage":"in-scope","classification":"SKEPTICAL","flaw":"no failure mode","dependency":{"confidence":"GUESS","alternative":"a flat file","alternative_confidence":"GUESS"}}`
	illFormed := `{"text":"it depends","triage":"in-scope","classification":"ILL-FORMED","flaw":"no referent","clarify":"on what?"}`
	for _, tc := range []struct {
		name  string
		steps [][2]string // answer, evaluation
		want  string      // in the last prompt's Evaluation line
	}{
		{"a Dependency Gate tie-break at classification", [][2]string{
			{"1. use sqlite 2. x", points(guess, skeptical("x", "fx"))},
		}, "REJECT [use sqlite — REJECTED: both sides GUESS on operational behavior: fewer dependencies wins (a flat file)]"},
		{"a dropped REJECT", [][2]string{
			{"1. y 2. x", points(reject("y", "wrong"), skeptical("x", "fx"))},
			{"Re C2: x holds", challengeEval(`{"id":"C2","outcome":"evaluating"}`)},
		}, "REJECT [C1: y — UNDEFENDED: not defended (iter 2)]"},
		{"UNDEFENDED after the reminder", [][2]string{
			{"1. y 2. x", points(skeptical("y", "fy"), skeptical("x", "fx"))},
			{"Re C2: x holds", challengeEval(`{"id":"C2","outcome":"evaluating"}`)},
			{"Re C2: x still holds", challengeEval(`{"id":"C2","outcome":"evaluating"}`)},
		}, "SKEPTICAL [C1: y — UNDEFENDED: not defended (iter 3)]"},
		{"a phase violation", [][2]string{
			{"1. x", points(skeptical("x", "fx"))},
			{"Re C1: x", challengeEval(`{"id":"C1","outcome":"evaluating"}`)},
			{"Re C1: x. 2. a new idea", `{"challenges":[{"id":"C1","outcome":"evaluating"}],"points":[` + agree("a new idea") + `]}`},
		}, "NOT EVALUATED [a new idea — phase violation: raised in DEVELOPMENT]"},
		{"a stall after a clarification", [][2]string{
			{"1. it depends 2. x", points(illFormed, skeptical("x", "fx"))},
			{"Re C1: x", challengeEval(`{"id":"C1","outcome":"evaluating"}`)},
		}, "ILL-FORMED [P1: it depends — DIALECTICAL-STALL: unevaluable after clarification]"},
		{"a REJECT upgraded to SKEPTICAL", [][2]string{
			{"1. y", points(reject("y", "wrong"))},
			{"Re C1: y, with a source", challengeEval(`{"id":"C1","outcome":"upgraded"}`)},
		}, "Evaluation: SKEPTICAL [C1: upgraded from REJECT: y because wrong (defend or concede)]."},
		{"a concession", [][2]string{
			{"1. y 2. x", points(skeptical("y", "fy"), skeptical("x", "fx"))},
			{"Re C1: I concede C1. Re C2: x", challengeEval(`{"id":"C1","outcome":"conceded"}`, `{"id":"C2","outcome":"evaluating"}`)},
		}, "SKEPTICAL [C1: y — CONCEDED: explicitly (iter 2)]"},
		{"out of scope and an anchor shift", [][2]string{
			{"1. gRPC 2. import at all? 3. x", points(`{"text":"switch to gRPC","triage":"out-of-scope","reason":"the transport is fixed"}`,
				`{"text":"ask whether to import at all","triage":"anchor-shift"}`, skeptical("x", "fx"))},
		}, "DISMISSED [switch to gRPC — OUT-OF-SCOPE: the transport is fixed], UNRESOLVED [ask whether to import at all — pending-anchor-shift: reframes the question; needs the user's consent to shift the anchor]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := start(t, nil)
			var next *Next
			for _, st := range tc.steps {
				next = step(t, s, st[0], st[1])
			}
			if next.Action != ActionCritique && next.Action != ActionReminder {
				t.Fatalf("next %s", next.Action)
			}
			if got := evaluationLineOf(next.Prompt); !strings.Contains(got, tc.want) {
				t.Errorf("Evaluation line %q\nwant it to hold %q", got, tc.want)
			}
		})
	}
}

// TestRevisionClosesAChallengeWithoutADeadlock replays the issue's
// scenario: a challenge kept evaluating for three rounds, then closed by a
// same-core revision. No deadlock ruling is demanded, a definitional one
// is not offered (it would never be asked), and the next prompt says the
// challenge closed, not "defense not accepted".
func TestRevisionClosesAChallengeWithoutADeadlock(t *testing.T) {
	revision := `{"text":"retry 5 times, on 429 only","triage":"in-scope","revises":"P1","same_core_claim":true,"classification":"SKEPTICAL","flaw":"5 is still arbitrary"}`
	reach := func(t *testing.T) *State {
		s := start(t, nil)
		step(t, s, "1. retry 5 times", points(skeptical("retry 5 times", "5 is arbitrary")))
		step(t, s, "Re C1: 5 is the SLA", challengeEval(`{"id":"C1","outcome":"evaluating"}`))
		step(t, s, "Re C1: the SLA says 5", challengeEval(`{"id":"C1","outcome":"evaluating"}`))
		respond(t, s, "Re C1: retry 5 times, on 429 only")
		if s.Iteration != 4 || s.rounds(s.Challenges["C1"]) != 3 {
			t.Fatalf("N=%d", s.Iteration)
		}
		return s
	}
	for _, judged := range []string{"", `{"id":"C1","outcome":"rejected","reason":"still no source"}`, `{"id":"C1","outcome":"evaluating"}`} {
		t.Run("judged "+orDefault(judged, "not at all"), func(t *testing.T) {
			s := reach(t)
			next, err := evalJSON(s, `{"challenges":[`+judged+`],"points":[`+revision+`]}`)
			if err != nil {
				t.Fatalf("a deadlock ruling is demanded of a challenge the revision closes: %v", err)
			}
			line := evaluationLineOf(next.Prompt)
			if strings.Contains(next.Prompt, "C1: defense not accepted") || !strings.Contains(line, "C1: retry 5 times — closed: you revised it (judged again as revised)") ||
				!strings.Contains(line, "C2: retry 5 times, on 429 only because 5 is still arbitrary") {
				t.Errorf("Evaluation line: %s", line)
			}
			if !slices.Equal(s.Disputed, []string{"C2"}) || s.Challenges["C2"].PointID != "P1" {
				t.Errorf("disputed %v", s.Disputed)
			}
		})
	}
	t.Run("a definitional ruling is not offered", func(t *testing.T) {
		s := reach(t)
		_, err := evalJSON(s, `{"challenges":[{"id":"C1","outcome":"rejected","deadlock":"definitional"}],"points":[`+revision+`]}`)
		assertProblems(t, err, []string{"challenges[0].deadlock: does not apply: C1 closes with this evaluation (points[0].revises), so no further round follows; leave deadlock out"})
	})
	t.Run("without the revision the ruling is still required", func(t *testing.T) {
		s := reach(t)
		_, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"evaluating"}`))
		assertProblems(t, err, []string{"challenges[0].deadlock: is required: C1 has been open 3 rounds (missing-data, definitional, criteria or terms-unclear)"})
	})
	t.Run("decisive evidence closes it too", func(t *testing.T) {
		s := reach(t)
		next, err := evalJSON(s, points(decisive("SLA.md:3 says 3 attempts", "refutes", "P1")))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Disputed) != 0 || !strings.HasPrefix(s.Buckets.Dismissed[0].Reason, "contradicted by decisive evidence") ||
			!strings.Contains(evaluationLineOf(next.Prompt), "REJECT [C1: retry 5 times — REJECTED: contradicted by decisive evidence: SLA.md:3 says 3 attempts]") {
			t.Errorf("disputed %v dismissed %+v\n%s", s.Disputed, s.Buckets.Dismissed, next.Prompt)
		}
	})
}

// TestIllFormedCarriesItsFlaw: an ILL-FORMED point without the sentence
// that says why it is unevaluable (or with a generic one) is refused,
// naming the point; with it, the consultee is told what is wrong.
func TestIllFormedCarriesItsFlaw(t *testing.T) {
	s := start(t, nil)
	respond(t, s, "1. it depends")
	_, err := evalJSON(s, points(`{"text":"it depends","triage":"in-scope","classification":"ILL-FORMED","clarify":"on what?"}`,
		`{"text":"maybe","triage":"in-scope","classification":"ILL-FORMED","flaw":"unclear","clarify":"maybe what?"}`))
	assertProblems(t, err, []string{
		`points[0].flaw: is required for ILL-FORMED "it depends": say why the point is unevaluable, in one sentence: a missing referent, an undefined comparison, an incoherent structure; the consultee is told it`,
		`points[1].flaw: "unclear" is generic for ILL-FORMED "maybe": say why the point is unevaluable, in one sentence: a missing referent, an undefined comparison, an incoherent structure; the consultee is told it`,
	})
	next, err := evalJSON(s, points(`{"text":"it depends","triage":"in-scope","classification":"ILL-FORMED","flaw":"no referent for what it depends on","clarify":"on what?"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `P1 ("it depends") is unevaluable as stated: no referent for what it depends on. Clarify: on what?`; !strings.Contains(next.Prompt, want) {
		t.Errorf("want %q in:\n%s", want, next.Prompt)
	}
}

// TestStallKeepsTheConsulteesNarrowedClaim: a partial defense corrected
// twice is a stall, and its row shows the claim the consultee last made,
// not the claim before it was narrowed.
func TestStallKeepsTheConsulteesNarrowedClaim(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. retry 5 times 2. x", points(skeptical("retry 5 times", "5 is arbitrary"), skeptical("x", "fx")))
	step(t, s, "Re C1: drop 5, keep backoff. Re C2: x", challengeEval(`{"id":"C1","outcome":"partial","conceded_part":"a fixed cap of 5","narrowed":"backoff with jitter"}`, `{"id":"C2","outcome":"evaluating"}`))
	step(t, s, "Re C1: backoff with jitter on 429 only. Re C2: x", challengeEval(`{"id":"C1","outcome":"corrected","narrowed":"backoff with jitter on 429 only"}`, `{"id":"C2","outcome":"evaluating"}`))
	next := step(t, s, "Re C1: backoff on 429 and 503. Re C2: x", challengeEval(`{"id":"C1","outcome":"corrected","narrowed":"backoff on 429 and 503"}`, `{"id":"C2","outcome":"evaluating","deadlock":"definitional"}`))
	i := slices.IndexFunc(s.Buckets.Dismissed, func(d Dismissed) bool { return d.ID == "P1" })
	if i < 0 || s.Buckets.Dismissed[i].Point != "backoff on 429 and 503" || s.Buckets.Dismissed[i].Tag != TagStall {
		t.Errorf("dismissed %+v", s.Buckets.Dismissed)
	}
	if want := "SKEPTICAL [C1: backoff on 429 and 503 — DIALECTICAL-STALL: scope unstable]"; !strings.Contains(next.Prompt, want) {
		t.Errorf("want %q in:\n%s", want, next.Prompt)
	}
}

// TestQuickModeChallengesByContent: quick mode's first prompt has one rule
// on challenges (by content), missing_id is refused there with what to do
// instead, a challenge the answer ignores ends undefended, not defended,
// and no prompt names a challenge ID.
func TestQuickModeChallengesByContent(t *testing.T) {
	s := start(t, &StartOptions{Quick: true})
	if p := s.Next.Prompt; strings.Contains(p, "by ID") || !strings.Contains(p, "6. Defend challenged points by content (quick mode: challenges carry no IDs), or concede them.") {
		t.Errorf("quick first prompt:\n%s", p)
	}
	step(t, s, "1. x 2. y", points(skeptical("x", "fx"), skeptical("y", "fy")))
	respond(t, s, "y holds because z")
	_, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"missing_id"}`))
	assertProblems(t, err, []string{"challenges[0].outcome: missing_id does not apply in quick mode, where challenges carry no IDs: judge the answer by content (accepted, rejected, conceded, ...), or leave C1 out when the answer ignores it (it goes to the user as unresolved)"})
	next, err := evalJSON(s, challengeEval(`{"id":"C2","outcome":"rejected","reason":"z is not shown"}`))
	if err != nil {
		t.Fatal(err)
	}
	if c1, c2 := s.Challenges["C1"].Status, s.Challenges["C2"].Status; c1 != ChallengeUndefended || c2 != ChallengeDefended {
		t.Errorf("ignored C1 %s, judged C2 %s", c1, c2)
	}
	if next.Action != ActionSynthesize {
		t.Errorf("next %s", next.Action)
	}

	t.Run("the quick prompts name no challenge ID", func(t *testing.T) {
		s := start(t, &StartOptions{Quick: true})
		next := step(t, s, "1. x", points(reject("x", "wrong")))
		if strings.Contains(next.Prompt, "C1") {
			t.Errorf("quick prompt:\n%s", next.Prompt)
		}
	})
	t.Run("full mode: missing_id for an answer that references nothing", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. x", points(skeptical("x", "fx")))
		next := step(t, s, "x holds: the SLA says so", challengeEval(`{"id":"C1","outcome":"missing_id"}`))
		if !strings.Contains(next.Prompt, "Your response appears to address C1 but doesn't reference it. Confirm?") {
			t.Errorf("prompt:\n%s", next.Prompt)
		}
	})
}

// TestPhaseMismatchIsLoggedAndShown: a stored phase that disagrees with
// the iteration is used (the seed: trust the file), named in the notes
// status shows, and logged in the warnings at the next step.
func TestPhaseMismatchIsLoggedAndShown(t *testing.T) {
	s := start(t, nil)
	s.Phase = Development // a hand edit, or a file of the original skill
	const w = "phase mismatch at iteration 1: stored DEVELOPMENT, derived CONSTRUCTIVE (the stored phase is used)"
	if doc := s.StatusDocument(t0, "inputs"); !slices.Contains(doc.Notes, w) {
		t.Errorf("status notes %v", doc.Notes)
	}
	respond(t, s, "1. a new idea")
	if !slices.Contains(s.Warnings, w) {
		t.Errorf("warnings %v", s.Warnings)
	}
	next, err := evalJSON(s, points(agree("a new idea")))
	if err != nil {
		t.Fatal(err)
	}
	if bucketOf(s, "P1") != "not_evaluated[0]" || !strings.Contains(next.Prompt, "NOT EVALUATED [a new idea — phase violation: raised in DEVELOPMENT]") {
		t.Errorf("the stored phase is not trusted: P1 at %s\n%s", bucketOf(s, "P1"), next.Prompt)
	}
	if n := strings.Count(strings.Join(s.Warnings, "\n"), "phase mismatch"); n != 1 {
		t.Errorf("logged %d times: %v", n, s.Warnings)
	}
}
