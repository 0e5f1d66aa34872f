package mcpserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/relay"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Background runs the consultations deliberation_send starts, past the
// tool call that started them, and stops them with the server: Stop cancels
// each (the consultant's process group is killed and the cancellation is
// recorded, so the deliberation stays recoverable) and waits for it.
type Background struct {
	mu   sync.Mutex
	runs map[string]*bgRun // by state file
	wg   sync.WaitGroup
	ctx  context.Context
	stop context.CancelFunc
}

// NewBackground returns an empty Background.
func NewBackground() *Background {
	ctx, stop := context.WithCancel(context.Background())
	return &Background{runs: map[string]*bgRun{}, ctx: ctx, stop: stop}
}

// Stop cancels every running consultation and waits up to timeout for
// each to record its end; it reports whether all did.
func (b *Background) Stop(timeout time.Duration) bool {
	b.stop()
	done := make(chan struct{})
	go func() { b.wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(timeout):
		return false
	}
}

// bgRun is one consultation running in the background.
type bgRun struct {
	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	progress consult.Progress
	lastAt   time.Time
	changed  chan struct{} // closed and replaced at every event
}

func (r *bgRun) update(p consult.Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.progress, r.lastAt = p, time.Now()
	close(r.changed)
	r.changed = make(chan struct{})
}

// snapshot is the progress so far and a channel closed at the next event.
func (r *bgRun) snapshot() (consult.Progress, time.Time, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.progress, r.lastAt, r.changed
}

// get returns the consultation of a state file run by this server, if any.
func (b *Background) get(key string) *bgRun {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.runs[key]
}

// start begins a consultation of deliberation id with c and runs it in the
// background; the consultation is noted in the state before start returns.
func (b *Background) start(st *deliberation.Store, id string, c consult.Consultant, o relay.Options) error {
	if b.ctx.Err() != nil {
		return fmt.Errorf("the server is stopping")
	}
	r := &bgRun{done: make(chan struct{}), changed: make(chan struct{}), lastAt: time.Now()}
	o.Background, o.Progress = true, r.update
	call, err := relay.Begin(st, id, c, &o)
	if err != nil {
		return err
	}
	b.run(st.StatePath(id), r, func(ctx context.Context) { call.Run(ctx) })
	return nil
}

// run runs fn in the background as r, known by key until the next run
// of that key, canceled when the server stops.
func (b *Background) run(key string, r *bgRun, fn func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(b.ctx)
	r.cancel = cancel
	b.mu.Lock()
	b.runs[key] = r
	b.mu.Unlock()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer cancel()
		defer close(r.done)
		fn(ctx)
	}()
}

// running reports whether the run known by key is in progress.
func (b *Background) running(key string) bool {
	r := b.get(key)
	if r == nil {
		return false
	}
	select {
	case <-r.done:
		return false
	default:
		return true
	}
}

// progress adds the live progress to a consultation this server runs.
func (h *handlers) progress(st *deliberation.Store, id string, v *deliberation.ConsultationView) {
	if r := h.opts.Background.get(st.StatePath(id)); r != nil && v != nil && v.Status == deliberation.ConsultRunning {
		p, at, _ := r.snapshot()
		v.Progress = &deliberation.ConsultProgress{Events: p.Events, LastEvent: p.Last, LastActivitySeconds: int64(time.Since(at) / time.Second)}
	} else if v != nil && v.Status == deliberation.ConsultRunning {
		v.Progress = relay.SharedProgress(st, &v.Consultation) // another replica runs it
	}
}

// outcome reports the consultation of id, with the live progress when this
// server runs it (a tool returns it through outcome, the prompt left out).
func (h *handlers) outcome(st *deliberation.Store, id string) (*relay.Outcome, error) {
	o, err := relay.Status(st, id)
	if err != nil {
		return nil, err
	}
	h.progress(st, id, o.Consultation)
	return o, nil
}

// maxWait bounds one deliberation_wait call, below the 60 s a client
// typically waits for a request (the TypeScript SDK's default).
const maxWait = 50

// waitPoll is how often a wait looks at a consultation another process
// runs; heartbeat how often a progress notification goes out without news.
const (
	waitPoll  = 500 * time.Millisecond
	heartbeat = 5 * time.Second
)

