package deliberation

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/problem"
)

// TestStartCaps: a start input over MaxQuestion is refused by New,
// CheckStart and Store.Start alike, naming the field and the cap, and
// writes nothing; at the cap it starts and its state reads back.
func TestStartCaps(t *testing.T) {
	over := strings.Repeat("q", MaxQuestion+1)
	half := strings.Repeat("f", MaxQuestion/2+1)
	tests := []struct {
		name     string
		question string
		opts     *StartOptions
		want     string
	}{
		{"question", over, nil, "question: is 65537 bytes, over the cap of 64 KiB for a deliberation's question (every prompt may carry it): keep it short and put longer material in a file the consultee reads (its absolute path in paths, --path)"},
		{"facts together", "q?", &StartOptions{Facts: []string{half, half}}, "facts: is 65538 bytes, over the cap of 64 KiB for the user facts together"},
		{"interpretations", "q?", &StartOptions{Interpretations: []string{half, half}}, "interpretations: is 65538 bytes, over the cap of 64 KiB"},
		{"ssm", "q?", &StartOptions{SSM: SSM{Shape: half, DriftSignals: half}}, "ssm: is 65538 bytes, over the cap of 64 KiB"},
		{"paths", "q?", &StartOptions{Paths: []string{"/" + half, "/" + half}}, "paths: is 65540 bytes, over the cap of 64 KiB for the paths together (every prompt may carry it): name fewer files, or a folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			st := NewStore(dir, nil)
			_, _, err := st.Start(tt.question, tt.opts)
			for name, err := range map[string]error{"Start": err, "CheckStart": CheckStart(tt.question, tt.opts), "New": second(New(tt.question, tt.opts, time.Now()))} {
				var p problem.List
				if !errors.As(err, &p) || !strings.HasPrefix(err.Error(), tt.want) {
					t.Errorf("%s: %v, want a problem starting %q", name, err, tt.want)
				}
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("a refused start wrote %v", entries)
			}
		})
	}
	st := NewStore(t.TempDir(), nil)
	id, _, err := st.Start(strings.Repeat("<", MaxQuestion), &StartOptions{Facts: []string{strings.Repeat("&", MaxQuestion)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Load(id); err != nil {
		t.Errorf("a start at the caps does not read back: %v", err)
	}
}

func second(_ *State, err error) error { return err }

// TestUpdateRefusesWhatCouldNotBeRead: a step that would make the state
// file larger than MaxStateFile is refused before the transcript or the
// state is written, so the deliberation still loads as it was.
func TestUpdateRefusesWhatCouldNotBeRead(t *testing.T) {
	st := NewStore(t.TempDir(), nil)
	id, _, err := st.Start("should we cache this?", nil)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(st.StatePath(id))
	tbefore, _ := os.ReadFile(st.TranscriptPath(id))
	big := strings.Repeat("<", MaxStateFile/6+1) // each < is written as \u003c
	_, err = st.Update(id, func(s *State, now time.Time) ([]Record, error) {
		s.Warnings = append(s.Warnings, big)
		return []Record{{Kind: "response", Iteration: 1, Text: "x"}}, nil
	})
	want := filepath.Join(st.Dir(), filepath.Base(st.StatePath(id))) + ": would grow to "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "over the cap of 64 MiB for a deliberation state file, and could not be read back: the step is refused and nothing was written") {
		t.Fatalf("Update: %v, want a problem starting %q", err, want)
	}
	after, _ := os.ReadFile(st.StatePath(id))
	tafter, _ := os.ReadFile(st.TranscriptPath(id))
	if string(after) != string(before) || string(tafter) != string(tbefore) {
		t.Error("a refused step wrote the state or the transcript")
	}
	if _, err := st.Load(id); err != nil {
		t.Errorf("Load after a refused step: %v", err)
	}
}

// TestEvaluateNil: a nil evaluation is an error naming it, not a panic,
// and the state is left as it was.
func TestEvaluateNil(t *testing.T) {
	now := time.Date(2026, 1, 31, 17, 15, 0, 0, time.UTC)
	s, err := New("should we cache this?", nil, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Respond("Yes: cache the parsed registry.", now); err != nil {
		t.Fatal(err)
	}
	before := mustJSONString(s)
	next, err := s.Evaluate(nil, now)
	want := "evaluation: is nil: want the orchestrator's evaluation of the last response"
	if next != nil || err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Evaluate(nil): %v, %v, want an error starting %q", next, err, want)
	}
	if mustJSONString(s) != before {
		t.Error("a refused evaluation changed the state")
	}
}

// TestReadsAreBounded: state files and transcripts are read within their
// caps, regular files only; over a cap is an error naming the file, the cap
// and the fix, and a FIFO is refused at once instead of hanging.
func TestReadsAreBounded(t *testing.T) {
	fresh := func(t *testing.T) (*Store, string) { return started(t, "bounded?") }
	t.Run("state file over its cap", func(t *testing.T) {
		st, id := fresh(t)
		if err := os.Truncate(st.StatePath(id), MaxStateFile+1); err != nil {
			t.Fatal(err)
		}
		_, err := st.Load(id)
		for _, want := range []string{st.StatePath(id), "64 MiB", "a deliberation state file", "rebuild the state from its transcript"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v lacks %q", err, want)
			}
		}
		if re := (*RestoreError)(nil); !errors.As(err, &re) || re.ID != id || !errors.Is(err, infile.ErrTooLarge) {
			t.Errorf("error %v: want a RestoreError for %s over a too-large file", err, id)
		}
	})
	t.Run("transcript over its cap", func(t *testing.T) {
		st, id := fresh(t)
		if err := os.Truncate(st.TranscriptPath(id), MaxTranscript+1); err != nil {
			t.Fatal(err)
		}
		for _, op := range []func() error{
			func() error { _, err := st.Load(id); return err },
			func() error { _, err := st.Rebuild(id); return err },
			func() error { _, err := st.ReadTranscript(id); return err },
		} {
			err := op()
			if err == nil || !strings.Contains(err.Error(), st.TranscriptPath(id)) || !strings.Contains(err.Error(), "256 MiB") {
				t.Errorf("error %v", err)
			}
		}
	})
	t.Run("a FIFO is refused at once", func(t *testing.T) {
		st, id := fresh(t)
		os.Remove(st.StatePath(id))
		if err := syscall.Mkfifo(st.StatePath(id), 0o600); err != nil {
			t.Skip("no mkfifo:", err)
		}
		done := make(chan error, 1)
		go func() { _, err := st.Load(id); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "named pipe") || !strings.Contains(err.Error(), st.StatePath(id)) {
				t.Errorf("error %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("loading a FIFO state file hangs")
		}
	})
	t.Run("a FIFO transcript is refused at once", func(t *testing.T) {
		st, id := fresh(t)
		os.Remove(st.TranscriptPath(id))
		if err := syscall.Mkfifo(st.TranscriptPath(id), 0o600); err != nil {
			t.Skip("no mkfifo:", err)
		}
		done := make(chan error, 1)
		go func() { _, err := st.Respond(id, "1. a"); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "named pipe") {
				t.Errorf("error %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a FIFO transcript hangs respond")
		}
	})
	t.Run("an answer over its cap", func(t *testing.T) {
		st, id := fresh(t)
		_, err := st.Respond(id, strings.Repeat("x", MaxResponse+1))
		if err == nil || !strings.Contains(err.Error(), "response: is 1048577 bytes, over the cap of 1 MiB for an answer") {
			t.Errorf("error %v", err)
		}
		if info, _ := os.Stat(st.StatePath(id)); info.Size() > 64<<10 {
			t.Errorf("the state file grew to %d bytes", info.Size())
		}
	})
}
