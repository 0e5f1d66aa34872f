//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/elicit/elicit/internal/tmuxtest"
)

// TestStopSignalsOnTerminal: SIGTERM and SIGHUP are a cancel, like Escape:
// form ask (and form open) prints the cancel JSON, methods pick says
// cancelled, all exit 3 and leave the terminal as they found it (cooked,
// echoing), on the widgets and line by line.
func TestStopSignalsOnTerminal(t *testing.T) {
	dir, path := elicitOnPath(t)
	if err := os.WriteFile(filepath.Join(dir, "ten.json"), []byte(tenTypes), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, command, prompt string
		signal                syscall.Signal
		stdout                string // the output file's text; "" for pick, whose stdout is the screen
	}{
		{"form ask SIGTERM", "elicit form ask ten.json > out.txt", "? Which release track?", syscall.SIGTERM, "{\n  \"success\": false,\n  \"action\": \"cancel\"\n}\n"},
		{"form ask SIGHUP", "elicit form ask ten.json > out.txt", "? Which release track?", syscall.SIGHUP, "{\n  \"success\": false,\n  \"action\": \"cancel\"\n}\n"},
		{"form ask --accessible SIGTERM", "elicit form ask --accessible ten.json > out.txt", "[1/10] Which release track?", syscall.SIGTERM, "{\n  \"success\": false,\n  \"action\": \"cancel\"\n}\n"},
		// A closed terminal ends form open like Ctrl-C.
		{"form open SIGHUP", "elicit form open --no-browser ten.json > out.txt", "open http://127.0.0.1:", syscall.SIGHUP, "{\n  \"success\": false,\n  \"action\": \"cancel\"\n}\n"},
		{"methods pick SIGTERM", "elicit methods pick --phase forge:3 --title Design", "? Which reasoning methods", syscall.SIGTERM, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(filepath.Join(dir, "out.txt"))
			// The inner shell writes its pid and becomes elicit.
			command := `sh -c 'echo $$ > pid; exec ` + tt.command + `'; rc=$?; stty -a > stty.txt; (exit $rc)`
			term := tmuxtest.Start(t, dir, 100, 30, command, path)
			term.WaitFor(tt.prompt)
			pid, err := os.ReadFile(filepath.Join(dir, "pid"))
			if err != nil {
				t.Fatal(err)
			}
			n, _ := strconv.Atoi(strings.TrimSpace(string(pid)))
			if err := syscall.Kill(n, tt.signal); err != nil {
				t.Fatal(err)
			}
			code, screen := term.Exit()
			if code != 3 {
				t.Errorf("exit %d, want 3:\n%s", code, screen)
			}
			if tt.stdout != "" {
				if out, _ := os.ReadFile(filepath.Join(dir, "out.txt")); string(out) != tt.stdout {
					t.Errorf("stdout %q, want %q", out, tt.stdout)
				}
			} else if !strings.Contains(screen, "not answered\nelicit: cancelled: no answer") {
				t.Errorf("the screen does not end the widget's line before the message:\n%s", screen)
			}
			stty, _ := os.ReadFile(filepath.Join(dir, "stty.txt"))
			for _, mode := range []string{"isig", "icanon", "echo"} {
				if !regexp.MustCompile(`(^|\s)` + mode + `(\s|$)`).Match(stty) {
					t.Errorf("the terminal is left without %s: %s", mode, stty)
				}
			}
		})
	}
}
