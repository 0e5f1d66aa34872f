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
	// lease names the consultation in a shared database ("" in files).
	lease string
}

func (sn *sender) request(prompt string) consult.Request {
	req := consult.Request{Prompt: prompt, Effort: sn.o.Effort, Progress: sn.o.Progress}
	if sn.o.Structured {
		req.Schema = AnswerSchema
	}
	return req
}

func (sn *sender) send(ctx context.Context, prompt string, p plan) (*Result, error) {
	switch {
	case p.side || p.start:
		req := sn.request(prompt)
		if !p.side {
			req.Prompt = deliberation.WithStance(prompt, sn.o.Stance)
		}
		rep, err := sn.c.Start(ctx, req)
		if err != nil {
			return nil, sn.fail(err, false)
		}
		return sn.record(prompt, rep, call{side: p.side})
	case p.fresh != "":
		return sn.recover(ctx, p.fresh)
	}
	s, err := sn.st.Load(sn.id)
	if err != nil {
		sn.end("the state could not be read")
		return nil, err
	}
	rep, err := sn.c.Resume(ctx, *s.SessionID, sn.request(prompt))
	if err == nil {
		return sn.record(prompt, rep, call{resumed: true})
	}
	var ce *consult.Error
	if !errors.As(err, &ce) || !ce.Retryable() || ctx.Err() != nil {
		return nil, sn.fail(err, true)
	}
	sn.logFailure(ce, true, false)
	return sn.recover(ctx, fmt.Sprintf("%s: %s", ce.Kind, ce.Message))
}

// call says how an answer was obtained.
type call struct {
	resumed, side bool
	recovery      string
}

// recover is the seed's Session Recovery: the Recovery prompt, built from
// the state file, goes to a fresh session.
func (sn *sender) recover(ctx context.Context, why string) (*Result, error) {
	prompt, err := sn.st.Recover(sn.id)
	if err != nil {
		sn.end("the state could not be recovered")
		return nil, err
	}
	rep, err := sn.c.Start(ctx, sn.request(deliberation.WithStance(prompt, sn.o.Stance)))
	if err != nil {
		return nil, sn.fail(err, false)
	}
	return sn.record(prompt, rep, call{recovery: why})
}

// fail notes a failed call in the transcript, ends the consultation and
// returns err.
func (sn *sender) fail(err error, resumed bool) error {
	var ce *consult.Error
	if errors.As(err, &ce) {
		sn.logFailure(ce, resumed, true)
		return err
	}
	sn.end(err.Error())
	return err
}

// logFailure records a failed call; with final, the consultation ends.
func (sn *sender) logFailure(ce *consult.Error, resumed, final bool) {
	d := callData{Consultant: sn.c.Name(), Resumed: resumed, Budget: sn.totals.Budget, Kind: string(ce.Kind), Message: ce.Message,
		ExitCode: ce.ExitCode, StderrTail: ce.StderrTail}
	if ce.Partial != nil {
		d.SessionID, d.Usage, d.DurationMS = ce.Partial.SessionID, ce.Partial.Usage, ce.Partial.Duration.Milliseconds()
	}
	rec := deliberation.Record{Kind: KindFailure, Data: mustJSON(d)}
	if final {
		cutOff := ce.Kind == consult.KindCanceled || ce.Kind == consult.KindTimeout
		sn.st.EndConsultation(sn.id, string(ce.Kind), cutOff, rec)
	} else {
		sn.st.Update(sn.id, func(s *deliberation.State, _ time.Time) ([]deliberation.Record, error) {
			rec.Iteration = s.Iteration
			return []deliberation.Record{rec}, nil
		})
	}
	sn.totals.Calls++
	sn.totals.Tokens += d.Usage.Total()
	sn.totals.DurationMS += d.DurationMS
}

// end ends the consultation without a consultant failure to record.
func (sn *sender) end(reason string) {
	sn.st.EndConsultation(sn.id, reason, false)
}

// record stores the answer and the session id, if the deliberation still
// awaits the prompt that was sent.
func (sn *sender) record(prompt string, rep *consult.Reply, how call) (*Result, error) {
	d := callData{Consultant: sn.c.Name(), SessionID: rep.SessionID, Resumed: how.resumed, Side: how.side, Recovery: how.recovery,
		Usage: rep.Usage, Reported: rep.Usage, DurationMS: rep.Duration.Milliseconds(), Budget: sn.totals.Budget, Notices: rep.Notices}
	if rep.UsageIsThreadTotal {
		d.Usage = rep.Usage.Sub(sn.reported[rep.SessionID])
	}
	answer := rep.Text
	if sn.o.Structured {
		if text, ok := render(rep.Text); ok {
			d.Structured, answer = json.RawMessage(strings.TrimSpace(rep.Text)), text
		}
	}
	info := deliberation.AnswerInfo{Consultant: sn.c.Name(), SessionID: rep.SessionID, Side: how.side, Recovery: how.recovery}
	s, err := sn.st.RecordAnswer(sn.id, prompt, answer, info, deliberation.Record{Kind: KindConsult, Data: mustJSON(d)})
	if err != nil {
		sn.end("the answer could not be recorded")
		return nil, err
	}
	t := sn.totals
	t.Calls++
	t.Tokens += d.Usage.Total()
	t.DurationMS += d.DurationMS
	return &Result{ID: sn.id, Iteration: s.Iteration, Consultant: sn.c.Name(), SessionID: rep.SessionID, Resumed: how.resumed, Side: how.side,
		Recovery: how.recovery, Answer: answer, Usage: d.Usage, DurationMS: d.DurationMS, Notices: rep.Notices, Totals: t, Next: s.Next}, nil
}
