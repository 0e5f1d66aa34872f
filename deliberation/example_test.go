package deliberation_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/elicit/elicit/deliberation"
)

// A deliberation is driven by three calls: the engine builds each prompt,
// the consultee answers, the orchestrator judges.
func Example() {
	now := time.Date(2026, 1, 31, 17, 15, 0, 0, time.UTC)
	s, _ := deliberation.New("Should the importer retry on HTTP 429?", nil, now)
	fmt.Println(s.Next.Action, s.Next.Iteration)

	_ = s.Respond("1. Retry 5 times with backoff.", now)
	ev, _ := deliberation.DecodeEvaluation([]byte(`{"iteration": 1, "response": "valid", "points": [
		{"text": "retry 5 times", "triage": "in-scope", "classification": "SKEPTICAL", "flaw": "5 is arbitrary"}]}`))
	next, _ := s.Evaluate(ev, now)
	fmt.Println(next.Action, next.Iteration, s.Disputed)

	_ = s.Respond("Re C1: I concede C1.", now)
	ev, _ = deliberation.DecodeEvaluation([]byte(`{"iteration": 2, "response": "valid", "challenges": [{"id": "C1", "outcome": "conceded"}]}`))
	next, _ = s.Evaluate(ev, now)
	fmt.Println(next.Action, s.Buckets.Dismissed[0].Tag, s.Buckets.Dismissed[0].Reason)
	// Output:
	// ask 1
	// critique 2 [C1]
	// coverage_check CONCEDED explicitly (iter 2)
}

// Evaluate refuses an evaluation that breaks a classification gate, listing
// every problem with its path, and leaves the state unchanged.
func ExampleState_Evaluate_gates() {
	now := time.Date(2026, 1, 31, 17, 15, 0, 0, time.UTC)
	s, _ := deliberation.New("Should the importer retry on HTTP 429?", nil, now)
	_ = s.Respond("1. The API never sends 429.", now)
	ev, _ := deliberation.DecodeEvaluation([]byte(`{"iteration": 1, "response": "valid", "points": [
		{"text": "the API never sends 429", "triage": "in-scope", "classification": "REJECT", "flaw": "none"}]}`))
	_, err := s.Evaluate(ev, now)
	fmt.Println(err)
	// Output:
	// 4 problems:
	// points[0].flaw: "none" with REJECT is a contradiction: articulate the flaw or revise to AGREE
	// points[0].claim_type: is "", want empirical or value
	// points[0].evidence: is required for REJECT (execution, textual or reasoning supporting the rejection)
	// points[0].why_terminal: is required for REJECT (why SKEPTICAL is insufficient)
}

// fixed is a clock for examples.
type fixed time.Time

func (f fixed) Now() time.Time { return time.Time(f) }

// A Store keeps each deliberation in its own file, written atomically
// under a lock, with a transcript beside it.
func ExampleStore() {
	dir, _ := os.MkdirTemp("", "deliberations")
	defer os.RemoveAll(dir)
	st := deliberation.NewStore(dir, &deliberation.StoreOptions{Clock: fixed(time.Date(2026, 1, 31, 17, 15, 0, 0, time.UTC))})

	id, _, _ := st.Start("Should the importer retry on HTTP 429?", nil)
	fmt.Println(filepath.Base(st.StatePath(id)))
	_, _ = st.Respond(id, "It is a yes: honour Retry-After.")
	s, _ := st.Evaluate(id, []byte(`{"iteration": 1, "response": "valid", "trivial": "Yes: honour Retry-After."}`))
	fmt.Println(s.Status, s.ExitReason)
	y, _ := st.Synthesize(id, "")
	fmt.Println(y.Answer)
	// Output:
	// codex-ask-state-20260131-171500.json
	// finished early exit: trivial
	// Yes: honour Retry-After.
}
