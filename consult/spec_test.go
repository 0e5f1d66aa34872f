package consult

import (
	"strings"
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

// TestAllowedConsultants: a server runs codex, the commands its operator
// named word for word, and those a rule ending in * starts; anything else,
// however it is spelled, is not allowed.
func TestAllowedConsultants(t *testing.T) {
	a, err := AllowConsultants([]string{"codex", "command:claude -p", "command:'my tool' --json *"})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"codex":                            true,
		" codex ":                          true,
		"command:claude -p":                true,
		"command:claude   '-p'":            true,
		"command:claude":                   false,
		"command:claude -p extra":          false,
		"command:claude -p; sh":            false,
		"command:sh -c 'claude -p'":        false,
		"command:'my tool' --json":         true,
		"command:'my tool' --json a b":     true,
		"command:'my tool'":                false,
		"command:my tool --json":           false,
		"command:'my tool' --jsonx":        false,
		"command:sh -c 'touch /tmp/owned'": false,
		"claude":                           false,
		"":                                 false,
	} {
		if got := a.Allows(name); got != want {
			t.Errorf("Allows(%q) = %v, want %v", name, got, want)
		}
	}
	anyCmd, err := AllowConsultants([]string{"command:*"})
	if err != nil {
		t.Fatal(err)
	}
	if !anyCmd.Allows("command:sh -c id") || anyCmd.Allows("codex") {
		t.Errorf("command:* allows any command and only commands")
	}
	if _, err := AllowConsultants([]string{"codex", "claude", "command:", "command:'open"}); err == nil ||
		!strings.Contains(err.Error(), `unknown consultant "claude"`) || !strings.Contains(err.Error(), "names no program") || !strings.Contains(err.Error(), "unclosed") {
		t.Errorf("bad names: %v, want each named", err)
	}
}
