package cli

import (
	"strings"
	"testing"

	"github.com/elicit/elicit/deliberation"
)

// writeCounter counts the writes made to it.
type writeCounter struct {
	strings.Builder
	writes int
}

func (w *writeCounter) Write(p []byte) (int, error) {
	w.writes++
	return w.Builder.Write(p)
}

// TestStatusWritesOnce checks that `deliberate status` prints its lines in
// one write (one system call on a terminal or a pipe), not one per piece.
func TestStatusWritesOnce(t *testing.T) {
	w := &writeCounter{}
	a := &app{stdout: w}
	s := &deliberation.State{QuestionExcerpt: "Retry on 429?", Iteration: 2, Phase: "explore"}
	a.delibPrintStatus("20260131-171500", &deliberation.StatusDocument{State: s, Notes: []string{"one", "two"}})
	out := w.String()
	if w.writes != 1 {
		t.Errorf("%d writes, want 1", w.writes)
	}
	for _, want := range []string{"deliberation 20260131-171500: active\n", "question: Retry on 429?\n", "iteration: 2", "note: one\nnote: two\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
