package deliberation

import (
	"os"
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
