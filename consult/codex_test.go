package consult

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fake returns a codex consultant that runs the fake codex with env.
func fake(t *testing.T, o CodexOptions, env ...string) *Codex {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	o.Path = exe
	// GORACE: a race-enabled binary otherwise sleeps a second on exit.
	o.Env = append(append(os.Environ(), "FAKE_CODEX_GAP=", "FAKE_CODEX_SLEEP=", "FAKE_CODEX_EXIT=", "GORACE=atexit_sleep_ms=0"), env...)
	return NewCodex(&o)
}

func TestCodexOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		env     []string
		resume  bool
		want    *Reply // nil: a failure
		kind    Kind
		msg     string // a fragment of the failure message
		partial string // the partial answer kept
		tail    string // a fragment of the stderr tail
	}{
		{name: "answer is the last agent message, usage summed",
			env: []string{"FAKE_CODEX=ok"},
			want: &Reply{SessionID: "01a22b53-2ade-7331-a54f-024ee0f87faf",
				Text:    "1. The cache has no eviction (EVIDENCE: cache.go:42).\n2. codex\n3. Done.",
				Usage:   Usage{InputTokens: 1200, CachedInputTokens: 1000, OutputTokens: 85, ReasoningOutputTokens: 40},
				Events:  10,
				Notices: []string{"Model metadata for `m` not found. Defaulting to fallback metadata; this can degrade performance and cause issues."}}},
		{name: "plan is the answer without a message; unknown events ignored; two turns summed",
			env:  []string{"FAKE_CODEX=plan"},
			want: &Reply{SessionID: "0199a213-0000-7000-8000-0000000000aa", Text: "1. Read the file\n2. Answer", Usage: Usage{InputTokens: 8, CachedInputTokens: 1, OutputTokens: 10}, Events: 6}},
		{name: "transient error events are not fatal",
			env: []string{"FAKE_CODEX=reconnect"},
			want: &Reply{SessionID: "0199a213-81c0-7800-8aa1-bbab2a035a53", Text: "answer after reconnecting", Usage: Usage{InputTokens: 10, OutputTokens: 5}, Events: 6,
				Notices: []string{"Reconnecting... 1/5 (stream disconnected before completion)", "Reconnecting... 2/5 (stream disconnected before completion)"}}},
		{name: "context window", env: []string{"FAKE_CODEX=context", "FAKE_CODEX_EXIT=1"}, kind: KindContextLength, msg: "ran out of room"},
		{name: "auth", env: []string{"FAKE_CODEX=auth", "FAKE_CODEX_EXIT=1"}, kind: KindAuth, msg: "401 Unauthorized"},
		{name: "rate limit", env: []string{"FAKE_CODEX=ratelimit", "FAKE_CODEX_EXIT=1"}, kind: KindRateLimit, msg: "429"},
		{name: "model", env: []string{"FAKE_CODEX=model", "FAKE_CODEX_EXIT=1"}, kind: KindModel, msg: "gpt-9-codex"},
		{name: "network", env: []string{"FAKE_CODEX=network", "FAKE_CODEX_EXIT=1"}, kind: KindNetwork, msg: "stream disconnected"},
		{name: "non-zero exit keeps the partial answer", env: []string{"FAKE_CODEX=partial", "FAKE_CODEX_EXIT=3"}, kind: KindExit, msg: "status 3", partial: "half an answer"},
		{name: "stream cut without turn.completed", env: []string{"FAKE_CODEX=partial"}, kind: KindUnparseable, msg: "without turn.completed", partial: "half an answer"},
		{name: "garbage", env: []string{"FAKE_CODEX=garbage"}, kind: KindUnparseable, msg: "no JSON events on standard output (8 other lines)"},
		{name: "thread not found on resume", resume: true, env: []string{"FAKE_CODEX=none", "FAKE_CODEX_EXIT=1", "FAKE_CODEX_STDERR=threadnotfound.stderr"},
			kind: KindThreadNotFound, msg: "status 1", tail: "no rollout found for thread id"},
		{name: "secrets are redacted from the stderr tail", env: []string{"FAKE_CODEX=none", "FAKE_CODEX_EXIT=1", "FAKE_CODEX_STDERR=secret.stderr", "MY_API_KEY=sk-test-secret-value-1234"},
			kind: KindAuth, tail: "Incorrect API key provided: [REDACTED]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := fake(t, CodexOptions{}, tt.env...)
			var rep *Reply
			var err error
			if tt.resume {
				rep, err = c.Resume(context.Background(), "11111111-2222-3333-4444-555555555555", Request{Prompt: "p"})
			} else {
				rep, err = c.Start(context.Background(), Request{Prompt: "p"})
			}
			if tt.want != nil {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				rep.Started, rep.Duration = time.Time{}, 0
				if d := cmp.Diff(tt.want, rep); d != "" {
					t.Errorf("reply (-want +got):\n%s", d)
				}
				return
			}
			checkFailure(t, rep, err, tt.kind, tt.msg)
			var e *Error
			errors.As(err, &e)
			if e.Partial == nil || e.Partial.Text != tt.partial {
				t.Errorf("partial = %+v, want text %q", e.Partial, tt.partial)
			}
			if !strings.Contains(e.StderrTail, tt.tail) || strings.Contains(e.StderrTail, "Stack backtrace") || strings.Contains(e.StderrTail, "sk-test-secret") {
				t.Errorf("stderr tail = %q, want it to contain %q, without backtrace or secret", e.StderrTail, tt.tail)
			}
		})
	}
}

