//go:build unix

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

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

// TestBackgroundOnTerminal: under `timeout` without --foreground elicit
// runs in a background process group, where changing the terminal's modes
// (SIGTTOU) or reading it (SIGTTIN) would stop it for good: form ask and
// methods pick refuse at once (exit 2, not timeout's 124) naming
// --foreground, the terminal untouched. With --foreground, the timeout is
// a cancel: the cancel JSON, the terminal restored.
func TestBackgroundOnTerminal(t *testing.T) {
	dir, path := elicitOnPath(t)
	if err := os.WriteFile(filepath.Join(dir, "ten.json"), []byte(tenTypes), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("timeout"); err != nil {
		t.Skip("timeout is not installed")
	}
	const cancel = "{\n  \"success\": false,\n  \"action\": \"cancel\"\n}\n"
	tests := []struct {
		name, command string
		code          int
		screen        string
		stdout        string
	}{
		{"form ask", "timeout 5 elicit form ask ten.json > out.txt", 2, "elicit: form ask cannot ask on the terminal: elicit runs in a background process group", ""},
		{"form ask --accessible", "timeout 5 elicit form ask --accessible ten.json > out.txt", 2, "(timeout --foreground SECONDS elicit ...), or give the answers on standard input", ""},
		{"methods pick", "timeout 5 elicit methods pick --phase forge:3 --title Design > out.txt", 2, "or choose with --choose NUM[,NUM...] or --quick", ""},
		{"form ask, timeout --foreground", "timeout --foreground 1 elicit form ask ten.json > out.txt", 124, "not answered", cancel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(filepath.Join(dir, "out.txt"))
			// sh -c, as a script: no job control, so timeout's process
			// group is not the terminal's.
			command := `sh -c '` + tt.command + `'; rc=$?; stty -a > stty.txt; (exit $rc)`
			term := tmuxtest.Start(t, dir, 400, 30, command, path) // the message on one line
			code, screen := term.Exit()
			if code != tt.code || !strings.Contains(screen, tt.screen) {
				t.Errorf("exit %d, want %d and %q on the screen:\n%s", code, tt.code, tt.screen, screen)
			}
			if out, _ := os.ReadFile(filepath.Join(dir, "out.txt")); string(out) != tt.stdout {
				t.Errorf("stdout %q, want %q", out, tt.stdout)
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

// TestLongHelpTextOnTerminal: a question with a 1 MB help text (near the
// cap for a form) is drawn at
// once, a screenful (its title, the end of the help, the options, the key
// help), each key redraws it at once, and SIGTERM while keys are redrawing
// it ends form ask within a second, with the cancel JSON and the terminal
// restored.
func TestLongHelpTextOnTerminal(t *testing.T) {
	dir, path := elicitOnPath(t)
	help := "first " + strings.Repeat("lorem ipsum dolor sit amet, ", 1000000/28) + "last words"
	big := `{"title": "Big", "fields": [{"id": "track", "text": "Which release track?", "type": "single_select",
		"options": ["stable", "beta", "nightly"], "help_text": "` + help + `"}]}`
	if err := os.WriteFile(filepath.Join(dir, "big.json"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	command := `sh -c 'echo $$ > pid; exec elicit form ask big.json > out.txt'; rc=$?; stty -a > stty.txt; (exit $rc)`
	term := tmuxtest.Start(t, dir, 100, 30, command, path)
	screen := term.WaitFor("↑/↓ move")
	for _, want := range []string{"? Which release track?", "last words", "› 1. stable"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen has no %q:\n%s", want, screen)
		}
	}
	if strings.Contains(screen, "first") {
		t.Errorf("the start of the help text is on the screen, want a screenful around the options:\n%s", screen)
	}
	pid, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(pid)))
	for range 20 {
		term.Keys("j")
	}
	start := time.Now()
	if err := syscall.Kill(n, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	code, screen := term.Exit()
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("form ask ended %s after SIGTERM, want within a second or two", took)
	}
	if code != 3 {
		t.Errorf("exit %d, want 3:\n%s", code, screen)
	}
	if out, _ := os.ReadFile(filepath.Join(dir, "out.txt")); string(out) != "{\n  \"success\": false,\n  \"action\": \"cancel\"\n}\n" {
		t.Errorf("stdout %q, want the cancel JSON", out)
	}
	stty, _ := os.ReadFile(filepath.Join(dir, "stty.txt"))
	for _, mode := range []string{"isig", "icanon", "echo"} {
		if !regexp.MustCompile(`(^|\s)` + mode + `(\s|$)`).Match(stty) {
			t.Errorf("the terminal is left without %s: %s", mode, stty)
		}
	}
}
