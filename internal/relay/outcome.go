package relay

import (
	"context"
	"encoding/json"
	"time"

	"github.com/elicit/elicit/deliberation"
)

// The statuses of an Outcome.
const (
	StatusRunning     = deliberation.ConsultRunning     // the consultant works
	StatusInterrupted = deliberation.ConsultInterrupted // its process is gone; the next send recovers
	StatusDone        = "done"                          // the answer is recorded: evaluate it
	StatusFailed      = "failed"                        // the consultant failed: see Failure
	StatusCanceled    = "canceled"                      // canceled (deliberate cancel, a signal, a server stop)
	StatusIdle        = "idle"                          // no consultation in the current step
)

// Outcome is where the consultation of a deliberation's current step
// stands: running, or how it ended. The current step is what follows the
// last evaluation.
type Outcome struct {
	Status string `json:"status"`
	ID     string `json:"id"`
	// Consultation describes a running or interrupted consultation.
	Consultation *deliberation.ConsultationView `json:"consultation,omitempty"`
	// Result is a done consultation's result.
	Result *Result `json:"result,omitempty"`
	// Failure is a failed or canceled consultation's failure.
	Failure *Failure `json:"failure,omitempty"`
	// Next is the deliberation's next step.
	Next *deliberation.Next `json:"next,omitempty"`
}

// Failure is a failed consultation, as its record keeps it.
type Failure struct {
	Consultant string `json:"consultant"`
	Kind       string `json:"kind"`
	Message    string `json:"message"`
	ExitCode   int    `json:"exit_code"`
	StderrTail string `json:"stderr_tail"`
}

// Status reports the consultation of deliberation id's current step, from
// the state file and the transcript; it works for a consultation run by any
// process.
func Status(st *deliberation.Store, id string) (*Outcome, error) {
	s, err := st.Load(id)
	if err != nil {
		return nil, err
	}
	o := &Outcome{ID: id, Next: s.Next}
	if v := s.Consultation.View(time.Now()); v != nil {
		o.Status, o.Consultation = v.Status, v
		return o, nil
	}
	h, err := readHistory(st, id)
	if err != nil {
		return nil, err
	}
	o.Status = StatusIdle
	begin := -1
	for i, rec := range h.step {
		if rec.Kind == "consult_begin" {
			begin = i
		}
	}
	if begin < 0 {
		return o, nil
	}
	var answer string
	var failure *callData
	for _, rec := range h.step[begin+1:] {
		var d callData
		switch rec.Kind {
		case "response":
			answer = rec.Text
		case KindFailure:
			if json.Unmarshal(rec.Data, &d) == nil {
				failure = &d
			}
		case KindConsult:
			if json.Unmarshal(rec.Data, &d) != nil {
				continue
			}
			o.Status = StatusDone
			o.Result = &Result{ID: id, Iteration: rec.Iteration, Consultant: d.Consultant, SessionID: d.SessionID, Resumed: d.Resumed,
				Side: d.Side, Recovery: d.Recovery, Answer: answer, Usage: d.Usage, DurationMS: d.DurationMS, Notices: d.Notices,
				Totals: h.totals, Next: s.Next}
		case "consult_end":
			var e struct{ Reason string }
			json.Unmarshal(rec.Data, &e)
			switch e.Reason {
			case StatusInterrupted:
				o.Status = StatusInterrupted
			case "canceled":
				o.Status = StatusCanceled
			default:
				o.Status = StatusFailed
			}
			if failure != nil {
				o.Failure = &Failure{Consultant: failure.Consultant, Kind: failure.Kind, Message: failure.Message, ExitCode: failure.ExitCode, StderrTail: failure.StderrTail}
			} else {
				o.Failure = &Failure{Kind: e.Reason, Message: e.Reason, ExitCode: -1}
			}
		}
	}
	return o, nil
}

// Wait polls deliberation id every poll until its consultation is no
// longer running, timeout passes or ctx ends, and returns where it stands.
func Wait(ctx context.Context, st *deliberation.Store, id string, timeout, poll time.Duration) (*Outcome, error) {
	deadline := time.Now().Add(timeout)
	for {
		o, err := Status(st, id)
		if err != nil || o.Status != StatusRunning || !time.Now().Before(deadline) {
			return o, err
		}
		t := time.NewTimer(min(poll, time.Until(deadline)))
		select {
		case <-ctx.Done():
			t.Stop()
			return o, nil
		case <-t.C:
		}
	}
}
