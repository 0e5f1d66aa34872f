package relay

import (
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

// sender is one Send in progress.
type sender struct {
	st     *deliberation.Store
	id     string
	c      consult.Consultant
	o      Options
	totals Totals
	// reported is the last usage each session reported.
	reported map[string]consult.Usage
}

func (sn *sender) request(prompt string) consult.Request {
	req := consult.Request{Prompt: prompt, Effort: sn.o.Effort, Progress: sn.o.Progress}
	if sn.o.Structured {
		req.Schema = AnswerSchema
	}
	return req
}

func (sn *sender) send(ctx context.Context, s *deliberation.State, prompt string) (*Result, error) {
	session := ""
	if s.SessionID != nil {
		session = *s.SessionID
	}
	if session == "" {
		rep, err := sn.c.Start(ctx, sn.request(prompt))
		if err != nil {
			return nil, sn.fail(err, false)
		}
		return sn.record(prompt, rep, false, "")
	}
	rep, err := sn.c.Resume(ctx, session, sn.request(prompt))
	if err == nil {
		return sn.record(prompt, rep, true, "")
	}
	var ce *consult.Error
	if !errors.As(err, &ce) || !ce.Retryable() || ctx.Err() != nil {
		return nil, sn.fail(err, true)
	}
	return sn.recover(ctx, ce)
}

// recover is the seed's Session Recovery: the Recovery prompt, built from
// the state file, goes to a fresh session.
func (sn *sender) recover(ctx context.Context, cause *consult.Error) (*Result, error) {
	sn.logFailure(cause, true)
	prompt, err := sn.st.Recover(sn.id)
	if err != nil {
		return nil, err
	}
	rep, err := sn.c.Start(ctx, sn.request(prompt))
	if err != nil {
		return nil, sn.fail(err, false)
	}
	return sn.record(prompt, rep, false, fmt.Sprintf("%s: %s", cause.Kind, cause.Message))
}

// fail notes a failed call in the transcript and returns err.
func (sn *sender) fail(err error, resumed bool) error {
	var ce *consult.Error
	if errors.As(err, &ce) {
		sn.logFailure(ce, resumed)
	}
	return err
}

func (sn *sender) logFailure(ce *consult.Error, resumed bool) {
	d := callData{Consultant: sn.c.Name(), Resumed: resumed, Budget: sn.totals.Budget, Kind: string(ce.Kind), Message: ce.Message}
	if ce.Partial != nil {
		d.SessionID, d.Usage, d.DurationMS = ce.Partial.SessionID, ce.Partial.Usage, ce.Partial.Duration.Milliseconds()
	}
	sn.st.Update(sn.id, func(s *deliberation.State, _ time.Time) ([]deliberation.Record, error) {
		return []deliberation.Record{{Kind: KindFailure, Iteration: s.Iteration, Data: mustJSON(d)}}, nil
	})
	sn.totals.Calls++
	sn.totals.Tokens += d.Usage.Total()
	sn.totals.DurationMS += d.DurationMS
}

// record stores the answer and the session id, if the deliberation still
// awaits the prompt that was sent.
func (sn *sender) record(prompt string, rep *consult.Reply, resumed bool, recovery string) (*Result, error) {
	d := callData{Consultant: sn.c.Name(), SessionID: rep.SessionID, Resumed: resumed, Recovery: recovery,
		Usage: rep.Usage, Reported: rep.Usage, DurationMS: rep.Duration.Milliseconds(), Budget: sn.totals.Budget}
	if rep.UsageIsThreadTotal {
		d.Usage = rep.Usage.Sub(sn.reported[rep.SessionID])
	}
	answer := rep.Text
	if sn.o.Structured {
		if text, ok := render(rep.Text); ok {
			d.Structured, answer = json.RawMessage(strings.TrimSpace(rep.Text)), text
		}
	}
	s, err := sn.st.Update(sn.id, func(s *deliberation.State, now time.Time) ([]deliberation.Record, error) {
		if got, _ := pending(s); got != prompt {
			return nil, problem.List{{Path: "next", Message: "the deliberation changed while the consultant worked; its answer was not recorded (run send again)"}}
		}
		if err := s.Respond(answer, now); err != nil {
			return nil, err
		}
		if rep.SessionID != "" {
			id := rep.SessionID
			s.SessionID = &id
		}
		if recovery != "" {
			s.Warnings = append(s.Warnings, fmt.Sprintf("Recovered from session failure at iter %d (%s).", s.Iteration, recovery))
		}
		return []deliberation.Record{
			{Kind: "response", Iteration: s.Iteration, Text: answer},
			{Kind: KindConsult, Iteration: s.Iteration, Data: mustJSON(d)},
		}, nil
	})
	if err != nil {
		return nil, err
	}
	t := sn.totals
	t.Calls++
	t.Tokens += d.Usage.Total()
	t.DurationMS += d.DurationMS
	return &Result{ID: sn.id, Iteration: s.Iteration, Consultant: sn.c.Name(), SessionID: rep.SessionID, Resumed: resumed,
		Recovery: recovery, Answer: answer, Usage: d.Usage, DurationMS: d.DurationMS, Notices: rep.Notices, Totals: t, Next: s.Next}, nil
}
