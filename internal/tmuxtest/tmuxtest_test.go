package tmuxtest

import (
	"os"
	"strings"
	"testing"
)

// TestStartGivesAHomeOfItsOwn: a session started without ELICIT_HOME gets
// one of its own, never the test process's own or the real ~/.elicit, and
// one given in env is kept.
func TestStartGivesAHomeOfItsOwn(t *testing.T) {
	t.Setenv("ELICIT_HOME", "/nowhere/real-home")
	term := Start(t, t.TempDir(), 200, 10, `printf 'home=%s\n' "$ELICIT_HOME"`)
	code, screen := term.Exit()
	i := strings.Index(screen, "home=")
	if i < 0 {
		t.Fatalf("no home= line:\n%s", screen)
	}
	line, _, _ := strings.Cut(screen[i:], "\n")
	home, _ := os.UserHomeDir()
	if code != 0 || line == "home=" || strings.Contains(line, "/nowhere/real-home") || strings.HasPrefix(line, "home="+home+"/.elicit") {
		t.Errorf("exit %d, %q: want a home of the session's own", code, line)
	}
	term = Start(t, t.TempDir(), 200, 10, `printf 'home=%s\n' "$ELICIT_HOME"`, "ELICIT_HOME=/given")
	if _, screen := term.Exit(); !strings.Contains(screen, "home=/given\n") {
		t.Errorf("a given ELICIT_HOME was not kept:\n%s", screen)
	}
}