func (h *handlers) delibWait(ctx context.Context, req *mcp.CallToolRequest, a *args) any {
	secs := maxWait
	if n, ok := a.whole("timeout_seconds", 1, maxWait, "seconds", "default 50; call again to wait longer: a client's request times out after about 60 s"); ok {
		secs = n
	}
	return h.withID(a, func(st *deliberation.Store, id string) any {
		if c, err := st.Council(id); c != nil || err != nil {
			if !a.check(err) {
				return nil
			}
			return h.councilWait(ctx, a, st, id, secs)
		}
		n := &notifier{req: req, token: req.Params.GetProgressToken(), start: time.Now()}
		deadline := time.Now().Add(time.Duration(secs) * time.Second)
		for {
			out, err := h.outcome(st, id)
			if !a.check(err) {
				return nil
			}
			if out.Status != relay.StatusRunning || !time.Now().Before(deadline) {
				return outcome(out)
			}
			n.notify(ctx, out)
			wake := make(<-chan struct{})
			if r := h.opts.Background.get(st.StatePath(id)); r != nil {
				_, _, wake = r.snapshot()
				select {
				case <-r.done:
					continue
				default:
				}
			}
			t := time.NewTimer(min(waitPoll, time.Until(deadline)))
			select {
			case <-ctx.Done():
				t.Stop()
				return outcome(out)
			case <-h.opts.Background.ctx.Done():
				// The server is stopping: the consultation it runs is
				// being canceled; report it once that is recorded.
				t.Stop()
				return h.stopped(a, st, id, out)
			case <-wake:
			case <-t.C:
			}
			t.Stop()
		}
	})
}

// stopped is a wait's outcome when the server stops: the consultation
// this server runs as it is recorded once it ended (canceled), else out.
func (h *handlers) stopped(a *args, st *deliberation.Store, id string, out *relay.Outcome) any {
	r := h.opts.Background.get(st.StatePath(id))
	if r == nil {
		return outcome(out)
	}
	select {
	case <-r.done:
	case <-time.After(cancelWait):
		return outcome(out)
	}
	o, err := h.outcome(st, id)
	if !a.check(err) {
		return nil
	}
	return outcome(o)
}

// notifier sends progress notifications to a client that asked for them
// (a progress token): at each event, and at least every heartbeat.
type notifier struct {
	req    *mcp.CallToolRequest
	token  any
	start  time.Time
	last   time.Time
	events int
}

func (n *notifier) notify(ctx context.Context, o *relay.Outcome) {
	v := o.Consultation
	if n.token == nil || n.req.Session == nil || v == nil {
		return
	}
	events := 0
	if v.Progress != nil {
		events = v.Progress.Events
	}
	if events == n.events && time.Since(n.last) < heartbeat {
		return
	}
	n.last, n.events = time.Now(), events
	msg := fmt.Sprintf("%s consulted on iteration %d for %d s", v.Consultant, v.Iteration, v.ElapsedSeconds)
	if p := v.Progress; p != nil && p.Events > 0 {
		msg += fmt.Sprintf(", %d events (last %s)", p.Events, p.LastEvent)
	}
	n.req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: n.token,
		Progress: time.Since(n.start).Seconds(), Message: msg})
}

func (h *handlers) delibCancel(_ context.Context, _ *mcp.CallToolRequest, a *args) any {
	return h.withID(a, func(st *deliberation.Store, id string) any {
		if c, err := st.Council(id); c != nil || err != nil {
			if !a.check(err) {
				return nil
			}
			return h.councilCancel(a, st, c)
		}
		if r := h.opts.Background.get(st.StatePath(id)); r != nil {
			r.cancel()
			select {
			case <-r.done:
			case <-time.After(cancelWait):
			}
		} else if err := relay.Cancel(st, id, cancelWait); !a.check(err) {
			return nil
		}
		out, err := h.outcome(st, id)
		if !a.check(err) {
			return nil
		}
		return outcome(out)
	})
}

// cancelWait bounds how long cancel waits for the consultation to record
// its end.
const cancelWait = 15 * time.Second
