package deliberation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

// gen builds random operations against a state: mostly plausible
// evaluations, some invalid on purpose.
type gen struct{ r *rand.Rand }

func (g gen) pick(options ...string) string { return options[g.r.IntN(len(options))] }
func (g gen) chance(p float64) bool         { return g.r.Float64() < p }

func (g gen) response(s *State) string {
	text := "1. a point"
	for _, id := range s.Disputed {
		if g.chance(0.6) {
			text += " Re " + id + ": defended."
		}
	}
	if g.chance(0.1) {
		text = "   "
	}
	return text
}

func (g gen) point(s *State) map[string]any {
	p := map[string]any{
		"text":           g.pick("a", "b", "c", ""),
		"triage":         g.pick("in-scope", "in-scope", "in-scope", "out-of-scope", "anchor-shift", "bogus"),
		"classification": g.pick("AGREE", "SKEPTICAL", "REJECT", "ILL-FORMED", "BLOCKED", ""),
		"claim_type":     g.pick("empirical", "value", ""),
		"evidence_type":  g.pick("execution", "textual", "claim", "n/a", ""),
		"flaw":           g.pick("a flaw", "none", ""),
		"evidence":       g.pick("api.py:3", ""),
		"why_terminal":   g.pick("contradicted", ""),
		"clarify":        g.pick("what?", ""),
		"kind":           g.pick("", "argument", "evidence"),
		"decisive":       g.chance(0.3),
		"group":          g.pick("", "", "", "g"),
	}
	if g.chance(0.1) {
		p[g.pick("confirms", "refutes")] = g.pick("P1", "P2", "P3")
	}
	if g.chance(0.2) {
		p["blocked"] = map[string]string{"measurement": "m", "threshold": g.pick("t", ""), "verdict_delta": "d"}
	}
	if g.chance(0.1) {
		p["dependency"] = map[string]string{"confidence": g.pick("CERTAIN", "GUESS"), "alternative_confidence": g.pick("GUESS", "")}
	}
	if len(s.Pending) > 0 && g.chance(0.5) {
		p["clarifies"] = s.Pending[g.r.IntN(len(s.Pending))]
	}
	if len(s.Disputed) > 0 && g.chance(0.2) {
		p["revises"] = s.Challenges[s.Disputed[0]].PointID
		p["same_core_claim"] = g.chance(0.5)
	}
	if g.chance(0.05) {
		p["overflow"] = true
	}
	return p
}

func (g gen) challenge(s *State, id string) map[string]any {
	var bindings []any
	for _, b := range s.Challenges[id].Bindings {
		bindings = append(bindings, map[string]string{"id": b, "outcome": g.pick("sustained", "withdrawn"), "evidence_type": g.pick("textual", "n/a")})
	}
	return map[string]any{
		"id":            id,
		"bindings":      bindings,
		"outcome":       g.pick("accepted", "rejected", "refuted", "conceded", "partial", "corrected", "upgraded", "evaluating", "missing_id", "adjudicated", "bogus"),
		"evidence_type": g.pick("execution", "n/a", ""),
		"evidence":      g.pick("trace", ""),
		"conceded_part": g.pick("part", ""),
		"narrowed":      g.pick("narrower", ""),
		"deadlock":      g.pick("", "", "missing-data", "definitional", "criteria", "terms-unclear"),
		"crux":          g.pick("crux", ""),
		"blocked":       map[string]string{"measurement": "m", "threshold": "t", "verdict_delta": "d"},
	}
}

func (g gen) evaluation(s *State) []byte {
	ev := map[string]any{"iteration": s.Iteration, "response": g.pick("valid", "valid", "valid", "valid", "valid", "valid", "valid", "valid", "valid", "valid", "format_failure", "quality_failure")}
	if g.chance(0.05) {
		ev["iteration"] = s.Iteration + 1
	}
	var pts []any
	for range g.r.IntN(4) {
		pts = append(pts, g.point(s))
	}
	if pts != nil && ev["response"] == "valid" {
		ev["points"] = pts
	}
	var ces []any
	for _, id := range s.Disputed {
		if g.chance(0.6) {
			ces = append(ces, g.challenge(s, id))
		}
	}
	if ces != nil && ev["response"] == "valid" {
		ev["challenges"] = ces
	}
	if g.chance(0.2) {
		ev["facts"] = []any{map[string]string{"tag": g.pick("user", "verified", "codex-unverified"), "ref": "x:1", "text": "fact", "supersedes": g.pick("", "F1")}}
	}
	if s.Next != nil && ev["response"] == "valid" && g.chance(0.9) {
		switch s.Next.Action {
		case ActionCoverage:
			ev["coverage"] = map[string]any{"artifacts": []string{g.pick("new.go:1", "a point")}, "attack": g.chance(0.5)}
		case ActionStress:
			ev["stress_test"] = map[string]any{"objection": "o", "classification": g.pick("fatal", "mitigable", "refuted", "inconclusive"), "mitigation": "m", "evidence": "e"}
		case ActionArbitrate:
			ev["arbitration"] = map[string]any{"flagged": []any{}}
		}
	}
	ev["require_stress_test"] = g.chance(0.3)
	ev["request_arbitration"] = g.chance(0.1)
	if g.chance(0.03) {
		ev["trivial"] = "answer"
	}
	b, _ := json.Marshal(ev)
	return b
}

