package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/relay"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A council is a deliberation with 2 to 5 consultants, named at
// deliberation_start (consultants); its ID is its first member's, and the
// tools given it act on every member (deliberation/council.go).

// councilSpecs reads deliberation_start's consultants: each
// "[model=M,][effort=E,][STANCE=]CONSULTANT" or {consultant, stance,
// model, effort}, checked as deliberation_send checks a consultant.
func (h *handlers) councilSpecs(a *args) []deliberation.MemberSpec {
	var items []json.RawMessage
	if !a.decode("consultants", "a list of consultant names or {consultant, stance, model, effort} objects", &items) {
		return nil
	}
	specs := make([]deliberation.MemberSpec, 0, len(items))
	for i, item := range items {
		path := fmt.Sprintf("consultants[%d]", i)
		m, err := memberSpec(item)
		if err != nil {
			a.errorf(path, "%v", err)
			continue
		}
		if p := m.Problems(path); len(p) > 0 {
			a.probs = append(a.probs, p...)
			continue
		}
		if _, err := consult.New(m.Consultant, nil); err != nil {
			a.errorf(path, "%v", err)
			continue
		}
		if err := h.allowConsultant(m.Consultant); err != nil {
			a.errorf(path, "%v", err)
			continue
		}
		specs = append(specs, m)
	}
	return specs
}

// memberSpec reads one of consultants: a string or an object.
func memberSpec(item json.RawMessage) (deliberation.MemberSpec, error) {
	var name string
	if json.Unmarshal(item, &name) == nil {
		return deliberation.ParseMemberSpec(name)
	}
	var m deliberation.MemberSpec
	d := json.NewDecoder(bytes.NewReader(item))
	d.DisallowUnknownFields()
	if err := d.Decode(&m); err != nil {
		return m, fmt.Errorf("must be a consultant name or {consultant, stance, model, effort} (%v)", err)
	}
	return m, nil
}

// councilOf is the council the call's id names, or nil (not a council, or
// an id the handler reports).
func (h *handlers) councilOf(a *args) (*deliberation.Store, *deliberation.Council) {
	var ref string
	if json.Unmarshal(a.raw["id"], &ref) != nil {
		return nil, nil
	}
	_, id, err := deliberation.ParseRef(ref)
	if err != nil {
		return nil, nil
	}
	st := h.store(&args{})
	if st == nil {
		return nil, nil
	}
	c, _ := st.Council(id)
	if c == nil {
		return nil, nil
	}
	return st, c
}

func (h *handlers) councilStart(a *args, q string, opts *deliberation.StartOptions, specs []deliberation.MemberSpec, review bool) any {
	st := h.store(a)
	if st == nil {
		return nil
	}
	c, states, err := st.StartCouncil(q, opts, specs, review)
	if !a.check(err) {
		return nil
	}
	step, err := st.CouncilStep(c.ID)
	if !a.check(err) {
		return nil
	}
	out := map[string]any{"id": c.ID, "council_file": st.CouncilPath(c.ID), "next": step}
	if n := states[0].NotesNaming(toolMapping); len(n) > 0 {
		out["notes"] = n
	}
	return out
}

// reviewKey names a reviewer's consultation in Background.
func reviewKey(st *deliberation.Store, id, name string) string {
	return st.CouncilPath(id) + "#review-" + name
}

// councilSend consults every member whose answer is awaited, or sends the
// cross-review when it is due, in the background.
func (h *handlers) councilSend(a *args, st *deliberation.Store, c *deliberation.Council, o consult.CodexOptions, ro relay.Options) any {
	if a.has("consultant") {
		a.errorf("consultant", "a council's consultants are named at deliberation_start (consultants): this one has %d", len(c.Members))
		return nil
	}
	// The members' consultants were named where the council started,
	// maybe another server: this one runs only those its operator allows.
	for _, m := range c.Members {
		if err := h.allowConsultant(m.Consultant); m.Failure == nil && err != nil {
			a.errorf("consultees."+m.Name, "%v", err)
		}
	}
	if len(a.probs) > 0 {
		return nil
	}
	// A member whose background consultation failed since is recorded
	// first: it is consulted no more.
	if err := relay.RecordFailures(st, c.ID); !a.check(err) {
		return nil
	}
	c, err := st.Council(c.ID)
	if !a.check(err) {
		return nil
	}
	// A send's model and effort, when given, are every member's for this
	// send; else each member has its own.
	build := func(m deliberation.Member) (consult.Consultant, error) {
		opts := o
		opts.Model, opts.Effort = m.Settings(o.Model, o.Effort)
		return sendConsultant(h.opts.Getenv, m.Consultant, &opts)
	}
	step, err := st.CouncilStep(c.ID)
	if !a.check(err) {
		return nil
	}
	switch {
	case step.Action == deliberation.CouncilReview:
		if c, err = st.BeginReview(c.ID); !a.check(err) {
			return nil
		}
		fallthrough
	case c.Review != nil && c.Review.Status == deliberation.ReviewSent:
		for _, name := range relay.Unreviewed(c) {
			key := reviewKey(st, c.ID, name)
			if h.opts.Background.running(key) || c.Review.Running(name) {
				continue
			}
			cons, err := build(*c.Member(name))
			if err != nil {
				if _, err := st.FailReview(c.ID, name, err.Error()); !a.check(err) {
					return nil
				}
				continue
			}
			_, effort := c.Member(name).Settings("", ro.Effort)
			r := &bgRun{done: make(chan struct{}), changed: make(chan struct{}), lastAt: time.Now()}
			h.opts.Background.run(key, r, func(ctx context.Context) { relay.Review(ctx, st, c.ID, name, cons, effort) })
		}
	case step.Action == deliberation.CouncilSend:
		members, err := relay.Sendable(st, c.ID)
		if !a.check(err) {
			return nil
		}
		for _, m := range members {
			cons, err := build(m)
			if err == nil {
				mo := ro
				mo.Stance = m.Stance
				_, mo.Effort = m.Settings("", ro.Effort)
				err = h.opts.Background.start(st, m.ID, cons, mo)
			}
			// One member that cannot be consulted does not stop the
			// others: it is recorded as failed.
			if err != nil {
				if err := relay.FailMember(st, c.ID, m, err); !a.check(err) {
					return nil
				}
			}
		}
	default:
		a.errorf("id", "council %s has nothing to send: next is %s", c.ID, step.Action)
		return nil
	}
	return h.councilOutcome(a, st, c.ID)
}

