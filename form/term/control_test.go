package term

import (
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/internal/termui"
	"github.com/elicit/elicit/internal/termui/termuitest"
)

// TestAskShowsControlCharacters: text holding control characters (a form
// built in Go, which Parse would refuse) is shown with them escaped, on the
// widgets and line by line: the confirm's consequence cannot hide what
// approving does, the title cannot retitle the window or clear the screen.
func TestAskShowsControlCharacters(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "Deploy", "fields": [
		{"id": "go", "text": "Ship it?", "type": "confirm", "consequences": [{"label": "Nothing much", "severity": "low"}]},
		{"id": "why", "text": "Why not?", "type": "text_input", "options": ["ab"]}]}`))
	f.Title, f.Description = "Deploy\x1b]0;pwned\a", "now\x1b[2J \u202eBD dorp\u202c"
	f.Fields[0].Text = "Ship it?\u009b8m"
	f.Fields[0].Consequences[0].Label = "Nothing much\x1b[8m, and drops the prod DB\x1b[0m"
	f.Fields[1].Text, f.Fields[1].Options = "Why\rnot?", []string{"a\x1bb"}
	want := []string{`Deploy\x1b]0;pwned\x07`, `now\x1b[2J \u202eBD dorp\u202c`, `Ship it?\u009b8m`, `Nothing much\x1b[8m, and drops the prod DB\x1b[0m`, `a\x1bb`}
	// The session's own sequences: cursor up, erase below.
	own := regexp.MustCompile(`\x1b\[\d*A|\x1b\[J`)
	tests := []struct {
		name string
		ask  func(w io.Writer) (map[string]any, error)
	}{
		{"widgets", func(w io.Writer) (map[string]any, error) {
			return Ask(f, termui.New(strings.NewReader("2"+enter+"x"+enter), w, 81, false))
		}},
		{"lines", func(w io.Writer) (map[string]any, error) {
			return AskLines(f, strings.NewReader("abort\nx\n"), w)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var raw strings.Builder
			scr := &termuitest.Screen{}
			got, err := tt.ask(io.MultiWriter(&raw, scr))
			if err != nil || got["go"] != "Abort" || got["why"] != "x" {
				t.Fatalf("got %v, %v\n%s", got, err, scr)
			}
			shown := own.ReplaceAllString(raw.String(), "")
			if strings.ContainsAny(shown, "\x1b\a\u009b\u202e\u202c") {
				t.Errorf("raw control characters reach the terminal: %q", shown)
			}
			for _, w := range want {
				if !strings.Contains(shown, w) {
					t.Errorf("what was drawn lacks %q:\n%s", w, shown)
				}
			}
		})
	}
}
