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
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
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
}

// Result is what one Send did.
type Result struct {
	ID         string `json:"id"`
	Iteration  int    `json:"iteration"`
	Consultant string `json:"consultant"`
	SessionID  string `json:"session_id,omitempty"`
	// Resumed: the call continued the recorded session.
	Resumed bool `json:"resumed"`
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
	Recovery   string `json:"recovery,omitempty"`
	// Usage is this call's; Reported what the consultant said (codex: the
	// thread's running total on a resume).
	Usage      consult.Usage `json:"usage"`
	Reported   consult.Usage `json:"reported_usage"`
	DurationMS int64         `json:"duration_ms"`
	Budget     Budget        `json:"budget"`
	// Structured is the consultant's JSON in the structured mode.
	Structured json.RawMessage `json:"structured,omitempty"`
	Kind       string          `json:"kind,omitempty"` // failures: the consult.Kind
	Message    string          `json:"message,omitempty"`
}

// ErrBudget is wrapped by the problem a spent budget causes.
var ErrBudget = errors.New("budget spent")

// Send sends the pending prompt of deliberation id to c and records the
// answer and the session id. A failed call changes nothing but the
// transcript, and is returned as a *consult.Error.
func Send(ctx context.Context, st *deliberation.Store, id string, c consult.Consultant, opts *Options) (*Result, error) {
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
	prompt, err := pending(s)
	if err != nil {
		return nil, err
	}
	totals, reported, err := spent(st, id)
	if err != nil {
		return nil, err
	}
	totals.Budget = merge(totals.Budget, o.Budget)
	ctx, cancel, err := budgetContext(ctx, totals)
	if err != nil {
		return nil, err
	}
	defer cancel()
	sn := &sender{st: st, id: id, c: c, o: o, totals: totals, reported: reported}
	return sn.send(ctx, s, prompt)
}

// pending is the prompt awaiting the consultee's answer.
func pending(s *deliberation.State) (string, error) {
	prompt, err := s.PendingPrompt()
	if err != nil {
		return "", err
	}
	if s.Next.Awaiting != deliberation.AwaitResponse && s.Next.Awaiting != "" {
		return "", problem.List{{Path: "next.awaiting", Message: fmt.Sprintf("the deliberation awaits your %s of the last answer (elicit deliberate evaluate), not a consultant's answer", s.Next.Awaiting)}}
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

// budgetContext refuses a spent budget and otherwise bounds the call by
// the time left.
func budgetContext(ctx context.Context, t Totals) (context.Context, context.CancelFunc, error) {
	b := t.Budget
	var probs problem.List
	if b.MaxTokens > 0 && t.Tokens >= b.MaxTokens {
		probs.Add("budget.max_tokens", "%d of %d tokens spent in %d calls: %v (raise it with --max-tokens, or synthesize)", t.Tokens, b.MaxTokens, t.Calls, ErrBudget)
	}
	spent := time.Duration(t.DurationMS) * time.Millisecond
	if b.MaxTime > 0 && spent >= b.MaxTime {
		probs.Add("budget.max_time", "%s of %s spent in %d calls: %v (raise it with --max-time, or synthesize)", spent.Round(time.Second), b.MaxTime, t.Calls, ErrBudget)
	}
	if err := probs.Err(); err != nil {
		return nil, nil, err
	}
	if b.MaxTime > 0 {
		ctx, cancel := context.WithTimeout(ctx, b.MaxTime-spent)
		return ctx, cancel, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	return ctx, cancel, nil
}

// Spent sums the consult records of id's transcript; the budget is the
// last one recorded.
func Spent(st *deliberation.Store, id string) (Totals, error) {
	t, _, err := spent(st, id)
	return t, err
}

// spent also returns the last usage each session reported.
func spent(st *deliberation.Store, id string) (Totals, map[string]consult.Usage, error) {
	var t Totals
	reported := map[string]consult.Usage{}
	f, err := os.Open(st.TranscriptPath(id))
	if errors.Is(err, os.ErrNotExist) {
		return t, reported, nil
	}
	if err != nil {
		return t, nil, fmt.Errorf("read transcript: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 256<<20)
	for sc.Scan() {
		var rec deliberation.Record
		if json.Unmarshal(sc.Bytes(), &rec) != nil || (rec.Kind != KindConsult && rec.Kind != KindFailure) {
			continue
		}
		var d callData
		if json.Unmarshal(rec.Data, &d) != nil {
			continue
		}
		t.Calls++
		t.Tokens += d.Usage.Total()
		t.DurationMS += d.DurationMS
		t.Budget = d.Budget
		if d.SessionID != "" && d.Kind == "" {
			reported[d.SessionID] = d.Reported
		}
	}
	return t, reported, sc.Err()
}