// councilOutcome is the council's consultations as they stand, each
// member's with its live progress.
func (h *handlers) councilOutcome(a *args, st *deliberation.Store, id string) any {
	o, err := relay.CouncilStatus(st, id, func(name string) bool { return h.opts.Background.running(reviewKey(st, id, name)) })
	if !a.check(err) {
		return nil
	}
	return councilView(h, st, o)
}

// councilMemberView is a member's outcome as the council tools return it.
type councilMemberView struct {
	Name   string       `json:"name"`
	Failed bool         `json:"failed,omitempty"`
	Out    *outcomeView `json:"outcome"`
}

func councilView(h *handlers, st *deliberation.Store, o *relay.CouncilOutcome) any {
	members := make([]councilMemberView, len(o.Consultees))
	for i, m := range o.Consultees {
		h.progress(st, m.Outcome.ID, m.Outcome.Consultation)
		members[i] = councilMemberView{Name: m.Name, Failed: m.Failed, Out: outcome(m.Outcome)}
	}
	return map[string]any{"id": o.ID, "status": o.Status, "consultees": members, "reviews": o.Reviews, "next": o.Next}
}

// councilWait waits until no member's consultation (nor review) runs, or
// the deadline.
func (h *handlers) councilWait(ctx context.Context, a *args, st *deliberation.Store, id string, secs int) any {
	deadline := time.Now().Add(time.Duration(secs) * time.Second)
	for {
		if err := relay.RecordFailures(st, id); !a.check(err) {
			return nil
		}
		o, err := relay.CouncilStatus(st, id, func(name string) bool { return h.opts.Background.running(reviewKey(st, id, name)) })
		if !a.check(err) {
			return nil
		}
		if o.Status != relay.StatusRunning || !time.Now().Before(deadline) {
			return councilView(h, st, o)
		}
		t := time.NewTimer(min(waitPoll, time.Until(deadline)))
		select {
		case <-ctx.Done():
			t.Stop()
			return councilView(h, st, o)
		case <-h.opts.Background.ctx.Done():
			t.Stop()
			time.Sleep(100 * time.Millisecond)
			return h.councilOutcome(a, st, id)
		case <-t.C:
		}
	}
}

// councilCancel stops every member's consultation and the reviews.
func (h *handlers) councilCancel(a *args, st *deliberation.Store, c *deliberation.Council) any {
	for _, m := range c.Members {
		if r := h.opts.Background.get(st.StatePath(m.ID)); r != nil {
			r.cancel()
			select {
			case <-r.done:
			case <-time.After(cancelWait):
			}
		} else if err := relay.Cancel(st, m.ID, cancelWait); err != nil {
			a.addPrefixed("consultees."+m.Name, err)
		}
		if r := h.opts.Background.get(reviewKey(st, c.ID, m.Name)); r != nil {
			r.cancel()
		}
	}
	// Reviews a command line's background workers consult.
	if err := relay.CancelReviews(st, c.ID, cancelWait); err != nil {
		a.addPrefixed("", err)
	}
	if len(a.probs) > 0 {
		return nil
	}
	return h.councilOutcome(a, st, c.ID)
}

func (h *handlers) councilEvaluate(a *args, st *deliberation.Store, id string, doc json.RawMessage) any {
	step, err := st.EvaluateCouncil(id, doc)
	if !a.check(err) {
		return nil
	}
	return step
}

func (h *handlers) councilSynthesize(req *mcp.CallToolRequest, a *args, st *deliberation.Store, id, answer string) any {
	y, err := st.SynthesizeCouncil(id, answer)
	if !a.check(err) {
		return nil
	}
	d := h.door(req)
	c, _ := st.Council(id)
	for _, m := range c.Members {
		if ms := y.Syntheses[m.Name]; ms != nil {
			d.Log.Append(responselog.SynthesisRecord(m.ID, ms, d.Who))
		}
	}
	return struct {
		*deliberation.CouncilSynthesis
		Markdown string `json:"markdown"`
	}{y, y.Markdown()}
}

// notForCouncil refuses a tool that drives one consultee by hand on a
// council (deliberation_send consults every member, and recovers a
// member's session by itself).
func (h *handlers) notForCouncil(a *args, st *deliberation.Store, id string) bool {
	c, err := st.Council(id)
	if err != nil {
		return !a.check(err)
	}
	if c != nil {
		a.errorf("id", "%s is a council of %d consultants: deliberation_send consults them all (recovering a member's session by itself), deliberation_evaluate judges their answers", id, len(c.Members))
		return true
	}
	return false
}
