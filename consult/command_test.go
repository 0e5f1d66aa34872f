package consult

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// command returns a command consultant running the fake codex with env.
func command(t *testing.T, timeout time.Duration, env ...string) *Command {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return newCommand(commandOptions{Path: exe, Timeout: timeout,
		Env: append(append(os.Environ(), "FAKE_CODEX_GAP=", "FAKE_CODEX_SLEEP=", "FAKE_CODEX_EXIT=", "GORACE=atexit_sleep_ms=0"), env...)})
}

func TestCommand(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "call.json")
	c := command(t, 0, "FAKE_CODEX=echo", "FAKE_CODEX_RECORD="+rec)
	prompt := "ELICIT-SESSION: s-1\nline two $(id)\ncodex\n"
	rep, err := c.Start(context.Background(), Request{Prompt: prompt})
	if err != nil {
		t.Fatal(err)
	}
	// The echo fake prints JSON events; the command backend takes stdout as is.
	if !strings.Contains(rep.Text, `line two $(id)\ncodex`) || rep.SessionID != "" {
		t.Errorf("reply %+v", rep)
	}
	if got := readCall(t, rec); got.Stdin != prompt || len(got.Args) != 0 {
		t.Errorf("call %+v", got)
	}
}

func TestCommandSessionConvention(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "call.json")
	c := command(t, 0, "FAKE_CODEX=session", "FAKE_CODEX_RECORD="+rec)
	rep, err := c.Resume(context.Background(), "s-41", Request{Prompt: "again"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(&Reply{SessionID: "s-42", Text: "the answer\n"}, &Reply{SessionID: rep.SessionID, Text: rep.Text}); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	env := strings.Join(readCall(t, rec).Env, "\n")
	if !strings.Contains(env, "\n"+sessionEnv+"=s-41") {
		t.Errorf("resume did not pass %s", sessionEnv)
	}
}

func TestCommandFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		c       *Command
		kind    Kind
		msg     string
		timeout time.Duration
	}{
		{name: "exit", c: command(t, 0, "FAKE_CODEX=none", "FAKE_CODEX_EXIT=2", "FAKE_CODEX_STDERR=threadnotfound.stderr"), kind: KindThreadNotFound, msg: "status 2"},
		{name: "timeout", c: command(t, 300*time.Millisecond, "FAKE_CODEX=none", "FAKE_CODEX_SLEEP=1h"), kind: KindTimeout, msg: "no answer within 300ms"},
		{name: "not installed", c: newCommand(commandOptions{Path: filepath.Join(t.TempDir(), "nope")}), kind: KindNotInstalled, msg: "not installed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep, err := tt.c.Start(context.Background(), Request{Prompt: "p"})
			checkFailure(t, rep, err, tt.kind, tt.msg)
		})
	}
}

func TestParseName(t *testing.T) {
	tests := []struct {
		in   string
		kind string
		argv []string
		err  string
	}{
		{in: "codex", kind: "codex"},
		{in: "command:claude -p", kind: "command", argv: []string{"claude", "-p"}},
		{in: `command:python3 'my script.py' "--flag=a b"`, kind: "command", argv: []string{"python3", "my script.py", "--flag=a b"}},
		{in: "command:", err: "names no program"},
		{in: "command:x 'open", err: "unclosed ' quote"},
		{in: "gemini", err: `unknown consultant "gemini"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			kind, argv, err := parseName(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || kind != tt.kind || !cmp.Equal(argv, tt.argv) {
				t.Errorf("ParseName = %q, %q, %v", kind, argv, err)
			}
		})
	}
}

func TestScripted(t *testing.T) {
	s := &Scripted{Replies: []ScriptedReply{{Reply: Reply{SessionID: "t1", Text: "a"}}, {Reply: Reply{Text: "b"}}, {Err: &Error{Kind: KindThreadNotFound}}}}
	ctx := context.Background()
	r1, _ := s.Start(ctx, Request{Prompt: "p1"})
	r2, _ := s.Resume(ctx, r1.SessionID, Request{Prompt: "p2"})
	_, err3 := s.Resume(ctx, "t1", Request{Prompt: "p3"})
	_, err4 := s.Start(ctx, Request{Prompt: "p4"})
	if r1.Text != "a" || r2.Text != "b" || r2.SessionID != "t1" || err3 == nil || err4 == nil || !strings.Contains(err4.Error(), "no scripted reply for call 4") {
		t.Errorf("r1 %+v r2 %+v err3 %v err4 %v", r1, r2, err3, err4)
	}
	if calls := s.Calls(); len(calls) != 4 || calls[1].SessionID != "t1" || calls[2].Request.Prompt != "p3" {
		t.Errorf("calls %+v", calls)
	}
}

func TestNew(t *testing.T) {
	c, err := New("command:my-agent -p 'a b'", &CodexOptions{Timeout: time.Second})
	if err != nil || c.Name() != "command:my-agent -p 'a b'" || Program(c) != "my-agent" || c.(*Command).o.Timeout != time.Second || !cmp.Equal(c.(*Command).o.Args, []string{"-p", "a b"}) {
		t.Errorf("New(command) = %+v, %v", c, err)
	}
	c, err = New("codex", &CodexOptions{Path: "/opt/codex"})
	if err != nil || c.Name() != "codex" || Program(c) != "/opt/codex" {
		t.Errorf("New(codex) = %+v, %v", c, err)
	}
	if _, err := New("nope", nil); err == nil {
		t.Error("an unknown name must fail")
	}
}
