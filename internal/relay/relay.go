// Package relay sends a deliberation's pending prompt to a consultant and
// records the answer: a new session on the first iteration, a resume after
// it, and, when a resume fails (thread not found, session expired, timeout,
// an error), the seed's Session Recovery: a fresh session with the Recovery
// prompt built from the state file, noted in the state and the transcript.
// Optional budgets cap the tokens and the consultant time a deliberation may
// spend; every call's usage is recorded in the transcript, which is where
// the totals are summed from.
package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/problem"
)

// Budget caps what one deliberation may spend on its consultant; a zero
// field is no cap.
type Budget struct {
	MaxTokens int64         `json:"max_tokens,omitempty"`
	MaxTime   time.Duration `json:"max_time_ns,omitempty"`
}

// Options configures Send. A nil *Options means defaults.
type Options struct {
	// Effort is the reasoning effort of this call ("high", "xhigh");
	// empty is the consultant's default.
	Effort string
	// Budget replaces the deliberation's recorded budget when a field is
	// set; the last recorded budget applies otherwise.
	Budget Budget
	// Progress is called while the consultant works.
	Progress func(consult.Progress)
	// Structured holds the consultant to AnswerSchema (codex
	// --output-schema) and records the answer rendered as text.
	Structured bool
	// Fresh opens a fresh session with the Recovery prompt instead of
	// resuming the recorded one.
	Fresh bool
	// Background marks the consultation as running in the background (an
	// MCP server, or send --background) in the state.
	Background bool
	// Stance is a council member's stance: a session it opens (the First
	// Call, a Recovery prompt; not a side session) is told it
	// (deliberation.WithStance).
	Stance string
	// Words name the next steps in messages in the caller's words (the
	// CLI's commands, the MCP server's tools); nil names this package's
	// functions (APIWords).
	Words *Words
}

// Words name, in messages, what the caller does next: the CLI's commands
// and flags, or the MCP server's tools and arguments. In Wait and Cancel,
// ID stands for the deliberation's id.
type Words struct {
	Evaluate, Wait, Cancel string
	MaxTokens, MaxTime     string
}

// APIWords name the next steps as the Go functions and options that take
// them, for a program that calls this package itself.
var APIWords = Words{Evaluate: "deliberation.Store.Evaluate", Wait: "relay.Wait for ID", Cancel: "relay.Cancel of ID",
	MaxTokens: "Options.Budget.MaxTokens", MaxTime: "Options.Budget.MaxTime"}

func (o *Options) words() *Words {
	if o.Words == nil {
		return &APIWords
	}
	return o.Words
}

// Result is what one Send did.
type Result struct {
	ID         string `json:"id"`
	Iteration  int    `json:"iteration"`
	Consultant string `json:"consultant"`
	SessionID  string `json:"session_id,omitempty"`
	// Resumed: the call continued the recorded session.
	Resumed bool `json:"resumed"`
	// Side: the step was asked of a session of its own (the stress test,
	// arbitration); the deliberation's session is kept.
	Side bool `json:"side,omitempty"`
	// Recovery says why a resume failed and a fresh session got the
	// Recovery prompt; empty when there was no recovery.
	Recovery   string        `json:"recovery,omitempty"`
	Answer     string        `json:"answer"`
	Usage      consult.Usage `json:"usage"`
	DurationMS int64         `json:"duration_ms"`
	Notices    []string      `json:"notices,omitempty"`
	// Totals are the deliberation's spending so far, this call included.
	Totals Totals `json:"totals"`
	// Next is the deliberation's next step (evaluate the answer).
	Next *deliberation.Next `json:"next"`
}

// Totals is a deliberation's consultant spending and its budget.
type Totals struct {
	Calls      int    `json:"calls"`
	Tokens     int64  `json:"tokens"`
	DurationMS int64  `json:"duration_ms"`
	Budget     Budget `json:"budget"`
}

// Record kinds this package adds to a transcript; the engine's replay
// skips kinds it does not know.
const (
	KindConsult = "consult"
	KindFailure = "consult_failure"
)

// callData is the data of a consult record.
type callData struct {
	Consultant string `json:"consultant"`
	SessionID  string `json:"session_id,omitempty"`
	Resumed    bool   `json:"resumed"`
	Side       bool   `json:"side,omitempty"`
	Recovery   string `json:"recovery,omitempty"`
	// Usage is this call's; Reported what the consultant said (codex: the
	// thread's running total on a resume).
	Usage      consult.Usage `json:"usage"`
	Reported   consult.Usage `json:"reported_usage"`
	DurationMS int64         `json:"duration_ms"`
	Budget     Budget        `json:"budget"`
	// Structured is the consultant's JSON in the structured mode.
	Structured json.RawMessage `json:"structured,omitempty"`
	Notices    []string        `json:"notices,omitempty"`
	// Failures: the consult.Kind, the message, the exit code and the end
	// of standard error.
	Kind       string `json:"kind,omitempty"`
	Message    string `json:"message,omitempty"`
	ExitCode   int    `json:"exit_code,omitempty"`
	StderrTail string `json:"stderr_tail,omitempty"`
}

