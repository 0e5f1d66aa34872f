package deliberation

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestCleanLeftovers: what kills leave behind is cleaned: temporary state
// files and record-less transcripts are removed, a transcript whose state
// file was never written gets it, and one that does not replay is kept.
func TestCleanLeftovers(t *testing.T) {
	st, _ := newTestStore(t)
	id, _, err := st.Start("whole?", nil)
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(st.Dir(), ".codex-ask-state-"+id+".json.tmp-123")
	os.WriteFile(tmp, []byte("half a state"), 0o600)

	// A kill right after the name was claimed: an empty transcript.
	empty := st.TranscriptPath("20260131-171501")
	os.WriteFile(empty, nil, 0o600)
	// A kill after the start record, before the state file.
	copyTranscript := func(from *Store, fromID, toID string) {
		b, err := os.ReadFile(from.TranscriptPath(fromID))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(st.TranscriptPath(toID), b, 0o600)
	}
	src := NewStore(filepath.Join(t.TempDir(), "src"), &StoreOptions{Clock: &fixedClock{t: t0}})
	srcID, _, _ := src.Start("orphan?", nil)
	copyTranscript(src, srcID, "20260131-171502")
	// Records that do not replay.
	os.WriteFile(st.TranscriptPath("20260131-171503"), []byte("{\"kind\":\"response\"}\n"), 0o600)

	c, err := st.Clean()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(c.Removed, tmp) || !slices.Contains(c.Removed, empty) || len(c.Removed) != 2 {
		t.Errorf("removed %v", c.Removed)
	}
	if !slices.Equal(c.Restored, []string{"20260131-171502"}) {
		t.Errorf("restored %v", c.Restored)
	}
	if !slices.Equal(c.Kept, []string{st.TranscriptPath("20260131-171503")}) {
		t.Errorf("kept %v", c.Kept)
	}
	if s, err := st.Load("20260131-171502"); err != nil || s.questionText() != "orphan?" {
		t.Errorf("the restored deliberation: %v", err)
	}
	if _, err := os.Stat(tmp); err == nil {
		t.Error("the temporary file is still there")
	}
	if s, err := st.Load(id); err != nil || s.questionText() != "whole?" {
		t.Errorf("a whole deliberation was disturbed: %v", err)
	}
	again, _ := st.Clean()
	if len(again.Removed)+len(again.Restored) != 0 {
		t.Errorf("a second clean did something: %+v", again)
	}
}
