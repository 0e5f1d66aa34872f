package deliberation

import (
	"encoding/json"
	"strings"
	"testing"
)

// inDevelopment is a deliberation at iteration 3 awaiting the answer to a
// critique: P1 agreed, C1 on P2 still open.
func inDevelopment(t *testing.T) (*Store, string) {
	t.Helper()
	st, _ := newTestStore(t)
	id, _, err := st.Start("Should the importer retry on HTTP 429?", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct{ answer, eval string }{
		{"1. Honour Retry-After (client.py:88). EVIDENCE.\n2. Retry 5 times. GUESS.", `{"iteration": 1, "response": "valid", "points": [
		  {"text": "honour Retry-After", "triage": "in-scope", "classification": "AGREE", "claim_type": "empirical", "evidence_type": "textual"},
		  {"text": "retry 5 times", "triage": "in-scope", "classification": "SKEPTICAL", "flaw": "5 is arbitrary"}]}`},
		{"Re C1: 5 matches the SLA.", `{"iteration": 2, "response": "valid", "challenges": [{"id": "C1", "outcome": "evaluating"}]}`},
	} {
		if _, err := st.Respond(id, x.answer); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Evaluate(id, []byte(x.eval)); err != nil {
			t.Fatal(err)
		}
	}
	return st, id
}

// TestPeerChallengeIsHeldToTheLedgersRules: a cross-review's challenge of
// an agreed point becomes a challenge of its own in the owner's ledger,
// in its pending prompt; dropped, it gets the reminder, then UNDEFENDED;
// and the transcript replays it.
func TestPeerChallengeIsHeldToTheLedgersRules(t *testing.T) {
	st, id := inDevelopment(t)
	cid, err := st.PeerChallenge(id, "P1", "the header is ignored on 503")
	if err != nil || cid != "C2" {
		t.Fatalf("peer challenge: %q, %v", cid, err)
	}
	s, _ := st.Load(id)
	if !strings.Contains(s.Next.Prompt, "- C2: honour Retry-After — a peer consultee's review: the header is ignored on 503") ||
		!strings.Contains(s.Next.Prompt, "A peer's review challenges P1") || s.Next.Iteration != 3 {
		t.Fatalf("the pending prompt lacks the peer's challenge:\n%s", s.Next.Prompt)
	}
	if len(s.Buckets.Agreed) != 0 {
		t.Errorf("P1 is still agreed: %+v", s.Buckets.Agreed)
	}
	rebuilt, err := st.Rebuild(id)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(s)
	b, _ := json.Marshal(rebuilt)
	if string(a) != string(b) {
		t.Errorf("the transcript does not replay the peer's challenge:\n%s\n%s", a, b)
	}

	for i, want := range []string{"C2 was not addressed", ""} {
		if _, err := st.Respond(id, "Re C1: still the SLA."); err != nil {
			t.Fatal(err)
		}
		doc := []string{`{"iteration": 3, "response": "valid", "challenges": [{"id": "C1", "outcome": "evaluating"}]}`,
			`{"iteration": 4, "response": "valid", "challenges": [{"id": "C1", "outcome": "conceded"}]}`}[i]
		if _, err := st.Evaluate(id, []byte(doc)); err != nil {
			t.Fatal(err)
		}
		s, _ = st.Load(id)
		if want != "" && !strings.Contains(s.Next.Prompt, want) {
			t.Errorf("round %d: no reminder of C2:\n%s", i+1, s.Next.Prompt)
		}
	}
	if c := s.Challenges["C2"]; c.Status != ChallengeUndefended {
		t.Errorf("C2 is %s, want undefended", c.Status)
	}
}

func TestPeerChallengeIsRefusedOutsideACritique(t *testing.T) {
	for _, tt := range []struct {
		name, point, flaw, want string
	}{
		{"no flaw", "P1", " ", "flaw: is required"},
		{"not agreed", "P2", "x", "P2 is not agreed"},
		{"unknown", "P9", "x", "P9 is not agreed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st, id := inDevelopment(t)
			if _, err := st.PeerChallenge(id, tt.point, tt.flaw); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
	st, _ := newTestStore(t)
	id, _, _ := st.Start("Q?", nil)
	if _, err := st.PeerChallenge(id, "P1", "x"); err == nil || !strings.Contains(err.Error(), "only while a full deliberation awaits the answer to a critique") {
		t.Errorf("on the First Call: %v", err)
	}
}