// ErrBudget is wrapped by the problem a spent budget causes.
var ErrBudget = errors.New("budget spent")

// Send sends the pending prompt of deliberation id to c and records the
// answer and the session id. A failed call changes nothing but the
// transcript, and is returned as a *consult.Error.
func Send(ctx context.Context, st *deliberation.Store, id string, c consult.Consultant, opts *Options) (*Result, error) {
	call, err := Begin(st, id, c, opts)
	if err != nil {
		return nil, err
	}
	return call.Run(ctx)
}

// Call is a consultation that has begun: the state notes it (which
// consultant, since when, in which process) until Run records its answer
// or its failure.
type Call struct {
	sn     *sender
	prompt string
	plan   plan
}

// How a call reaches the consultant.
type plan struct {
	// side: the step gets a session of its own (stress test, arbitration).
	side bool
	// start: a new session with the pending prompt (the First Call).
	start bool
	// fresh: why a fresh session gets the Recovery prompt ("" = resume).
	fresh string
}

// Begin checks that deliberation id awaits an answer and that the budget
// allows a call, decides which session the call uses, and notes the
// consultation in the state. A consultation left by a process that is gone
// (a kill, a restart) is taken over and recovered in a fresh session.
func Begin(st *deliberation.Store, id string, c consult.Consultant, opts *Options) (*Call, error) {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	if o.Structured {
		if t, ok := c.(consult.SchemaTaker); !ok || !t.TakesSchema() {
			return nil, problem.List{{Path: "structured", Message: fmt.Sprintf("consultant %s cannot be held to a response schema (codex can)", c.Name())}}
		}
	}
	s, err := st.Load(id)
	if err != nil {
		return nil, err
	}
	w := o.words()
	prompt, err := pending(s, w)
	if err != nil {
		return nil, err
	}
	interrupted := ""
	if in := s.Consultation; in != nil {
		if in.Alive() {
			return nil, problem.List{{Path: "consultation", Message: fmt.Sprintf("%s has been consulted on iteration %d since %s by process %d: wait for it (%s) or cancel it (%s)", in.Consultant, in.Iteration, in.StartedAt, in.PID, strings.ReplaceAll(w.Wait, "ID", id), strings.ReplaceAll(w.Cancel, "ID", id))}}
		}
		interrupted = fmt.Sprintf("the consultation started at %s by process %d was interrupted", in.StartedAt, in.PID)
	}
	totals, reported, last, err := spent(st, id)
	if err != nil {
		return nil, err
	}
	totals.Budget = merge(totals.Budget, o.Budget)
	if err := checkBudget(totals, w); err != nil {
		return nil, err
	}
	p := choose(s, c.Name(), last, o.Fresh, interrupted)
	begun, err := st.BeginConsultation(id, deliberation.NewConsultation(c.Name(), o.Background), interrupted != "")
	if err != nil {
		return nil, err
	}
	sn := &sender{st: st, id: id, c: c, o: o, totals: totals, reported: reported, lease: begun.Consultation.Lease}
	return &Call{sn: sn, prompt: prompt, plan: p}, nil
}

// choose decides the session: a side session for the stress test and
// arbitration; a new one for the First Call; a fresh one with the Recovery
// prompt when asked for, after recover or a degraded context, when the
// consultant changed, when there is no session to resume or the last
// consultation was interrupted; otherwise the recorded one is resumed.
func choose(s *deliberation.State, name, last string, fresh bool, interrupted string) plan {
	session := ""
	if s.SessionID != nil {
		session = *s.SessionID
	}
	prev := s.Consultant
	if prev == "" {
		prev = last
	}
	switch {
	case s.SideSession():
		return plan{side: true}
	case session == "" && s.FirstCallPending():
		return plan{start: true}
	case fresh:
		return plan{fresh: "a fresh session was asked for"}
	case s.FreshSession:
		return plan{fresh: "the state asks for a fresh session (after recover, a degraded context or a consultation cut off)"}
	case session != "" && prev != "" && prev != name:
		return plan{fresh: fmt.Sprintf("consultant switched from %s to %s", prev, name)}
	case session == "":
		return plan{fresh: "no session to resume"}
	case interrupted != "":
		return plan{fresh: interrupted}
	}
	return plan{}
}

