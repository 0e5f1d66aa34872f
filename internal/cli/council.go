package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"strings"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/relay"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/elicit/elicit/internal/visible"
	"github.com/elicit/elicit/problem"
)

// A council is a deliberation with 2 to 5 consultants (deliberate start
// --council SPEC, repeated); its ID is its first member's, and the
// commands given it act on every member (deliberation/council.go). send
// consults every member in parallel, in the foreground or (--background)
// with a worker process per member or reviewer; over MCP,
// deliberation_send does it in the server's background.

// councilSpecs parses --council, each [model=M,][effort=E,][STANCE=]CONSULTANT;
// every problem is a usage error, all at once.
func (a *app) councilSpecs(names []string) ([]deliberation.MemberSpec, error) {
	var specs []deliberation.MemberSpec
	var bad []string
	for i, name := range names {
		m, err := deliberation.ParseMemberSpec(name)
		if err == nil {
			err = m.Problems("").Err()
		}
		if err == nil {
			_, err = consult.New(m.Consultant, nil)
		}
		if err != nil {
			bad = append(bad, fmt.Sprintf("--council #%d: %v", i+1, err))
			continue
		}
		specs = append(specs, m)
	}
	if len(bad) > 0 {
		return nil, usagef("%s", strings.Join(bad, "; "))
	}
	return specs, nil
}

func (a *app) councilStart(st *deliberation.Store, question string, opts *deliberation.StartOptions, specs []deliberation.MemberSpec, review, asJSON bool) error {
	c, states, err := st.StartCouncil(question, opts, specs, review)
	if err != nil {
		return a.delibProblems(asJSON, err)
	}
	step, err := st.CouncilStep(c.ID)
	if err != nil {
		return a.delibProblems(asJSON, err)
	}
	notes := states[0].NotesNaming(cliMapping)
	if asJSON {
		return writeJSON(a.stdout, struct {
			ID          string                    `json:"id"`
			StateFile   string                    `json:"state_file"`
			CouncilFile string                    `json:"council_file"`
			Notes       []string                  `json:"notes,omitempty"`
			Next        *deliberation.CouncilStep `json:"next"`
		}{c.ID, st.StatePath(c.ID), st.CouncilPath(c.ID), notes, step})
	}
	fmt.Fprintf(a.stdout, "council %s of %d consultants (council: %s)\n", c.ID, len(c.Members), st.CouncilPath(c.ID))
	for _, n := range notes {
		fmt.Fprintf(a.stdout, "note: %s\n", n)
	}
	a.printCouncilStep(step)
	return nil
}

// printCouncilStep prints each consultee and the council's next step.
func (a *app) printCouncilStep(step *deliberation.CouncilStep) {
	for _, m := range step.Consultees {
		// Its stance, model and effort, those it has.
		settings := ""
		if m.Stance != "" {
			settings = ", " + m.Stance
		}
		if m.Model != "" {
			settings += ", model " + visible.Line(m.Model)
		}
		if m.Effort != "" {
			settings += ", effort " + m.Effort
		}
		fmt.Fprintf(a.stdout, "%s: %s%s (%s): %s, iteration %d", m.Name, visible.Line(m.Consultant), settings, m.ID, m.Status, m.Iteration)
		switch {
		case m.Failure != nil:
			fmt.Fprintf(a.stdout, ", failed at iteration %d: %s: %s", m.Failure.Iteration, m.Failure.Kind, visible.Line(m.Failure.Message))
		case m.ExitReason != "":
			fmt.Fprintf(a.stdout, " (%s)", m.ExitReason)
		case m.Next != nil:
			fmt.Fprintf(a.stdout, ", next %s (awaiting %s)", m.Next.Action, orNone(m.Next.Awaiting))
		}
		ch := m.Challenges
		fmt.Fprintf(a.stdout, "; challenges %d, open %d, reminded %d, undefended %d, conceded %d, missing-ID %d\n",
			ch.Issued, ch.Open, ch.Reminded, ch.Undefended, ch.Conceded, ch.MissingID)
	}
	if step.Review != "" {
		fmt.Fprintf(a.stdout, "cross-review: %s\n", step.Review)
	}
	fmt.Fprintf(a.stdout, "next: %s (round %d)", step.Action, step.Round)
	if step.Reason != "" {
		fmt.Fprintf(a.stdout, ": %s", step.Reason)
	}
	fmt.Fprintln(a.stdout)
}

