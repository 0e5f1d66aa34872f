package deliberation

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
