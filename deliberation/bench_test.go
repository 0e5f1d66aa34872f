package deliberation

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkEngineStep measures one engine step as the CLI runs it: lock,
// load and strictly decode the state, decode and validate the evaluation,
// apply the rules, build the next prompt, append to the transcript and
// sync it (write-ahead), save with fsync and rename. The state and the
// transcript are reset outside the timer.
func BenchmarkEngineStep(b *testing.B) {
	st := NewStore(filepath.Join(b.TempDir(), "d"), nil)
	id, _, err := st.Start("Should the importer retry on HTTP 429?", &StartOptions{Facts: []string{"writes idempotent", "no new infrastructure"}})
	if err != nil {
		b.Fatal(err)
	}
	base := benchState(b, st, id)
	transcript, err := os.ReadFile(st.TranscriptPath(id))
	if err != nil {
		b.Fatal(err)
	}
	doc := []byte(`{"iteration":3,"response":"valid",
		"facts":[{"tag":"verified","ref":"client.py:88","text":"429 carries Retry-After"}],
		"challenges":[{"id":"C1","outcome":"accepted","evidence_type":"execution"},{"id":"C2","outcome":"rejected","reason":"still arbitrary"}],
		"points":[{"text":"bench: 10ms","triage":"in-scope","kind":"evidence","classification":"AGREE","claim_type":"empirical","evidence_type":"execution"}]}`)
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		if err := os.WriteFile(st.StatePath(id), base, 0o600); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(st.TranscriptPath(id), transcript, 0o600); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := st.Evaluate(id, doc); err != nil {
			b.Fatal(err)
		}
	}
}

// benchState drives a deliberation to iteration 3 with two open challenges
// and a recorded response, and returns the state file.
func benchState(b *testing.B, st *Store, id string) []byte {
	b.Helper()
	steps := []struct{ response, eval string }{
		{"1. a 2. b 3. c", `{"iteration":1,"response":"valid","points":[
			{"text":"backoff halves 429s","triage":"in-scope","classification":"SKEPTICAL","flaw":"no measurement","claim_type":"empirical"},
			{"text":"retry 5 times","triage":"in-scope","classification":"SKEPTICAL","flaw":"5 is arbitrary"},
			{"text":"honour Retry-After","triage":"in-scope","classification":"AGREE","claim_type":"value"}]}`},
		{"Re C1: bench. Re C2: keep 5.", `{"iteration":2,"response":"valid","challenges":[{"id":"C1","outcome":"evaluating"},{"id":"C2","outcome":"rejected"}]}`},
	}
	for _, s := range steps {
		if _, err := st.Respond(id, s.response); err != nil {
			b.Fatal(err)
		}
		if _, err := st.Evaluate(id, []byte(s.eval)); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := st.Respond(id, "Re C1: 429s 120 -> 58 (bench_test.go). Re C2: 5 matches the SLA."); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(st.StatePath(id))
	if err != nil {
		b.Fatal(err)
	}
	var probe State
	if json.Unmarshal(data, &probe) != nil || probe.Iteration != 3 {
		b.Fatalf("bench state not at iteration 3")
	}
	return data
}
