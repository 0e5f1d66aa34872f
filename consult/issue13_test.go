package consult

import (
	"testing"
	"time"
)

// Issue 13, defect 7: the idle timeout must not undercut the seed's "do
// not terminate before 20 minutes".
func TestIssue13IdleTimeoutDefault(t *testing.T) {
	if DefaultIdleTimeout < 20*time.Minute || DefaultTimeout < DefaultIdleTimeout {
		t.Errorf("idle %s, wall clock %s", DefaultIdleTimeout, DefaultTimeout)
	}
	if c := NewCodex(nil); c.o.IdleTimeout != DefaultIdleTimeout {
		t.Errorf("a codex without options idles out after %s", c.o.IdleTimeout)
	}
}

// Issue 13, defect 4: a command consultant's recorded name keeps its
// arguments, and parses back to the same command.
func TestIssue13ConsultantNameKeepsArguments(t *testing.T) {
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
