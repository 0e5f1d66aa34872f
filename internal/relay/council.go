package relay

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/problem"
)

// CouncilOutcome is where a council's consultations stand: each member's
// outcome (as Status gives it) and the council's next step. A member whose
// consultation failed is recorded as failed in the council; the others go
// on.
type CouncilOutcome struct {
	ID string `json:"id"`
	// Status is running while a member's consultation (or review) runs,
	// else done.
	Status     string          `json:"status"`
	Consultees []MemberOutcome `json:"consultees"`
	// Reviews are the cross-review's answers received so far and those
	// still out, by reviewer, while the review is out.
	Reviews map[string]string `json:"reviews,omitempty"`
	// Next is the council's next step.
	Next *deliberation.CouncilStep `json:"next"`
}

// MemberOutcome is one member's consultation.
type MemberOutcome struct {
	Name    string   `json:"name"`
	Failed  bool     `json:"failed,omitempty"`
	Outcome *Outcome `json:"outcome"`
}

// Review statuses of a reviewer in CouncilOutcome.Reviews.
const (
	ReviewAnswered = "answered"
	ReviewOut      = "out"
	ReviewFailed   = "failed"
)

// CouncilStatus reports the consultations of council id and writes
// nothing: a member whose consultation failed (relay already tried a fresh
// session where a resume failed) is reported failed, and the next step
// reckons with it, whether RecordFailures has recorded it yet or not.
// reviewing reports whether a reviewer's review is still being consulted
// in this process (nil: none is); one a process of its own consults
// (Store.NoteReviewer) is seen without it.
func CouncilStatus(st *deliberation.Store, id string, reviewing func(name string) bool) (*CouncilOutcome, error) {
	c, err := council(st, id)
	if err != nil {
		return nil, err
	}
	out := &CouncilOutcome{ID: id, Status: StatusDone}
	for _, m := range c.Members {
		o, err := Status(st, m.ID)
		if err != nil {
			return nil, fmt.Errorf("council %s, member %s: %w", id, m.Name, err)
		}
		if f := unrecorded(m, o); f != nil {
			c.Fail(m.Name, f.Iteration, f.Kind, f.Message) // in memory only
		}
		if o.Status == StatusRunning {
			out.Status = StatusRunning
		}
		o.Next = nil // the council's next step says it
		out.Consultees = append(out.Consultees, MemberOutcome{Name: m.Name, Failed: c.Member(m.Name).Failure != nil, Outcome: o})
	}
	if r := c.Review; r != nil && r.Status == deliberation.ReviewSent {
		// Which reviewers still run is asked first, the answers read
		// after: a review that ended has recorded its answer by then.
		running := map[string]bool{}
		for name := range r.Prompts {
			running[name] = reviewing != nil && reviewing(name) || r.Running(name)
		}
		fresh, err := council(st, id)
		if err != nil {
			return nil, err
		}
		if c.Review = fresh.Review; c.Review != nil {
			r = c.Review
			out.Reviews = map[string]string{}
			for name := range r.Prompts {
				switch _, answered := r.Answers[name]; {
				case answered:
					out.Reviews[name] = ReviewAnswered
				default:
					out.Reviews[name] = ReviewOut
					if running[name] {
						out.Status = StatusRunning
					}
				}
			}
			for name := range r.Failures {
				out.Reviews[name] = ReviewFailed
			}
		}
	}
	step, err := st.StepOf(c)
	if err != nil {
		return nil, err
	}
	out.Next = step
	return out, nil
}

// council reads the council of id; an ID that is no council is an error.
func council(st *deliberation.Store, id string) (*deliberation.Council, error) {
	c, err := st.Council(id)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("%s is not a council", id)
	}
	return c, nil
}

