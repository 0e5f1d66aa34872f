package consult

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// SessionLine is the session-id convention of [Command]: when the first line
// a program prints starts with it, the rest of that line is the session id
// and the line is not part of the answer. On Resume the program gets the id
// in the environment variable SessionEnv.
const (
	sessionLine = "ELICIT-SESSION:"
	sessionEnv  = "ELICIT_SESSION_ID"
)

// commandOptions configures [Command].
type commandOptions struct {
	// Path and Args are the program and its arguments (never a shell).
	Path string
	Args []string
	// Timeout is the wall-clock limit of one call; default 30 minutes.
	Timeout time.Duration
	// Env is the child's whole environment; nil means elicit's own.
	Env []string
	// Dir is the working directory; empty means the current one.
	Dir    string
	Runner Runner
	Clock  Clock
}

// Command consults any program that reads the prompt on standard input and
// writes the answer on standard output.
type Command struct{ o commandOptions }

// newCommand returns a command consultant.
func newCommand(opts commandOptions) *Command {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.Env == nil {
		opts.Env = os.Environ()
	}
	if opts.Runner == nil {
		opts.Runner = OSRunner{}
	}
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	return &Command{o: opts}
}

// Name implements Consultant: "command:" and the program with its
// arguments, quoted so that ParseName gives them back.
func (c *Command) Name() string {
	return "command:" + joinWords(append([]string{c.o.Path}, c.o.Args...))
}

// Start implements Consultant.
func (c *Command) Start(ctx context.Context, req Request) (*Reply, error) {
	return c.run(ctx, "", req)
}

// Resume implements Consultant. A program without sessions sees the prompt
// on its own, so resumed prompts should carry their context.
func (c *Command) Resume(ctx context.Context, sessionID string, req Request) (*Reply, error) {
	return c.run(ctx, sessionID, req)
}

func (c *Command) run(ctx context.Context, sessionID string, req Request) (*Reply, error) {
	env := c.o.Env
	if sessionID != "" {
		env = append(append([]string(nil), env...), sessionEnv+"="+sessionID)
	}
	out := &cappedBuffer{max: maxAnswer + len(sessionLine) + 512}
	stderr := &tailBuffer{max: 64 << 10}
	started := c.o.Clock.Now()
	proc, err := c.o.Runner.Start(Spec{Path: c.o.Path, Args: c.o.Args, Env: env, Dir: c.o.Dir,
		Stdin: strings.NewReader(req.Prompt), Stdout: out, Stderr: stderr})
	if err != nil {
		return nil, c.startError(err)
	}
	killed, kill := c.watch(ctx, proc)
	out.onOver(func() { kill("too_large") })
	werr := proc.Wait()
	why := killed()
	rep := &Reply{SessionID: sessionID, Started: started, Duration: c.o.Clock.Now().Sub(started)}
	rep.Text = c.answer(out.String(), rep)
	return c.outcome(rep, werr, why, stderr.bytes())
}

// watch kills the process group on timeout or cancellation; the returned
// function stops watching and says why it killed, or "", and kill kills it
// for another reason.
func (c *Command) watch(ctx context.Context, proc Process) (stop func() string, kill func(string)) {
	var mu sync.Mutex
	why := ""
	kill = func(reason string) {
		mu.Lock()
		defer mu.Unlock()
		if why == "" {
			why = reason
			proc.Kill()
		}
	}
	t := c.o.Clock.AfterFunc(c.o.Timeout, func() { kill("timeout") })
	unwatch := context.AfterFunc(ctx, func() { kill("canceled") })
	return func() string {
		t.Stop()
		unwatch()
		mu.Lock()
		defer mu.Unlock()
		return why
	}, kill
}

// cappedBuffer keeps up to max bytes and calls over (once) when more come;
// the rest is dropped.
type cappedBuffer struct {
	mu   sync.Mutex
	max  int
	buf  []byte
	over func()
	full bool
}

// onOver sets what to do when the cap is passed (at once, if it was).
func (b *cappedBuffer) onOver(f func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.over = f
	if b.full {
		f()
	}
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.full {
		return len(p), nil
	}
	if len(b.buf)+len(p) > b.max {
		b.full = true
		if b.over != nil {
			b.over()
		}
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

func (b *cappedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// answer strips the session line, recording its id.
func (c *Command) answer(out string, rep *Reply) string {
	first, rest, _ := strings.Cut(out, "\n")
	if id, ok := strings.CutPrefix(strings.TrimSpace(first), sessionLine); ok {
		rep.SessionID = strings.TrimSpace(id)
		return rest
	}
	return out
}

func (c *Command) outcome(rep *Reply, werr error, why string, stderr []byte) (*Reply, error) {
	code := exitCode(werr)
	e := &Error{Consultant: c.Name(), ExitCode: code, Partial: rep, StderrTail: stderrTail(stderr, secretValues(c.o.Env))}
	switch {
	case why == "too_large" || len(rep.Text) > maxAnswer:
		rep.Text = ""
		e.Kind, e.Message = KindTooLarge, tooLarge("the answer", maxAnswer)
	case why == "timeout":
		e.Kind, e.Message = KindTimeout, fmt.Sprintf("no answer within %s; the process group was killed", c.o.Timeout)
	case why == "canceled":
		e.Kind, e.Message = KindCanceled, "the process group was killed"
	case code != 0:
		e.Kind, e.Message = classify(e.StderrTail), fmt.Sprintf("exited with status %d", code)
	default:
		return rep, nil
	}
	return nil, e
}

func (c *Command) startError(err error) error {
	e := &Error{Kind: KindExit, Consultant: c.Name(), ExitCode: -1, Message: "cannot start " + c.o.Path + ": " + err.Error()}
	if errors.Is(err, ErrNotFound) {
		e.Kind, e.Message = KindNotInstalled, c.o.Path+" is not installed or not on PATH"
	}
	return e
}
