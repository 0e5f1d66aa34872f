package consult

import (
	"testing"
)

// TestConsultantNameKeepsArguments: a command consultant's recorded name
// keeps its arguments, and parses back to the same command.
func TestConsultantNameKeepsArguments(t *testing.T) {
	for _, name := range []string{"command:claude -p", "command:gemini --model 'gemini 2.5' -y", "codex"} {
		c, err := New(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.Name() != name {
			t.Errorf("New(%q).Name() = %q", name, c.Name())
		}
	}
}
