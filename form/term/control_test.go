package term

import (
	"io"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/formtest"
)

// TestAskRefusesControlCharacters: a form changed in Go code to hold
// control characters (which Parse refuses) is refused with the form's
// problems, on the widgets and line by line, before anything is drawn: the
// confirm's consequence cannot hide what approving does, the title cannot
// retitle the window or clear the screen.
func TestAskRefusesControlCharacters(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "Deploy", "fields": [
		{"id": "go", "text": "Ship it?", "type": "confirm", "consequences": [{"label": "Nothing much", "severity": "low"}]},
		{"id": "why", "text": "Why not?", "type": "text_input", "options": ["ab"]}]}`))
	f.Title, f.Description = "Deploy\x1b]0;pwned\a", "now\x1b[2J \u202eBD dorp\u202c"
	f.Fields[0].Text = "Ship it?\u009b8m"
	f.Fields[0].Consequences[0].Label = "Nothing much\x1b[8m, and drops the prod DB\x1b[0m"
	f.Fields[1].Text, f.Fields[1].Options = "Why\rnot?", []string{"a\x1bb"}
	want := []string{"title: contains the control character U+001B (ESC)", "description: contains the control character U+001B (ESC)",
		"fields[0].text: contains the control character U+009B (CSI)", "fields[0].consequences[0].label: contains the control character U+001B",
		"fields[1].text: contains the control character U+000D (CR)", "fields[1].options[0]: contains the control character U+001B"}
	tests := []struct {
		name string
		ask  func(w io.Writer) (map[string]any, error)
	}{
		{"widgets", func(w io.Writer) (map[string]any, error) {
			return Ask(f, NewSession(strings.NewReader("2"+enter+"x"+enter), w, 81))
		}},
		{"lines", func(w io.Writer) (map[string]any, error) {
			return AskLines(f, strings.NewReader("abort\nx\n"), w)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var raw strings.Builder
			got, err := tt.ask(&raw)
			if err == nil || got != nil {
				t.Fatalf("got %v, %v; want the form refused", got, err)
			}
			for _, w := range want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error lacks %q:\n%v", w, err)
				}
			}
			if raw.Len() > 0 {
				t.Errorf("drew %q for a refused form", raw.String())
			}
		})
	}
}
