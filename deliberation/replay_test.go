package deliberation

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestRestoreFromTranscript(t *testing.T) {
	st, _ := newTestStore(t)
	id, _, err := st.Start("Should the importer retry on HTTP 429?", &StartOptions{Facts: []string{"no new infrastructure"}, Paths: []string{"/srv/a.py"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Respond(id, "1. retry 5 times"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Evaluate(id, []byte(`{"iteration":1,"response":"valid","points":[{"text":"retry 5 times","triage":"in-scope","classification":"SKEPTICAL","flaw":"arbitrary"}]}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Recover(id); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(st.StatePath(id))
	if _, kept, written, err := st.Restore(id); err != nil || kept != "" || written {
		t.Fatalf("restore over a file that matches its transcript: kept %q, %v", kept, err)
	}
	if same, _ := os.ReadFile(st.StatePath(id)); string(same) != string(good) {
		t.Fatal("restore rewrote a state that matched its transcript")
	}

	// A crash cut the transcript's last line, and the state file is garbage.
	f, _ := os.OpenFile(st.TranscriptPath(id), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"time":"2026-01-31T17:15:00Z","kind":"resp`)
	f.Close()
	os.WriteFile(st.StatePath(id), []byte("garbage"), 0o600)

	s, kept, _, err := st.Restore(id)
	if err != nil {
		t.Fatal(err)
	}
	if kept == "" || !strings.HasSuffix(kept, ".unreadable-20260131-171500") {
		t.Errorf("kept = %q", kept)
	}
	if k, _ := os.ReadFile(kept); string(k) != "garbage" {
		t.Error("the unreadable file was not kept as it was")
	}
	restored, _ := os.ReadFile(st.StatePath(id))
	if string(restored) != string(good) {
		t.Errorf("restored state differs:\n%s\nwant\n%s", restored, good)
	}
	if !s.Active() || s.Next.Awaiting != AwaitResponse || !strings.Contains(s.Next.Prompt, "SESSION RECOVERY") {
		t.Errorf("restored next = %+v", s.Next)
	}
}

func TestReplayErrors(t *testing.T) {
	tests := []struct{ name, transcript, want string }{
		{"empty", "", "transcript has no start record"},
		{"no start", `{"time":"2026-01-31T17:15:00Z","kind":"response","text":"x"}` + "\n", "transcript line 1 (response): no start record before it"},
		{"broken middle line", "{nope\n" + `{"kind":"x"}` + "\n", "transcript line 1: invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := replay([]byte(tt.transcript))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestReplayReadsRetiredForms: a transcript written before flips was
// retired and before ILL-FORMED needed its flaw still rebuilds its
// deliberation: flips flips its point as the engine did then (Agreed to
// Dismissed, any other to Agreed), and an ILL-FORMED point stands without
// its flaw.
func TestReplayReadsRetiredForms(t *testing.T) {
	// started runs the first step through a store and returns the
	// transcript as written.
	started := func(t *testing.T, evaluation string) (*Store, string, string) {
		t.Helper()
		st, _ := newTestStore(t)
		id, _, err := st.Start("Should the importer retry on HTTP 429?", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Respond(id, "1. parse never throws 2. a 5-minute idle timeout is enough"); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Evaluate(id, []byte(evaluation)); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(st.TranscriptPath(id))
		return st, id, string(data)
	}
	t.Run("ILL-FORMED without its flaw", func(t *testing.T) {
		st, id, transcript := started(t, `{"iteration":1,"response":"valid","points":[`+agree("parse never throws")+`,`+
			`{"text":"a 5-minute idle timeout is enough","triage":"in-scope","classification":"ILL-FORMED","flaw":"no referent for enough","clarify":"Enough for what?"}]}`)
		old := strings.Replace(transcript, `"flaw":"no referent for enough",`, "", 1)
		if old == transcript {
			t.Fatal("the transcript does not hold the ILL-FORMED point's flaw as written")
		}
		os.WriteFile(st.TranscriptPath(id), []byte(old), 0o600)
		s, err := st.Rebuild(id)
		if err != nil {
			t.Fatalf("rebuild from the older transcript: %v", err)
		}
		if !slices.Equal(s.Pending, []string{"P2"}) || s.Points["P2"].Issue != unrecordedFlaw {
			t.Errorf("pending %v, P2 %+v", s.Pending, s.Points["P2"])
		}
	})
	t.Run("flips", func(t *testing.T) {
		_, _, transcript := started(t, `{"iteration":1,"response":"valid","points":[`+agree("parse never throws")+`,`+
			`{"text":"a 5-minute idle timeout is enough","triage":"in-scope","classification":"BLOCKED","blocked":{"measurement":"longest gap","threshold":"5 min","verdict_delta":"over 5 min: REJECT"}}]}`)
		flip := func(p string) string {
			return strings.NewReplacer(`"refutes"`, `"flips"`, `"confirms"`, `"flips"`).Replace(p)
		}
		evaluation := `{"iteration":2,"response":"valid","points":[` +
			flip(decisive("stack trace: parse() throws on empty input", "refutes", "P1")) + `,` +
			flip(decisive("measured: longest gap 3 min", "confirms", "P2")) + `]}`
		older := transcript +
			`{"time":"2026-01-31T17:15:00Z","kind":"response","text":"traces"}` + "\n" +
			`{"time":"2026-01-31T17:15:00Z","kind":"evaluation","data":` + evaluation + "}\n"
		s, err := replay([]byte(older))
		if err != nil {
			t.Fatalf("replay of flips: %v", err)
		}
		if d := s.Buckets.Dismissed; len(d) != 1 || d[0].ID != "P1" || d[0].Tag != TagRejected {
			t.Errorf("P1 flipped from Agreed: dismissed %+v", d)
		}
		if !slices.ContainsFunc(s.Buckets.Agreed, func(a Agreed) bool { return a.ID == "P2" }) {
			t.Errorf("P2 flipped from Unresolved: agreed %+v", s.Buckets.Agreed)
		}
		if _, err := DecodeEvaluation([]byte(evaluation)); err == nil {
			t.Error("flips is accepted from a caller, not only from a recorded transcript")
		}
	})
}
