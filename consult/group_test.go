//go:build unix

package consult

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// running reports whether pid is a live process (a zombie nobody reaped is
// not).
func running(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !os.IsNotExist(err) // no /proc: kill -0 is all there is
	}
	i := strings.LastIndexByte(string(data), ')')
	f := strings.Fields(string(data[i+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// TestCommandJudgedByItsOwnExit: a shell consultant that prints its answer
// and exits 0 has answered, whatever it leaves behind; the call returns soon
// after its exit and nothing of its process group lives on.
func TestCommandJudgedByItsOwnExit(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	t.Parallel()
	tests := []struct {
		name   string
		script string // writes the background child's pid to $PIDFILE
		within time.Duration
	}{
		{name: "background child holds stdout", script: `echo answer; sleep 60 & echo $! >"$PIDFILE"`, within: 2 * time.Second},
		{name: "background child holds stdout and stderr", script: `echo answer; sleep 60 2>&1 & echo $! >"$PIDFILE"`, within: 2 * time.Second},
		{name: "background child detached from output", script: `echo answer; sleep 60 >/dev/null 2>&1 </dev/null & echo $! >"$PIDFILE"`, within: 2 * time.Second},
		{name: "background child ignores SIGTERM", script: `echo answer; (trap "" TERM; exec sleep 60) & echo $! >"$PIDFILE"`, within: 3 * time.Second},
		{name: "background child holds unread stdin", script: `read line; echo answer; exec 3<&0; sleep 60 <&3 >/dev/null 2>&1 & echo $! >"$PIDFILE"`, within: 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			pidfile := filepath.Join(t.TempDir(), "pid")
			c := newCommand(commandOptions{Path: "sh", Args: []string{"-c", tt.script},
				Env: append(os.Environ(), "PIDFILE="+pidfile)})
			start := time.Now()
			rep, err := c.Start(context.Background(), Request{Prompt: "the question\n" + strings.Repeat("x", 1<<20)})
			took := time.Since(start)
			if err != nil {
				t.Fatalf("the answer was thrown away: %v", err)
			}
			if rep.Text != "answer\n" {
				t.Errorf("answer %q, want %q", rep.Text, "answer\n")
			}
			if took > tt.within {
				t.Errorf("the call took %s after the consultant answered, want under %s", took, tt.within)
			}
			data, err := os.ReadFile(pidfile)
			if err != nil {
				t.Fatal(err)
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			if pid <= 0 {
				t.Fatalf("pid file %q", data)
			}
			if running(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("the background child %d outlived the call", pid)
			}
		})
	}
}

// TestCommandTimeoutEndsGroup: on a timeout the group gets SIGTERM, and
// SIGKILL when it ignores it.
func TestCommandTimeoutEndsGroup(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	t.Parallel()
	for _, script := range []string{
		`sleep 60 & echo $! >"$PIDFILE"; wait`,
		`trap "" TERM; (exec sleep 60) & echo $! >"$PIDFILE"; while :; do sleep 1; done`,
	} {
		t.Run(script, func(t *testing.T) {
			t.Parallel()
			pidfile := filepath.Join(t.TempDir(), "pid")
			c := newCommand(commandOptions{Path: "sh", Args: []string{"-c", script}, Timeout: 300 * time.Millisecond,
				Env: append(os.Environ(), "PIDFILE="+pidfile)})
			start := time.Now()
			_, err := c.Start(context.Background(), Request{Prompt: "p"})
			checkFailure(t, nil, err, KindTimeout, "no answer within 300ms")
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("the call took %s", took)
			}
			data, _ := os.ReadFile(pidfile)
			pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			if pid <= 0 {
				t.Fatalf("pid file %q", data)
			}
			if running(pid) {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("the child %d outlived the timeout", pid)
			}
		})
	}
}

// TestCodexJudgedByItsOwnExit: codex shares the process code: a turn
// completed and an exit 0 is an answer even when a grandchild holds
// standard output open, and the grandchild is ended.
func TestCodexJudgedByItsOwnExit(t *testing.T) {
	t.Parallel()
	pidfile := filepath.Join(t.TempDir(), "pid")
	c := fake(t, CodexOptions{}, "FAKE_CODEX=echo", "FAKE_CODEX_CHILD="+pidfile)
	start := time.Now()
	rep, err := c.Start(context.Background(), Request{Prompt: "the question"})
	if err != nil {
		t.Fatalf("the answer was thrown away: %v", err)
	}
	if rep.Text != "the question" {
		t.Errorf("answer %q", rep.Text)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the call took %s", took)
	}
	data, _ := os.ReadFile(pidfile)
	pid, _ := strconv.Atoi(string(data))
	if pid <= 0 {
		t.Fatalf("pid file %q", data)
	}
	if running(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the grandchild %d outlived the call", pid)
	}
}