// Run sends the prompt and records the answer, or the failure: either way
// the consultation noted by Begin ends. Canceling ctx kills the
// consultant's process group and records the cancellation.
func (call *Call) Run(ctx context.Context) (*Result, error) {
	ctx, cancel, err := budgetContext(ctx, call.sn.totals, call.sn.o.words())
	if err != nil {
		call.sn.end("budget spent")
		return nil, err
	}
	defer cancel()
	stop := call.sn.shareLease(cancel)
	defer stop()
	return call.sn.send(ctx, call.prompt, call.plan)
}

// pending is the prompt awaiting the consultee's answer.
func pending(s *deliberation.State, w *Words) (string, error) {
	prompt, err := s.PendingPrompt()
	if err != nil {
		return "", err
	}
	if s.Next.Awaiting != deliberation.AwaitResponse && s.Next.Awaiting != "" {
		return "", problem.List{{Path: "next.awaiting", Message: fmt.Sprintf("the deliberation awaits your %s of the last answer (%s), not a consultant's answer", s.Next.Awaiting, w.Evaluate)}}
	}
	return prompt, nil
}

func merge(recorded, given Budget) Budget {
	if given.MaxTokens > 0 {
		recorded.MaxTokens = given.MaxTokens
	}
	if given.MaxTime > 0 {
		recorded.MaxTime = given.MaxTime
	}
	return recorded
}

// checkBudget refuses a spent budget.
func checkBudget(t Totals, w *Words) error {
	b := t.Budget
	var probs problem.List
	if b.MaxTokens > 0 && t.Tokens >= b.MaxTokens {
		probs.Add("budget.max_tokens", "%d of %d tokens spent in %d calls: %v (raise it with %s, or synthesize)", t.Tokens, b.MaxTokens, t.Calls, ErrBudget, w.MaxTokens)
	}
	spent := time.Duration(t.DurationMS) * time.Millisecond
	if b.MaxTime > 0 && spent >= b.MaxTime {
		probs.Add("budget.max_time", "%s of %s spent in %d calls: %v (raise it with %s, or synthesize)", spent.Round(time.Second), b.MaxTime, t.Calls, ErrBudget, w.MaxTime)
	}
	return probs.Err()
}

// budgetContext refuses a spent budget and otherwise bounds the call by
// the time left.
func budgetContext(ctx context.Context, t Totals, w *Words) (context.Context, context.CancelFunc, error) {
	if err := checkBudget(t, w); err != nil {
		return nil, nil, err
	}
	if b := t.Budget; b.MaxTime > 0 {
		ctx, cancel := context.WithTimeout(ctx, b.MaxTime-time.Duration(t.DurationMS)*time.Millisecond)
		return ctx, cancel, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	return ctx, cancel, nil
}

// Spent sums the consult records of id's transcript; the budget is the
// last one recorded.
func Spent(st *deliberation.Store, id string) (Totals, error) {
	h, err := readHistory(st, id)
	return h.totals, err
}

// spent also returns the last usage each session reported and the last
// consultant that answered.
func spent(st *deliberation.Store, id string) (Totals, map[string]consult.Usage, string, error) {
	h, err := readHistory(st, id)
	return h.totals, h.reported, h.last, err
}

// history is what a transcript says about the consultations.
type history struct {
	totals   Totals
	reported map[string]consult.Usage // the last usage each session reported
	last     string                   // the last consultant that answered in the deliberation's session
	// step are the records of the consultations of the current step: since
	// the last start, evaluation or recovery by hand.
	step []deliberation.Record
}

// readHistory reads the transcript of id (bounded: see
// deliberation.MaxTranscript).
func readHistory(st *deliberation.Store, id string) (history, error) {
	h := history{reported: map[string]consult.Usage{}}
	data, err := st.ReadTranscript(id)
	if err != nil {
		return h, err
	}
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		var rec deliberation.Record
		if json.Unmarshal(line, &rec) != nil {
			continue
		}
		switch rec.Kind {
		case "start", "evaluation":
			h.step = h.step[:0]
		case "consult_begin", "consult_end", "response":
			h.step = append(h.step, rec)
		case KindConsult, KindFailure:
			h.step = append(h.step, rec)
			h.add(rec)
		}
	}
	return h, nil
}

// add counts one consult or consult_failure record.
func (h *history) add(rec deliberation.Record) {
	var d callData
	if json.Unmarshal(rec.Data, &d) != nil {
		return
	}
	h.totals.Calls++
	h.totals.Tokens += d.Usage.Total()
	h.totals.DurationMS += d.DurationMS
	h.totals.Budget = d.Budget
	if d.SessionID != "" && d.Kind == "" {
		h.reported[d.SessionID] = d.Reported
	}
	if d.Kind == "" && !d.Side {
		h.last = d.Consultant
	}
}
