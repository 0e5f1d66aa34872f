// Package tmuxtest runs a command on a real terminal for tests: a tmux
// server of its own (a socket in the test's temporary folder), a window of
// a fixed size, keys sent as a person types them, and the screen read back
// with capture-pane. It is for tests only.
package tmuxtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Terminal is one tmux window running a command.
type Terminal struct {
	t      testing.TB
	socket string
}

// Available reports whether tmux is installed; tests skip without it (CI
// installs it, see .ci/run).
func Available() bool {
	_, err := exec.LookPath("tmux")
	return err == nil
}

// Start runs command (a shell command line) in dir on a new terminal of
// width×height cells. When the command ends, "[exit N]" is printed below its
// output and the window stays, so the screen can still be read. Unless env
// names one, the session gets an ELICIT_HOME of its own, removed with it:
// a test never writes to the real ~/.elicit (its response log).
func Start(t testing.TB, dir string, width, height int, command string, env ...string) *Terminal {
	t.Helper()
	if !Available() {
		t.Skip("tmux is not installed")
	}
	// A short socket path: Unix socket paths are limited to about 100 bytes.
	sockDir, err := os.MkdirTemp("", "tmx")
	if err != nil {
		t.Fatal(err)
	}
	term := &Terminal{t: t, socket: filepath.Join(sockDir, "s")}
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-S", term.socket, "kill-server").Run()
		os.RemoveAll(sockDir)
	})
	script := command + `; echo "[exit $?]"; sleep 600`
	args := []string{"-S", term.socket, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-c", dir,
		"-x", strconv.Itoa(width), "-y", strconv.Itoa(height)}
	if !slices.ContainsFunc(env, func(e string) bool { return strings.HasPrefix(e, "ELICIT_HOME=") }) {
		env = append([]string{"ELICIT_HOME=" + filepath.Join(sockDir, "home")}, env...)
	}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	args = append(args, "sh", "-c", script)
	cmd := exec.Command("tmux", args...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v\n%s", err, out)
	}
	return term
}

func (term *Terminal) tmux(args ...string) string {
	term.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", term.socket}, args...)...).CombinedOutput()
	if err != nil {
		term.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Type sends text literally, as typed.
func (term *Terminal) Type(text string) {
	term.t.Helper()
	term.tmux("send-keys", "-t", "t", "-l", text)
}

// Keys sends named keys: Enter, Escape, Up, Down, Left, Right, Space, Tab,
// BSpace, C-c, C-d, ...
func (term *Terminal) Keys(keys ...string) {
	term.t.Helper()
	term.tmux(append([]string{"send-keys", "-t", "t"}, keys...)...)
}

// Paste pastes text as a terminal does: between ESC [ 200 ~ and ESC [ 201 ~
// when the program turned bracketed paste on, else as if typed (each
// newline sent as Enter).
func (term *Terminal) Paste(text string) {
	term.t.Helper()
	term.tmux("set-buffer", "-b", "paste", "--", text)
	term.tmux("paste-buffer", "-p", "-d", "-b", "paste", "-t", "t")
}

// Screen is what the terminal shows now, trailing blank lines dropped.
func (term *Terminal) Screen() string {
	term.t.Helper()
	return strings.TrimRight(term.tmux("capture-pane", "-p", "-t", "t"), "\n") + "\n"
}

// WaitFor waits until the screen contains want and returns the screen; it
// fails the test after 15 seconds, showing the screen.
func (term *Terminal) WaitFor(want string) string {
	term.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		s := term.Screen()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			term.t.Fatalf("the screen never showed %q; it shows:\n%s", want, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Exit waits for the command to end and returns its exit code and the
// screen.
func (term *Terminal) Exit() (int, string) {
	term.t.Helper()
	s := term.WaitFor("[exit ")
	i := strings.LastIndex(s, "[exit ")
	rest := s[i+len("[exit "):]
	code, _ := strconv.Atoi(rest[:strings.IndexByte(rest, ']')])
	return code, s
}