func orNone(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}

// givenEffort is --effort when given: on a council it overrides each
// member's own for this send; else each member has its own.
func (f *sendFlags) givenEffort() string {
	if f.effortSet {
		return f.effort
	}
	return ""
}

// councilSend consults, in parallel, every member whose answer is
// awaited, or sends the cross-review when it is due, and waits for all.
func (a *app) councilSend(st *deliberation.Store, c *deliberation.Council, f *sendFlags, consultantGiven, asJSON bool) error {
	if consultantGiven {
		return usagef("a council's consultants are named at start (--council): %s has %d", c.ID, len(c.Members))
	}
	effort := f.givenEffort()
	build := func(m deliberation.Member) (consult.Consultant, error) {
		spec := f.spec()
		spec.name = m.Consultant
		spec.model, spec.effort = m.Settings(f.model, effort)
		cons, _, err := a.consultant(spec)
		return cons, err
	}
	opts := &relay.Options{Effort: effort, Budget: relay.Budget{MaxTokens: f.maxTokens, MaxTime: f.maxTime},
		Structured: f.structured, Fresh: f.fresh, Words: &cliWords}
	if f.worker {
		return a.councilWorker(st, c, f.member, build, opts)
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	if err := relay.RecordFailures(st, c.ID); err != nil {
		return a.delibProblems(asJSON, err)
	}
	step, err := st.CouncilStep(c.ID)
	if err != nil {
		return a.delibProblems(asJSON, err)
	}
	review := step.Action == deliberation.CouncilReview || c.Review != nil && c.Review.Status == deliberation.ReviewSent
	if !review && step.Action != deliberation.CouncilSend {
		return a.delibProblems(asJSON, problem.List{{Path: "id", Message: fmt.Sprintf("council %s has nothing to send: next is %s", c.ID, step.Action)}})
	}
	if f.background {
		return a.councilBackground(st, c.ID, review, f, build, asJSON)
	}
	var o *relay.CouncilOutcome
	if review {
		o, err = relay.SendReviews(ctx, st, c.ID, build, effort)
	} else {
		o, err = relay.SendCouncil(ctx, st, c.ID, build, opts)
	}
	if err != nil {
		return a.delibProblems(asJSON, err)
	}
	return a.printCouncilOutcome(o, asJSON)
}

// councilBackground starts a background worker (send ID --background-worker
// --member NAME) for every member whose answer is awaited, or for every
// reviewer whose review is out, and returns once each has noted its
// consultation (or refused it: the member, or the reviewer, is recorded
// as failed, as one whose consultant cannot be built is).
func (a *app) councilBackground(st *deliberation.Store, id string, review bool, f *sendFlags, build relay.MemberConsultant, asJSON bool) error {
	if review {
		c, err := st.Council(id)
		if err == nil && c.Review.Status == deliberation.ReviewPending {
			c, err = st.BeginReview(id)
		}
		if err != nil {
			return a.delibProblems(asJSON, err)
		}
		for _, name := range relay.Unreviewed(c) {
			if c.Review.Running(name) {
				continue
			}
			if err := a.startWorker(st, id, *c.Member(name), f, build); err != nil {
				if _, err := st.FailReview(id, name, err.Error()); err != nil {
					return a.delibProblems(asJSON, err)
				}
			}
		}
	} else {
		members, err := relay.Sendable(st, id)
		if err != nil {
			return a.delibProblems(asJSON, err)
		}
		for _, m := range members {
			if err := a.startWorker(st, id, m, f, build); err != nil {
				if err := relay.FailMember(st, id, m, err); err != nil {
					return a.delibProblems(asJSON, err)
				}
			}
		}
	}
	o, err := relay.CouncilStatus(st, id, nil)
	if err != nil {
		return a.delibProblems(asJSON, err)
	}
	if asJSON {
		return writeJSON(a.stdout, o)
	}
	a.printCouncilOutcome(o, false)
	fmt.Fprintf(a.stdout, "consulting in the background; next: elicit deliberate wait %s\n", id)
	return nil
}

// startWorker starts the background worker of member m of council id and
// waits until it has noted its consultation; a refusal is the error.
func (a *app) startWorker(st *deliberation.Store, id string, m deliberation.Member, f *sendFlags, build relay.MemberConsultant) error {
	if _, err := build(m); err != nil {
		return err
	}
	said, err := a.spawnWorker(st, id, append(f.args(), "--member", m.Name))
	if err != nil {
		return err
	}
	var o struct {
		Status   string   `json:"status"`
		Problems []string `json:"problems"`
	}
	switch {
	case json.Unmarshal(said, &o) != nil:
		return fmt.Errorf("the background consultation of %s did not start (%q)", m.Name, strings.TrimSpace(string(said)))
	case len(o.Problems) > 0:
		return errors.New(strings.Join(o.Problems, "; "))
	case o.Status == "":
		return fmt.Errorf("the background consultation of %s did not start (%q)", m.Name, strings.TrimSpace(string(said)))
	}
	return nil
}

// councilWorker is the background worker of member name: it consults its
// review when the cross-review awaits it, else its pending prompt.
func (a *app) councilWorker(st *deliberation.Store, c *deliberation.Council, name string, build relay.MemberConsultant, opts *relay.Options) error {
	m := c.Member(name)
	if m == nil {
		return a.delibProblems(true, problem.List{{Path: "member", Message: fmt.Sprintf("council %s has no member %q", c.ID, name)}})
	}
	cons, err := build(*m)
	if err != nil {
		return a.delibProblems(true, err)
	}
	_, effort := m.Settings("", opts.Effort)
	if r := c.Review; r != nil && r.Status == deliberation.ReviewSent && r.Prompts[name] != "" && r.Answers[name] == "" {
		return a.reviewWorker(st, c.ID, name, cons, effort)
	}
	o := *opts
	o.Stance, o.Effort = m.Stance, effort
	return a.backgroundWorker(st, m.ID, cons, &o)
}

// reviewWorker notes the review's consultation in the council, says so on
// standard output and closes it, then consults until the answer or the
// failure is recorded; SIGTERM (deliberate cancel) stops it, recorded as
// the review's failure.
func (a *app) reviewWorker(st *deliberation.Store, id, name string, c consult.Consultant, effort string) error {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	if _, err := st.NoteReviewer(id, name, deliberation.NewConsultation(c.Name(), true)); err != nil {
		return a.delibProblems(true, err)
	}
	err := writeJSON(a.stdout, map[string]string{"status": relay.StatusRunning, "review": name})
	if cl, ok := a.stdout.(io.Closer); ok {
		cl.Close()
	}
	a.stdout, a.stderr = io.Discard, io.Discard
	relay.Review(ctx, st, id, name, c, effort) // recorded either way
	return err
}

// printCouncilOutcome prints each member's consultation, the reviews and
// the next step; exit 3 while one still runs.
func (a *app) printCouncilOutcome(o *relay.CouncilOutcome, asJSON bool) error {
	var ret error
	if o.Status == relay.StatusRunning {
		ret = &noAnswerError{}
	}
	if asJSON {
		if err := writeJSON(a.stdout, o); err != nil {
			return err
		}
		return ret
	}
	for _, m := range o.Consultees {
		out := m.Outcome
		fmt.Fprintf(a.stdout, "%s: %s", m.Name, out.Status)
		switch {
		case out.Failure != nil:
			fmt.Fprintf(a.stdout, " (%s: %s)", out.Failure.Kind, visible.Line(out.Failure.Message))
		case out.Result != nil:
			fmt.Fprintf(a.stdout, ", answered iteration %d", out.Result.Iteration)
		case out.Consultation != nil:
			v := out.Consultation
			fmt.Fprintf(a.stdout, " (%s on iteration %d, process %d)", visible.Line(v.Consultant), v.Iteration, v.PID)
		}
		if m.Failed {
			fmt.Fprint(a.stdout, "; failed: consulted no more")
		}
		fmt.Fprintln(a.stdout)
	}
	for _, name := range sortedNames(o.Reviews) {
		fmt.Fprintf(a.stdout, "review by %s: %s\n", name, o.Reviews[name])
	}
	a.printCouncilStep(o.Next)
	return ret
}

func sortedNames(m map[string]string) []string {
	var out []string
	for _, n := range []string{"A", "B", "C", "D", "E"} {
		if _, ok := m[n]; ok {
			out = append(out, n)
		}
	}
	return out
}

// councilWait waits until no member's consultation runs, or timeout.
func (a *app) councilWait(st *deliberation.Store, id string, timeout time.Duration, asJSON bool) error {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	deadline := time.Now().Add(timeout)
	for {
		if err := relay.RecordFailures(st, id); err != nil {
			return a.delibProblems(asJSON, err)
		}
		o, err := relay.CouncilStatus(st, id, nil)
		if err != nil {
			return a.delibProblems(asJSON, err)
		}
		if o.Status != relay.StatusRunning || !time.Now().Before(deadline) || ctx.Err() != nil {
			return a.printCouncilOutcome(o, asJSON)
		}
		select {
		case <-ctx.Done():
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// councilCancel stops every member's consultation and the reviews that
// background workers consult.
func (a *app) councilCancel(st *deliberation.Store, c *deliberation.Council, asJSON bool) error {
	var probs problem.List
	for _, m := range c.Members {
		if err := relay.Cancel(st, m.ID, 15*time.Second); err != nil {
			for _, p := range deliberationProblems(err) {
				probs.Add(joinCouncilPath(m.Name, p.Path), "%s", p.Message)
			}
		}
	}
	if err := relay.CancelReviews(st, c.ID, 15*time.Second); err != nil {
		probs = append(probs, deliberationProblems(err)...)
	}
	if err := probs.Err(); err != nil {
		return a.delibProblems(asJSON, err)
	}
	o, err := relay.CouncilStatus(st, c.ID, nil)
	if err != nil {
		return a.delibProblems(asJSON, err)
	}
	return a.printCouncilOutcome(o, asJSON)
}

func deliberationProblems(err error) problem.List {
	if p, ok := err.(problem.List); ok {
		return p
	}
	return problem.List{{Message: err.Error()}}
}

func joinCouncilPath(member, path string) string {
	if path == "" {
		return "consultees." + member
	}
	return "consultees." + member + "." + path
}

func (a *app) councilEvaluate(st *deliberation.Store, id string, doc []byte, asJSON bool) error {
	step, err := st.EvaluateCouncil(id, doc)
	if err != nil {
		return a.delibProblems(asJSON, err)
	}
	if asJSON {
		return writeJSON(a.stdout, step)
	}
	a.printCouncilStep(step)
	return nil
}

func (a *app) councilSynthesize(st *deliberation.Store, c *deliberation.Council, answer string, asJSON bool) error {
	y, err := st.SynthesizeCouncil(c.ID, answer)
	if err != nil {
		return a.delibProblems(asJSON, asFlags(err, "answer"))
	}
	for _, m := range c.Members {
		if ms := y.Syntheses[m.Name]; ms != nil {
			a.responseLog().Append(responselog.SynthesisRecord(m.ID, ms, a.door().Who))
		}
	}
	if asJSON {
		return writeJSON(a.stdout, y)
	}
	fmt.Fprint(a.stdout, y.Markdown())
	return nil
}

// councilStatus prints where a council stands, its consultations (in the
// background, say) with it; it writes nothing.
func (a *app) councilStatus(st *deliberation.Store, id string, asJSON bool) error {
	o, err := relay.CouncilStatus(st, id, nil)
	if err != nil {
		return a.delibProblems(asJSON, err)
	}
	if asJSON {
		return writeJSON(a.stdout, o)
	}
	fmt.Fprintf(a.stdout, "council %s: %s\n", id, o.Status)
	for _, m := range o.Consultees {
		if v := m.Outcome.Consultation; v != nil {
			fmt.Fprintf(a.stdout, "%s: consultation %s: %s on iteration %d since %s (process %d)\n", m.Name, v.Status, visible.Line(v.Consultant), v.Iteration, v.StartedAt, v.PID)
		}
	}
	for _, name := range sortedNames(o.Reviews) {
		fmt.Fprintf(a.stdout, "review by %s: %s\n", name, o.Reviews[name])
	}
	a.printCouncilStep(o.Next)
	return nil
}

// notForCouncil refuses a command that drives one consultee by hand on a
// council.
func notForCouncil(st *deliberation.Store, id, command string) error {
	c, err := st.Council(id)
	if err != nil {
		return err
	}
	if c != nil {
		return problem.List{{Path: "id", Message: fmt.Sprintf("%s is a council of %d consultants: %s is for one consultee (elicit deliberate send consults them all, recovering a member's session by itself; evaluate judges their answers)", id, len(c.Members), command)}}
	}
	return nil
}
