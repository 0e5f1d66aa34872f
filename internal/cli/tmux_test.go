package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/tmuxtest"
)

// elicitOnPath makes this test binary callable as "elicit" (TestMain runs
// the CLI when it is called by that name) and returns a folder to run in
// with it on PATH.
func elicitOnPath(t *testing.T) (dir, path string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(bin, "elicit")); err != nil {
		t.Fatal(err)
	}
	return t.TempDir(), "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// TestPickOnTerminal drives methods pick on a real terminal: the top method
// is preselected, space toggles, enter confirms; nothing chosen is refused;
// Escape is no answer (exit 3).
func TestPickOnTerminal(t *testing.T) {
	dir, path := elicitOnPath(t)
	pick := "elicit methods pick --phase forge:3 --title 'Architecture Design'"

	term := tmuxtest.Start(t, dir, 90, 20, pick, path)
	screen := term.WaitFor("Which reasoning methods should this section apply?")
	for _, want := range []string{"› [x] Tree of Thoughts", "[ ] Architecture Decision Records"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the first screen lacks %q:\n%s", want, screen)
		}
	}
	term.Keys("Space") // nothing chosen now
	term.WaitFor("› [ ] Tree of Thoughts")
	term.Keys("Enter")
	term.WaitFor("choose at least one")
	term.Keys("j", "Space", "Enter")
	code, screen := term.Exit()
	if code != 0 || !regexp.MustCompile(`(?m)^20\s+Architecture Decision Records$`).MatchString(screen) {
		t.Errorf("exit %d, screen:\n%s", code, screen)
	}

	term = tmuxtest.Start(t, dir, 90, 20, pick, path)
	term.WaitFor("Which reasoning methods")
	term.Keys("Escape")
	code, screen = term.Exit()
	if code != 3 || !strings.Contains(screen, "cancelled") {
		t.Errorf("Escape: exit %d, screen:\n%s", code, screen)
	}
}
