package deliberation

import (
	"encoding/json"
	"os"
	"testing"
)

// TestContradictoryStateRefused: a hand-edited state that contradicts
// itself is refused on load, with every contradiction named.
func TestContradictoryStateRefused(t *testing.T) {
	st, _ := newTestStore(t)
	id, _, _ := st.Start("Retry on 429?", nil)
	st.Respond(id, "1. a 2. b")
	st.Evaluate(id, []byte(`{"iteration":1,"response":"valid","points":[`+skeptical("a", "fa")+`,`+skeptical("b", "fb")+`]}`))
	edit := func(t *testing.T, change func(m map[string]any)) error {
		t.Helper()
		data, _ := os.ReadFile(st.StatePath(id))
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		change(m)
		out, _ := json.Marshal(m)
		other := NewStore(t.TempDir(), nil)
		os.WriteFile(other.StatePath(id), out, 0o600)
		_, err := other.Load(id)
		return err
	}
	err := edit(t, func(m map[string]any) {
		m["status"] = "finished"
		m["disputed"] = []any{"C1"}
	})
	assertProblemsContain(t, err,
		`exit_reason: is "", but the status is finished: want the reason it stopped`,
		"next.action: is critique, but the status is finished: want synthesize or exit",
		"disputed: lists C1, but the deliberation is finished: the open challenges went to Unresolved",
		"challenges.C2.status: is open, but C2 is not in disputed: list it there, or give the status it closed with")
	err = edit(t, func(m map[string]any) {
		m["exit_reason"] = "converged"
		m["challenges"].(map[string]any)["C1"].(map[string]any)["status"] = "conceded"
		m["consultation"] = map[string]any{"consultant": "codex", "iteration": 2, "action": "critique", "started_at": "2026-01-31T17:15:00Z", "pid": 1}
		m["next"].(map[string]any)["awaiting"] = "evaluation"
	})
	assertProblemsContain(t, err,
		`exit_reason: is "converged", but the status is active: a running deliberation has no exit reason`,
		"challenges.C1.status: is conceded, but C1 is disputed: a conceded or undefended challenge is closed",
		"consultation: names a consultation, but the deliberation awaits no answer")
}
