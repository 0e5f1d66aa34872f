package consult

import (
	"testing"
	"time"
)

// TestIdleTimeoutDefault: the idle timeout does not undercut the seed's "do
// not terminate before 20 minutes", and a codex without options has it.
func TestIdleTimeoutDefault(t *testing.T) {
	if DefaultIdleTimeout < 20*time.Minute || DefaultTimeout < DefaultIdleTimeout {
		t.Errorf("idle %s, wall clock %s", DefaultIdleTimeout, DefaultTimeout)
	}
	if c := NewCodex(nil); c.o.IdleTimeout != DefaultIdleTimeout {
		t.Errorf("a codex without options idles out after %s", c.o.IdleTimeout)
	}
}