// TestPropertyAnySequenceKeepsAValidState: after any sequence of
// operations, valid or not, the state passes Validate (so no point is in
// two places), survives strict decoding in the seed's schema, and a refused
// operation leaves it byte for byte unchanged.
func TestPropertyAnySequenceKeepsAValidState(t *testing.T) {
	const runs, steps = 150, 50
	exits := map[string]int{}
	for seed := range uint64(runs) {
		g := gen{rand.New(rand.NewPCG(seed, 42))}
		s, err := New("q?", &StartOptions{Quick: g.chance(0.2)}, t0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range steps {
			before, _ := json.Marshal(s)
			err := g.operate(s)
			after, _ := json.Marshal(s)
			if err != nil && !bytes.Equal(before, after) {
				t.Fatalf("seed %d step %d: a refused operation changed the state: %v", seed, i, err)
			}
			checkState(t, fmt.Sprintf("seed %d step %d", seed, i), s)
		}
		exits[s.ExitReason]++
	}
	t.Logf("exit reasons over %d runs: %v", runs, exits)
	if len(exits) < 5 {
		t.Errorf("the generator reaches too few exits: %v", exits)
	}
}

func (g gen) operate(s *State) error {
	switch {
	case g.chance(0.003):
		return s.abandon(t0)
	case g.chance(0.05):
		_ = s.Recovery()
		return nil
	case s.Next != nil && s.Next.Awaiting == AwaitResponse && g.chance(0.9):
		return s.Respond(g.response(s), t0)
	}
	ev, err := DecodeEvaluation(g.evaluation(s))
	if err != nil {
		return err
	}
	_, err = s.Evaluate(ev, t0)
	return err
}

func checkState(t *testing.T, where string, s *State) {
	t.Helper()
	if err := s.validate(); err != nil {
		t.Fatalf("%s: invalid state: %v", where, err)
	}
	data, _ := json.Marshal(s)
	d, err := decodeState(data)
	if err != nil {
		t.Fatalf("%s: state does not decode strictly: %v\n%s", where, err, data)
	}
	var ids []string
	for id, at := range d.placements() {
		if len(at) != 1 {
			t.Fatalf("%s: %s in %v", where, id, at)
		}
		ids = append(ids, id)
	}
	for id := range s.Points {
		if !slices.Contains(ids, id) {
			t.Fatalf("%s: point %s in no bucket", where, id)
		}
	}
	if !s.Active() {
		if _, err := synthesize(s, testAnswer); err != nil && synthesizable(s.ExitReason) {
			t.Fatalf("%s: synthesize refused after %s: %v", where, s.ExitReason, err)
		}
	}
}

// TestPropertyThroughTheStore runs random operations through the store's
// operations and checks the file on disk after each: valid JSON in the
// seed's schema, strictly decodable, every point in one place, and
// untouched by refused operations.
func TestPropertyThroughTheStore(t *testing.T) {
	st, _ := newTestStore(t)
	for seed := range uint64(15) {
		g := gen{rand.New(rand.NewPCG(seed, 7))}
		id, _, err := st.Start("q?", &StartOptions{Quick: g.chance(0.2)})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 30 {
			before, _ := os.ReadFile(st.StatePath(id))
			s, err := st.Load(id)
			if err != nil {
				t.Fatal(err)
			}
			opErr := g.storeOperate(st, id, s)
			after, _ := os.ReadFile(st.StatePath(id))
			if opErr != nil && !bytes.Equal(before, after) {
				t.Fatalf("seed %d step %d: refused operation changed the file: %v", seed, i, opErr)
			}
			d, err := decodeState(after)
			if err != nil {
				t.Fatalf("seed %d step %d: file does not decode: %v", seed, i, err)
			}
			checkState(t, fmt.Sprintf("store seed %d step %d", seed, i), d)
		}
		replayed, err := st.Rebuild(id)
		if err != nil {
			t.Fatalf("seed %d: replay: %v", seed, err)
		}
		want, _ := st.Load(id)
		if a, b := mustJSON(replayed), mustJSON(want); a != b {
			t.Fatalf("seed %d: the transcript replays to another state:\n%s\nwant\n%s", seed, a, b)
		}
	}
}

func mustJSON(v any) string {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		panic(err)
	}
	return string(b)
}

func (g gen) storeOperate(st *Store, id string, s *State) error {
	switch {
	case g.chance(0.01):
		_, err := st.Abandon(id)
		return err
	case g.chance(0.05):
		_, err := st.Recover(id)
		return err
	case s.Next != nil && s.Next.Awaiting == AwaitResponse && g.chance(0.9):
		_, err := st.Respond(id, g.response(s))
		return err
	}
	_, err := st.Evaluate(id, g.evaluation(s))
	return err
}
