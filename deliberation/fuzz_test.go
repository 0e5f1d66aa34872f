package deliberation

import (
	"encoding/json"
	"os"
	"testing"
)

// FuzzDecodeState: any bytes either decode to a valid state that
// re-encodes and decodes again, or are refused with problems; never a
// panic.
func FuzzDecodeState(f *testing.F) {
	seed, _ := os.ReadFile("testdata/seed-state.json")
	f.Add(seed)
	f.Add([]byte(`{"version":1}`))
	f.Add([]byte(`{`))
	s, _ := New("q", nil, t0)
	fresh, _ := json.Marshal(s)
	f.Add(fresh)
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := decodeState(data)
		if err != nil {
			return
		}
		again, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := decodeState(again); err != nil {
			t.Fatalf("a decoded state does not decode again: %v", err)
		}
		_ = s.Recovery()
		_, _ = synthesize(s, testAnswer)
	})
}

// FuzzEvaluate: any evaluation document, applied to a deliberation with
// open challenges and a pending clarification, is applied or refused;
// the state stays valid either way.
func FuzzEvaluate(f *testing.F) {
	f.Add([]byte(`{"iteration":2,"response":"valid","challenges":[{"id":"C1","outcome":"partial","conceded_part":"a","narrowed":"b"}]}`))
	f.Add([]byte(`{"iteration":2,"response":"valid","points":[{"text":"x","triage":"in-scope","clarifies":"P3","classification":"AGREE","claim_type":"value"}]}`))
	f.Add([]byte(`{"iteration":2,"response":"format_failure"}`))
	f.Add([]byte(`{"iteration":2,"response":"valid","facts":[{"tag":"user","text":"x","supersedes":"F1"}]}`))
	f.Add([]byte(`{"iteration":2,"response":"valid","challenges":[{"id":"C1","outcome":"rejected"}],"points":[{"text":"a","triage":"in-scope","classification":"SKEPTICAL","flaw":"f","group":"g"},{"text":"b","triage":"in-scope","classification":"SKEPTICAL","flaw":"f","group":"g"}]}`))
	f.Add([]byte(`{"iteration":2,"response":"valid","points":[{"text":"t","triage":"in-scope","kind":"evidence","decisive":true,"classification":"AGREE","claim_type":"empirical","evidence_type":"execution","refutes":"P1"}]}`))
	f.Add([]byte(`{"iteration":2,"response":"valid","points":[{"text":"t","triage":"in-scope","kind":"evidence","decisive":true,"classification":"AGREE","claim_type":"empirical","evidence_type":"execution","flips":"P1"}]}`))
	base := fuzzBase(f)
	f.Fuzz(func(t *testing.T, doc []byte) {
		s := base.clone()
		ev, err := DecodeEvaluation(doc)
		if err != nil {
			return
		}
		_, _ = s.Evaluate(ev, t0)
		if err := s.validate(); err != nil {
			t.Fatalf("state invalid after evaluating %s: %v", doc, err)
		}
	})
}

func fuzzBase(f *testing.F) *State {
	s, err := New("q?", &StartOptions{Facts: []string{"f"}}, t0)
	if err != nil {
		f.Fatal(err)
	}
	steps := []struct{ response, eval string }{
		{"1. a", `{"iteration":1,"response":"valid","points":[
			{"text":"a","triage":"in-scope","classification":"SKEPTICAL","flaw":"fa"},
			{"text":"b","triage":"in-scope","classification":"REJECT","flaw":"fb","claim_type":"value","evidence":"e","why_terminal":"w"},
			{"text":"c","triage":"in-scope","classification":"ILL-FORMED","flaw":"no referent","clarify":"c?"}]}`},
	}
	for _, st := range steps {
		if err := s.Respond(st.response, t0); err != nil {
			f.Fatal(err)
		}
		ev, err := DecodeEvaluation([]byte(st.eval))
		if err != nil {
			f.Fatal(err)
		}
		if _, err := s.Evaluate(ev, t0); err != nil {
			f.Fatal(err)
		}
	}
	if err := s.Respond("Re C1: x. Re C2: y.", t0); err != nil {
		f.Fatal(err)
	}
	return s
}

// FuzzEvaluateJSON: decoding and judging a document in one pass never
// panics, refuses without changing the state, and leaves a valid state.
func FuzzEvaluateJSON(f *testing.F) {
	f.Add([]byte(`{"iteration":2,"response":"valid","points":[{"text":"a","triage":"in-scope","clasification":"AGREE"}],"challenges":[{"id":"C1","outcome":7}]}`))
	f.Add([]byte(`{"iteration":2,"response":"degraded_context","degraded":["asks_settled"]}`))
	f.Add([]byte(`{"iteration":2,"response":"valid","points":[{"text":"t","triage":"out-of-scope","drift":"tangent"}]}`))
	base := fuzzBase(f)
	f.Fuzz(func(t *testing.T, doc []byte) {
		s := base.clone()
		before := mustJSON(s)
		if _, err := s.evaluateJSON(doc, t0); err != nil {
			if after := mustJSON(s); after != before {
				t.Fatalf("a refused document changed the state: %s", doc)
			}
			return
		}
		if err := s.validate(); err != nil {
			t.Fatalf("state invalid after %s: %v", doc, err)
		}
	})
}

// FuzzReplay: any transcript replays to a valid state or an error, never
// a panic.
func FuzzReplay(f *testing.F) {
	st := NewStore(f.TempDir(), &StoreOptions{Clock: &fixedClock{t: t0}})
	id, _, _ := st.Start("q?", nil)
	st.Respond(id, "1. a")
	st.Evaluate(id, []byte(`{"iteration":1,"response":"valid","points":[{"text":"a","triage":"in-scope","classification":"SKEPTICAL","flaw":"f"}]}`))
	transcript, _ := os.ReadFile(st.TranscriptPath(id))
	f.Add(transcript)
	f.Add(transcript[:len(transcript)/2])
	f.Add([]byte("{\"kind\":\"start\",\"data\":{\"question\":\"q\"}}\n{\"kind\":\"consult_begin\",\"data\":{}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := replay(data)
		if err != nil {
			return
		}
		if err := s.validate(); err != nil {
			t.Fatalf("replayed state invalid: %v", err)
		}
	})
}

// FuzzListCacheLine: a cache line parses or is refused, never panics, and
// what parses is written back the same.
func FuzzListCacheLine(f *testing.F) {
	f.Add("12\t34\t20260131-171500\t\"active\"\t\"full\"\t2\t\"CONSTRUCTIVE\"\t\"2026-01-31T17:15:00Z\"\t\"\"\t\"q\\tx\"\t\"\"")
	f.Add("x")
	f.Fuzz(func(t *testing.T, line string) {
		c, ok := parseCachedEntry(line)
		if !ok {
			return
		}
		st := NewStore(t.TempDir(), nil)
		st.writeListCache(1, []cachedEntry{c})
		back, _ := st.readListCache(1)
		if len(back) != 1 || back[0].Entry != (Entry{ID: c.ID, StateFile: st.StatePath(c.ID), Status: c.Status, Mode: c.Mode, Iteration: c.Iteration,
			Phase: c.Phase, ExitReason: c.ExitReason, QuestionExcerpt: c.QuestionExcerpt, UpdatedAt: c.UpdatedAt, Error: c.Error}) {
			t.Fatalf("%q: read back %+v", line, back)
		}
	})
}
