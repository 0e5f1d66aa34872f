package consult

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// run is one codex call in flight: it reads the event stream, enforces the
// timeouts and turns the outcome into a Reply or an Error.
type run struct {
	c       *Codex
	req     Request
	started time.Time
	st      stream
	stderr  tailBuffer
	pr      *io.PipeReader
	pw      *io.PipeWriter
	done    chan struct{} // closed when the stream is read

	mu     sync.Mutex
	killed string // why the process group was killed, or ""
	proc   Process
	idle   Timer
}

func newRun(c *Codex, req Request) *run {
	r := &run{c: c, req: req, started: c.o.Clock.Now(), done: make(chan struct{})}
	r.stderr.max = 64 << 10
	r.pr, r.pw = io.Pipe()
	return r
}

func (r *run) stdin() io.Reader        { return strings.NewReader(r.req.Prompt) }
func (r *run) stdoutWriter() io.Writer { return r.pw }

// wait reads the stream until the process ends or is killed.
func (r *run) wait(ctx context.Context, proc Process) (*Reply, error) {
	r.mu.Lock()
	r.proc = proc
	r.idle = r.c.o.Clock.AfterFunc(r.c.o.IdleTimeout, func() { r.kill("idle") })
	r.mu.Unlock()
	wall := r.c.o.Clock.AfterFunc(r.c.o.Timeout, func() { r.kill("timeout") })
	stop := context.AfterFunc(ctx, func() { r.kill("canceled") })
	go r.read()
	err := proc.Wait()
	r.pw.Close()
	<-r.done
	wall.Stop()
	stop()
	r.mu.Lock()
	r.idle.Stop()
	killed := r.killed
	r.mu.Unlock()
	return r.outcome(err, killed)
}

func (r *run) kill(why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.killed != "" {
		return
	}
	r.killed = why
	r.proc.Kill()
}

// read feeds every line of standard output to the stream. A line over
// MaxEventLine kills the process group: it is never held in full.
func (r *run) read() {
	defer close(r.done)
	br := bufio.NewReaderSize(r.pr, 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > maxEventLine {
			r.kill("too_large")
			io.Copy(io.Discard, r.pr)
			return
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(line) > 0 {
			r.st.feed(line)
			r.tick()
			line = line[:0]
		}
		if err != nil {
			io.Copy(io.Discard, r.pr)
			return
		}
	}
}

// tick resets the idle timer and reports progress after a line.
func (r *run) tick() {
	r.mu.Lock()
	if r.killed == "" {
		r.idle.Reset(r.c.o.IdleTimeout)
	}
	r.mu.Unlock()
	if r.req.Progress != nil && r.st.lastType != "" {
		r.req.Progress(Progress{Elapsed: r.c.o.Clock.Now().Sub(r.started), Events: r.st.events, Last: r.st.lastType})
	}
}

func (r *run) reply() *Reply {
	secrets := secretValues(r.c.o.Env)
	var notices []string
	for _, n := range r.st.notices {
		notices = append(notices, redact(n, secrets))
	}
	return &Reply{SessionID: r.st.threadID, Text: r.st.text(), Usage: r.st.usage, Started: r.started,
		Duration: r.c.o.Clock.Now().Sub(r.started), Events: r.st.events, Notices: notices}
}

// outcome decides between success and each kind of failure.
func (r *run) outcome(waitErr error, killed string) (*Reply, error) {
	rep := r.reply()
	e := &Error{Consultant: r.c.Name(), ExitCode: exitCode(waitErr), Partial: rep,
		StderrTail: stderrTail(r.stderr.bytes(), secretValues(r.c.o.Env))}
	switch {
	case killed == "too_large" || len(r.st.text()) > maxAnswer:
		if killed == "too_large" {
			e.Kind, e.Message = KindTooLarge, tooLarge("a line of codex's event stream", maxEventLine)
			return nil, e
		}
		rep.Text = ""
		e.Kind, e.Message = KindTooLarge, tooLarge("the answer", maxAnswer)
	case killed != "" && killed != "canceled" && r.answered():
		rep.Notices = append(rep.Notices, "codex did not exit after the turn completed; its process group was killed")
		return rep, nil
	case killed == "timeout":
		e.Kind, e.Message = KindTimeout, fmt.Sprintf("no answer within %s (wall-clock timeout); the process group was killed", r.c.o.Timeout)
	case killed == "idle":
		e.Kind, e.Message = KindTimeout, fmt.Sprintf("no event for %s (idle timeout); the process group was killed", r.c.o.IdleTimeout)
	case killed == "canceled":
		e.Kind, e.Message = KindCanceled, "the process group was killed"
	case r.st.failed != "":
		e.Kind, e.Message = r.failedKind(e.StderrTail), "turn failed: "+redact(r.st.failed, secretValues(r.c.o.Env))
	case e.ExitCode != 0:
		e.Kind, e.Message = classify(append(rep.Notices, e.StderrTail)...), r.exitMessage(e.ExitCode, rep.Notices)
	case r.st.events == 0:
		e.Kind, e.Message = KindUnparseable, fmt.Sprintf("no JSON events on standard output (%d other lines)", r.st.garbage)
	case r.st.completed == 0:
		e.Kind, e.Message = KindUnparseable, fmt.Sprintf("the event stream ended without turn.completed (%d events)", r.st.events)
	default:
		return rep, nil
	}
	return nil, e
}

// answered reports whether a turn completed without failing; a codex that
// hangs after that (openai/codex#34397) has still answered.
func (r *run) answered() bool {
	return r.st.completed > 0 && r.st.failed == "" && r.st.text() != ""
}

func (r *run) failedKind(tail string) Kind {
	if k := classify(r.st.failed); k != KindExit {
		return k
	}
	return classify(append(append([]string(nil), r.st.notices...), tail)...)
}

func (r *run) exitMessage(code int, notices []string) string {
	msg := fmt.Sprintf("exited with status %d", code)
	if code < 0 {
		msg = "ended abnormally"
	}
	if len(notices) > 0 {
		msg += ": " + notices[len(notices)-1]
	}
	return msg
}

// exitCode is the process's exit code: 0 on success, -1 when it did not
// exit by itself.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) bytes() []byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.buf...)
}