// unrecorded is member m's failure when its consultation (outcome o)
// failed and the council has not recorded it yet.
func unrecorded(m deliberation.Member, o *Outcome) *deliberation.MemberFailure {
	if o.Status != StatusFailed || m.Failure != nil || o.Failure == nil {
		return nil
	}
	iter := 0
	if o.Next != nil {
		iter = o.Next.Iteration
	}
	return &deliberation.MemberFailure{Iteration: iter, Kind: o.Failure.Kind, Message: o.Failure.Message}
}

// RecordFailures records in the council file of id every member whose
// consultation failed and is not recorded as failed yet: from then on it
// is consulted no more. It writes only when it found one.
func RecordFailures(st *deliberation.Store, id string) error {
	c, err := council(st, id)
	if err != nil {
		return err
	}
	found := map[string]*deliberation.MemberFailure{}
	for _, m := range c.Members {
		o, err := Status(st, m.ID)
		if err != nil {
			return fmt.Errorf("council %s, member %s: %w", id, m.Name, err)
		}
		if f := unrecorded(m, o); f != nil {
			found[m.Name] = f
		}
	}
	if len(found) == 0 {
		return nil
	}
	_, err = st.UpdateCouncil(id, func(c *deliberation.Council) error {
		for name, f := range found {
			c.Fail(name, f.Iteration, f.Kind, f.Message)
		}
		return nil
	})
	return err
}

// MemberConsultant builds the consultant of a council member.
type MemberConsultant func(m deliberation.Member) (consult.Consultant, error)

// Sendable are the members of council id whose answer is awaited and who
// are not being consulted: the members a send consults.
func Sendable(st *deliberation.Store, id string) ([]deliberation.Member, error) {
	c, err := st.Council(id)
	if err != nil || c == nil {
		return nil, err
	}
	var out []deliberation.Member
	for _, m := range c.Members {
		if m.Failure != nil {
			continue
		}
		s, err := st.Load(m.ID)
		if err != nil {
			return nil, err
		}
		if s.Active() && s.Next != nil && s.Next.Awaiting == deliberation.AwaitResponse && (s.Consultation == nil || !s.Consultation.Alive()) {
			out = append(out, m)
		}
	}
	return out, nil
}

// FailMember records that member m of council id could not be consulted
// at all (its consultant could not be built or the send was refused).
func FailMember(st *deliberation.Store, id string, m deliberation.Member, err error) error {
	iter := 0
	if s, lerr := st.Load(m.ID); lerr == nil {
		iter = s.Iteration
	}
	kind := "send"
	var ce *consult.Error
	if errors.As(err, &ce) {
		kind = string(ce.Kind)
	}
	_, uerr := st.UpdateCouncil(id, func(c *deliberation.Council) error {
		c.Fail(m.Name, iter, kind, err.Error())
		return nil
	})
	return uerr
}

// SendCouncil consults every member of council id whose answer is
// awaited, in parallel, and waits for all: a member that fails is recorded
// as failed and the others go on. opts.Effort, when set, is every
// member's for this send; else each has its own (Member.Settings), as
// consultant builds each with its model.
func SendCouncil(ctx context.Context, st *deliberation.Store, id string, consultant MemberConsultant, opts *Options) (*CouncilOutcome, error) {
	if err := RecordFailures(st, id); err != nil {
		return nil, err
	}
	members, err := Sendable(st, id)
	if err != nil {
		return nil, err
	}
	var wg sync.WaitGroup
	for _, m := range members {
		c, err := consultant(m)
		if err != nil {
			if ferr := FailMember(st, id, m, err); ferr != nil {
				return nil, ferr
			}
			continue
		}
		o := Options{}
		if opts != nil {
			o = *opts
		}
		o.Stance = m.Stance
		_, o.Effort = m.Settings("", o.Effort)
		wg.Add(1)
		go func() {
			defer wg.Done()
			Send(ctx, st, m.ID, c, &o) // its outcome is recorded; CouncilStatus reads it
		}()
	}
	wg.Wait()
	if err := RecordFailures(st, id); err != nil {
		return nil, err
	}
	return CouncilStatus(st, id, nil)
}