func checkFailure(t *testing.T, rep *Reply, err error, kind Kind, msg string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (reply %+v), want an *Error", err, rep)
	}
	if e.Kind != kind || !strings.Contains(e.Message, msg) {
		t.Errorf("got %s: %q, want %s: ...%q...", e.Kind, e.Message, kind, msg)
	}
	if rep != nil {
		t.Errorf("a failure returned a reply too: %+v", rep)
	}
}

func TestCodexNotInstalled(t *testing.T) {
	t.Parallel()
	c := NewCodex(&CodexOptions{Path: filepath.Join(t.TempDir(), "codex")})
	_, err := c.Start(context.Background(), Request{Prompt: "p"})
	checkFailure(t, nil, err, KindNotInstalled, "not installed or not on PATH")
}

func TestCodexArguments(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opts    CodexOptions
		session string
		effort  string
		schema  string
		want    []string
	}{
		{name: "start with defaults", want: []string{"exec", "--json", "--skip-git-repo-check", "-c", `sandbox_mode="read-only"`, "-c", `model_reasoning_effort="high"`, "-"}},
		{name: "resume: every flag before resume", session: "abc", effort: "xhigh", opts: CodexOptions{Model: "gpt-5.3-codex", Config: []string{"x=1"}}, schema: `{"type":"object"}`,
			want: []string{"exec", "--json", "--skip-git-repo-check", "-c", `sandbox_mode="read-only"`, "-c", `model_reasoning_effort="xhigh"`, "-c", `model="gpt-5.3-codex"`, "-c", "x=1", "--output-schema", "SCHEMA", "resume", "abc", "-"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := filepath.Join(t.TempDir(), "call.json")
			c := fake(t, tt.opts, "FAKE_CODEX=ok", "FAKE_CODEX_RECORD="+rec)
			var err error
			req := Request{Prompt: "p", Effort: tt.effort, Schema: []byte(tt.schema)}
			if tt.session == "" {
				_, err = c.Start(context.Background(), req)
			} else {
				_, err = c.Resume(context.Background(), tt.session, req)
			}
			if err != nil {
				t.Fatal(err)
			}
			call := readCall(t, rec)
			if i := slices.Index(call.Args, "--output-schema"); i >= 0 {
				if call.Schema != tt.schema {
					t.Errorf("the schema file held %q, want %q", call.Schema, tt.schema)
				}
				if _, err := os.Stat(call.Args[i+1]); !os.IsNotExist(err) {
					t.Errorf("schema file left behind: %v", err)
				}
				call.Args[i+1] = "SCHEMA"
			}
			if d := cmp.Diff(tt.want, call.Args); d != "" {
				t.Errorf("args (-want +got):\n%s", d)
			}
		})
	}
}

func readCall(t *testing.T, path string) fakeCall {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var call fakeCall
	if err := json.Unmarshal(data, &call); err != nil {
		t.Fatal(err)
	}
	return call
}

// TestCodexPromptUnchanged sends prompts a shell or a banner scraper would
// break through stdin; the fake echoes what it read as the answer.
func TestCodexPromptUnchanged(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("0123456789abcdef", 1<<16) // 1 MiB
	tests := map[string]string{
		"shell metacharacters": "$(rm -rf /) `id` ; | && > /tmp/x ' \" \\ *?",
		"a line that is codex": "before\ncodex\nafter\n",
		"1 MiB":                big,
		"empty":                "",
	}
	for name, prompt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rec := filepath.Join(t.TempDir(), "call.json")
			rep, err := fake(t, CodexOptions{}, "FAKE_CODEX=echo", "FAKE_CODEX_RECORD="+rec).Start(context.Background(), Request{Prompt: prompt})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Text != prompt {
				t.Errorf("answer differs from the prompt (%d vs %d bytes)", len(rep.Text), len(prompt))
			}
			call := readCall(t, rec)
			if call.Stdin != prompt || slices.Contains(call.Args, prompt) && prompt != "" {
				t.Errorf("prompt not passed on stdin alone: args %q", call.Args)
			}
		})
	}
}

