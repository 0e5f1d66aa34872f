package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/elicit/elicit/deliberation"
)

// TestDeliberationTextShowsControlCharacters: a deliberation's question is
// the user's text; the list and status print it on one line with control
// characters and bidirectional controls escaped, never raw.
func TestDeliberationTextShowsControlCharacters(t *testing.T) {
	const question = "Retry\x1b[2J on\n429 \u202eyrter\u202c?"
	const shown = `Retry\x1b[2J on 429 \u202eyrter\u202c?`
	tests := []struct {
		name  string
		print func(*bytes.Buffer)
		want  string
	}{
		{"list", func(b *bytes.Buffer) {
			(&app{}).delibPrintEntry(b, deliberation.Entry{ID: "d1", Status: deliberation.StatusActive, Iteration: 1, QuestionExcerpt: question})
		}, "\t" + shown + "\n"},
		{"list, unreadable", func(b *bytes.Buffer) {
			(&app{}).delibPrintEntry(b, deliberation.Entry{ID: "d2", Error: "read state\x1b]0;x\a: bad"})
		}, `d2	unreadable	read state\x1b]0;x\x07: bad` + "\n"},
		{"status", func(b *bytes.Buffer) {
			(&app{stdout: b}).delibPrintStatus("d1", &deliberation.StatusDocument{State: &deliberation.State{QuestionExcerpt: question}})
		}, "\nquestion: " + shown + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			tt.print(&b)
			if out := b.String(); strings.ContainsAny(out, "\x1b\a\u202e") || !strings.Contains(out, tt.want) {
				t.Errorf("printed %q, want %q in it, nothing raw", out, tt.want)
			}
		})
	}
}