// Review sends member name's cross-review prompt of council id to c in a
// session of its own (a reviewer judges points without their authors'
// context) and records the answer, or the failure.
func Review(ctx context.Context, st *deliberation.Store, id, name string, c consult.Consultant, effort string) error {
	council, err := st.Council(id)
	if err != nil || council == nil || council.Review == nil {
		return fmt.Errorf("council %s has no cross-review", id)
	}
	prompt := council.Review.Prompts[name]
	if prompt == "" {
		return fmt.Errorf("council %s: %s was sent no review prompt", id, name)
	}
	rep, err := c.Start(ctx, consult.Request{Prompt: prompt, Effort: effort})
	if err == nil && rep.Text == "" {
		err = fmt.Errorf("%s answered the review with nothing", c.Name())
	}
	if err != nil {
		_, ferr := st.FailReview(id, name, err.Error())
		return errors.Join(err, ferr)
	}
	_, err = st.RecordReview(id, name, rep.Text)
	return err
}

// SendReviews begins the cross-review of council id when it is due and
// consults every reviewer whose answer is missing, in parallel, with
// effort when set, else each reviewer's own.
func SendReviews(ctx context.Context, st *deliberation.Store, id string, consultant MemberConsultant, effort string) (*CouncilOutcome, error) {
	c, err := st.Council(id)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("%s is not a council", id)
	}
	if c.Review != nil && c.Review.Status == deliberation.ReviewPending {
		if c, err = st.BeginReview(id); err != nil {
			return nil, err
		}
	}
	var wg sync.WaitGroup
	for _, name := range Unreviewed(c) {
		if c.Review.Running(name) {
			continue // a process of its own consults it
		}
		m := c.Member(name)
		cons, err := consultant(*m)
		if err != nil {
			if _, ferr := st.FailReview(id, name, err.Error()); ferr != nil {
				return nil, ferr
			}
			continue
		}
		_, e := m.Settings("", effort)
		wg.Add(1)
		go func() {
			defer wg.Done()
			Review(ctx, st, id, name, cons, e) // recorded either way
		}()
	}
	wg.Wait()
	return CouncilStatus(st, id, nil)
}

// Unreviewed are the reviewers of c's review that have not answered.
func Unreviewed(c *deliberation.Council) []string {
	var out []string
	if r := c.Review; r != nil && r.Status == deliberation.ReviewSent {
		for _, m := range c.Members {
			if _, asked := r.Prompts[m.Name]; asked {
				if _, answered := r.Answers[m.Name]; !answered {
					out = append(out, m.Name)
				}
			}
		}
	}
	return out
}

// CancelReviews stops the reviews of council id that processes of their
// own consult (Store.NoteReviewer): each gets SIGTERM, on which it records
// its review as failed (canceled); CancelReviews waits up to wait for
// that. A review whose process is gone needs no stopping: the next send
// asks it again.
func CancelReviews(st *deliberation.Store, id string, wait time.Duration) error {
	c, err := council(st, id)
	if err != nil || c.Review == nil {
		return err
	}
	var stopped []string
	for _, name := range slices.Sorted(maps.Keys(c.Review.Reviewing)) {
		if !c.Review.Running(name) {
			continue
		}
		if o := c.Review.Reviewing[name]; o.Ours() {
			return problem.List{{Path: "consultees." + name, Message: "its review runs in this very process: cancel it where it was started (its context)"}}
		}
		if err := terminate(c.Review.Reviewing[name].PID); err != nil {
			return err
		}
		stopped = append(stopped, name)
	}
	for deadline := time.Now().Add(wait); len(stopped) > 0 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if c, err = council(st, id); err != nil {
			return err
		}
		stopped = slices.DeleteFunc(stopped, func(name string) bool { return !c.Review.Running(name) })
	}
	return nil
}
