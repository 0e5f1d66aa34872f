package deliberation

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// benchEvaluate measures the rules alone (State.Evaluate: validate the
// evaluation against the state, apply the rules, build the next prompt) for
// one evaluation document on a state that already carries a ledger of
// ledger facts; the state is decoded afresh outside the timer.
func benchEvaluate(b *testing.B, ledger int, doc []byte) {
	b.Helper()
	facts := make([]string, ledger)
	for i := range facts {
		facts[i] = fmt.Sprintf("constraint %d: requests are idempotent per key", i)
	}
	s, err := New("Should the importer retry on HTTP 429?", &StartOptions{Facts: facts, LedgerBudget: 16000}, t0)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Respond("1. a\n2. b", t0); err != nil {
		b.Fatal(err)
	}
	base, _ := json.Marshal(s)
	ev, err := DecodeEvaluation(doc)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		var fresh State
		if err := json.Unmarshal(base, &fresh); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := fresh.Evaluate(ev, t0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRules200Facts is a step that adds 200 facts (user facts
// superseding an earlier entry and verified ones) to a ledger of 200, over its budget.
func BenchmarkRules200Facts(b *testing.B) {
	var fs []string
	for i := range 200 {
		if i%2 == 0 {
			fs = append(fs, fmt.Sprintf(`{"tag":"user","text":"constraint %d, restated","supersedes":"F%d"}`, i, i+1))
			continue
		}
		fs = append(fs, fmt.Sprintf(`{"tag":"verified","ref":"api.py:%d","text":"rate %d/s measured at the gateway under the nightly load test"}`, i+1, i))
	}
	doc := `{"iteration":1,"response":"valid","facts":[` + strings.Join(fs, ",") + `],"points":[` +
		`{"text":"cite F201 and F399","triage":"in-scope","classification":"SKEPTICAL","flaw":"F3 says otherwise"}]}`
	benchEvaluate(b, 200, []byte(doc))
}

// BenchmarkRules400Points is a step with 400 new points in 5 themes: a
// third agreed, a third challenged, a third dismissed as out of scope.
func BenchmarkRules400Points(b *testing.B) {
	var ps []string
	for i := range 400 {
		theme := fmt.Sprintf("theme %d", i%5)
		switch i % 3 {
		case 0:
			ps = append(ps, fmt.Sprintf(`{"text":"point %d holds","triage":"in-scope","theme":%q,"classification":"AGREE","claim_type":"value"}`, i, theme))
		case 1:
			ps = append(ps, fmt.Sprintf(`{"text":"point %d is doubtful","triage":"in-scope","theme":%q,"classification":"SKEPTICAL","flaw":"no measurement %d"}`, i, theme, i))
		default:
			ps = append(ps, fmt.Sprintf(`{"text":"point %d is elsewhere","triage":"out-of-scope"}`, i))
		}
	}
	doc := `{"iteration":1,"response":"valid","points":[` + strings.Join(ps, ",") + `]}`
	benchEvaluate(b, 2, []byte(doc))
}
