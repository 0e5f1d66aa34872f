package deliberation

import (
	"strings"
	"testing"
)

// TestRecoveryKeepsSpecialSteps: the Recovery prompt keeps the special
// steps, the last Evaluation line and what the consultee defended.
func TestRecoveryKeepsSpecialSteps(t *testing.T) {
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

// TestRecoverWaitsForAConsultation: a person's recover waits for a running
// consultation (its answer would be for a prompt no longer pending); once
// it ended, recover works.
func TestRecoverWaitsForAConsultation(t *testing.T) {
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