func TestCodexTimeouts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts CodexOptions
		env  []string
		kind Kind
		msg  string
	}{
		{name: "idle: no event", opts: CodexOptions{IdleTimeout: 300 * time.Millisecond, Timeout: time.Minute},
			env: []string{"FAKE_CODEX=partial", "FAKE_CODEX_SLEEP=1h"}, kind: KindTimeout, msg: "no event for 300ms (idle timeout)"},
		{name: "wall clock: events keep coming", opts: CodexOptions{IdleTimeout: time.Minute, Timeout: 500 * time.Millisecond},
			env: []string{"FAKE_CODEX=ok", "FAKE_CODEX_GAP=200ms"}, kind: KindTimeout, msg: "no answer within 500ms (wall-clock timeout)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			begin := time.Now()
			rep, err := fake(t, tt.opts, tt.env...).Start(context.Background(), Request{Prompt: "p"})
			checkFailure(t, rep, err, tt.kind, tt.msg)
			if took := time.Since(begin); took > 15*time.Second {
				t.Errorf("took %s", took)
			}
		})
	}
}

func TestCodexIdleTimerResetsOnEvents(t *testing.T) {
	var progress []Progress
	c := fake(t, CodexOptions{IdleTimeout: time.Second, Timeout: time.Minute}, "FAKE_CODEX=ok", "FAKE_CODEX_GAP=250ms")
	rep, err := c.Start(context.Background(), Request{Prompt: "p", Progress: func(p Progress) { progress = append(progress, p) }})
	if err != nil {
		t.Fatalf("10 events 250ms apart outlast a 1s idle timeout only if each event resets it: %v", err)
	}
	if rep.Duration < 2*time.Second || len(progress) != 10 || progress[9].Events != 10 || progress[9].Last != "turn.completed" {
		t.Errorf("duration %s, progress %+v", rep.Duration, progress)
	}
}

// TestCodexHangAfterTurnCompleted: codex that does not exit after
// turn.completed is ended by the idle timeout, and the answer is kept with
// a notice. The idle timer fires once turn.completed was read, however
// slowly a loaded machine starts the fake codex (a real 300 ms timer could
// fire before its first line).
func TestCodexHangAfterTurnCompleted(t *testing.T) {
	t.Parallel()
	clock := &idleClock{idle: 17 * time.Minute}
	c := fake(t, CodexOptions{IdleTimeout: clock.idle, Timeout: time.Minute, Clock: clock}, "FAKE_CODEX=reconnect", "FAKE_CODEX_SLEEP=1h")
	fired := false
	rep, err := c.Start(context.Background(), Request{Prompt: "p", Progress: func(p Progress) {
		if p.Last == "turn.completed" && !fired {
			fired = true
			go clock.fire()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Text != "answer after reconnecting" || !strings.Contains(rep.Notices[len(rep.Notices)-1], "did not exit after the turn completed") {
		t.Errorf("reply %+v", rep)
	}
}

// idleClock is the system clock, except that the timer of duration idle
// fires only when the test calls fire.
type idleClock struct {
	SystemClock
	idle time.Duration
	mu   sync.Mutex
	f    func()
}

func (c *idleClock) AfterFunc(d time.Duration, f func()) Timer {
	if d != c.idle {
		return c.SystemClock.AfterFunc(d, f)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.f = f
	return manualTimer{}
}

func (c *idleClock) fire() {
	c.mu.Lock()
	f := c.f
	c.mu.Unlock()
	f()
}

// manualTimer is a timer that only its test fires.
type manualTimer struct{}

func (manualTimer) Stop() bool               { return true }
func (manualTimer) Reset(time.Duration) bool { return true }

func TestCodexKillsProcessGroup(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no process groups")
	}
	t.Parallel()
	pidfile := filepath.Join(t.TempDir(), "pid")
	c := fake(t, CodexOptions{IdleTimeout: 2 * time.Second}, "FAKE_CODEX=partial", "FAKE_CODEX_SLEEP=1h", "FAKE_CODEX_CHILD="+pidfile)
	_, err := c.Start(context.Background(), Request{Prompt: "p"})
	checkFailure(t, nil, err, KindTimeout, "idle timeout")
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(data))
	for i := 0; i < 100; i++ {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("grandchild %d survived the timeout", pid)
}

func TestCodexCanceled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := fake(t, CodexOptions{}, "FAKE_CODEX=partial", "FAKE_CODEX_SLEEP=1h").Start(ctx, Request{Prompt: "p"})
	checkFailure(t, nil, err, KindCanceled, "the process group was killed")
	if strings.Contains(err.Error(), "canceled: canceled") {
		t.Errorf("the kind said twice: %v", err)
	}
}

func TestCodexResumeNeedsSession(t *testing.T) {
	t.Parallel()
	_, err := NewCodex(nil).Resume(context.Background(), "", Request{})
	checkFailure(t, nil, err, KindThreadNotFound, "no session id")
}

func TestCodexPath(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := CodexPath(getenv); got != "codex" {
		t.Errorf("without ELICIT_CODEX: %q, want codex", got)
	}
	env["ELICIT_CODEX"] = "/opt/codex/bin/codex"
	if got := CodexPath(getenv); got != "/opt/codex/bin/codex" {
		t.Errorf("with ELICIT_CODEX: %q", got)
	}
}
