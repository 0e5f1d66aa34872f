package deliberation

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/elicit/elicit/problem"
)

// The operations below are what the CLI and the MCP tools call: each loads
// the state under its lock, applies one step and saves it with its
// transcript records, or changes nothing.

// Respond records the consultee's answer to deliberation id.
func (st *Store) Respond(id, text string) (*State, error) {
	return st.Update(id, func(s *State, now time.Time) ([]Record, error) {
		if err := s.Respond(text, now); err != nil {
			return nil, err
		}
		return []Record{{Kind: "response", Iteration: s.Iteration, Text: text}}, nil
	})
}

// Evaluate decodes and applies an evaluation document to deliberation id
// and returns the state, whose Next is the next action and prompt. Every
// problem of the document is reported in one pass.
func (st *Store) Evaluate(id string, doc []byte) (*State, error) {
	if _, _, err := decodeEvaluation(doc); err != nil {
		return nil, err
	}
	return st.Update(id, func(s *State, now time.Time) ([]Record, error) {
		n := s.Iteration
		next, err := s.evaluateJSON(doc, now)
		if err != nil {
			return nil, err
		}
		ev, _ := DecodeEvaluation(doc)
		compact, _ := json.Marshal(ev)
		recs := []Record{{Kind: "evaluation", Iteration: n, Data: compact}}
		if next.Prompt != "" {
			recs = append(recs, Record{Kind: "prompt", Iteration: next.Iteration, Text: next.Prompt})
		}
		if s.Status != StatusActive {
			recs = append(recs, Record{Kind: "exit", Iteration: s.Iteration, Text: s.ExitReason})
		}
		return recs, nil
	})
}

// CheckEvaluation reports every problem Evaluate would find in doc for
// deliberation id, and changes nothing: a council checks every member's
// evaluation before it applies any.
func (st *Store) CheckEvaluation(id string, doc []byte) error {
	if _, _, err := decodeEvaluation(doc); err != nil {
		return err
	}
	s, err := st.Load(id)
	if err != nil {
		return err
	}
	_, err = s.evaluateJSON(doc, st.clock.Now())
	return err
}

// RecoverIdle is Recover for a person or a client: it refuses while a
// consultation runs (its answer would then be for a prompt no longer
// pending); cancel that first.
func (st *Store) RecoverIdle(id string) (string, error) {
	s, err := st.Load(id)
	if err != nil {
		return "", err
	}
	if c := s.Consultation; c != nil && c.Alive() {
		return "", problem.List{{Path: "consultation", Message: fmt.Sprintf("%s is being consulted on iteration %d (process %d): wait for it or cancel it, then recover", c.Consultant, c.Iteration, c.PID)}}
	}
	return st.Recover(id)
}

// Recover returns the Recovery prompt of an active deliberation, built
// from its state file, and notes it in the transcript.
func (st *Store) Recover(id string) (string, error) {
	var prompt string
	_, err := st.Update(id, func(s *State, _ time.Time) ([]Record, error) {
		var err error
		if prompt, err = s.Recover(); err != nil {
			return nil, err
		}
		return []Record{{Kind: "recovery", Iteration: s.Iteration, Text: prompt}}, nil
	})
	return prompt, err
}

// Recover returns the Recovery prompt for a fresh consultee session and
// makes it the pending prompt when an answer is awaited; the next answer
// must come from a fresh session (FreshSession), so send opens one. A state of the
// original skill (no pending step) gets one: a critique awaiting the
// answer.
func (s *State) Recover() (string, error) {
	if !s.Active() {
		return "", problem.List{{Path: "status", Message: fmt.Sprintf("the deliberation is %s (%s); nothing to recover", s.Status, s.ExitReason)}}
	}
	prompt := s.Recovery()
	s.FreshSession = true
	if s.Next == nil {
		s.Next = &Next{Action: ActionCritique, Iteration: s.Iteration}
	}
	if s.Next.Awaiting == "" {
		s.Next.Awaiting = AwaitResponse
	}
	if s.Next.Awaiting == AwaitResponse {
		s.Next.Prompt = prompt
	}
	return prompt, nil
}

// Synthesize returns the synthesis of id, opening with answer (the
// top-line answer to the question, required but after an early exit:
// trivial), when its state permits it, and notes it in the transcript
// (the audit trail); the state is unchanged.
func (st *Store) Synthesize(id, answer string) (*Synthesis, error) {
	var y *Synthesis
	_, err := st.Update(id, func(s *State, _ time.Time) ([]Record, error) {
		var err error
		if y, err = synthesize(s, answer); err != nil {
			return nil, err
		}
		data, err := json.Marshal(y)
		if err != nil {
			return nil, err
		}
		return []Record{{Kind: "synthesize", Iteration: s.Iteration, Data: data}}, nil
	})
	return y, err
}

// Abandon ends an active deliberation without a synthesis.
func (st *Store) Abandon(id string) (*State, error) {
	return st.Update(id, func(s *State, now time.Time) ([]Record, error) {
		if err := s.abandon(now); err != nil {
			return nil, err
		}
		return []Record{{Kind: "abandon", Iteration: s.Iteration}}, nil
	})
}

// PendingPrompt is the prompt awaiting a response (or, while the response
// awaits its evaluation, the prompt it answered).
func (s *State) PendingPrompt() (string, error) {
	if !s.Active() || s.Next == nil || s.Next.Prompt == "" {
		what := "no pending prompt"
		if !s.Active() {
			what += fmt.Sprintf(": the deliberation is %s (%s)", s.Status, s.ExitReason)
		}
		return "", problem.List{{Path: "next", Message: what}}
	}
	return s.Next.Prompt, nil
}

// Record kinds of the consultation operations.
const (
	recordConsultBegin = "consult_begin"
	recordConsultEnd   = "consult_end"
)

// consultEnd is the data of a consult_end record.
type consultEnd struct {
	Reason string `json:"reason"`
	// Fresh: the next answer must come from a fresh session.
	Fresh bool `json:"fresh,omitempty"`
}

// BeginConsultation notes that the pending prompt of id goes to a
// consultant. A consultation already noted is refused while its process
// runs; with takeOver, one whose process is gone (interrupted by a kill or a
// restart) is ended first.
func (st *Store) BeginConsultation(id string, c Consultation, takeOver bool) (*State, error) {
	if st.sh != nil && c.Lease == "" {
		c.Lease = st.sh.NewLease()
	}
	return st.Update(id, func(s *State, now time.Time) ([]Record, error) {
		var recs []Record
		if o := s.Consultation; o != nil && takeOver && !o.Alive() {
			s.endConsultation(now, true)
			recs = append(recs, Record{Kind: recordConsultEnd, Iteration: s.Iteration, Data: mustMarshal(consultEnd{Reason: ConsultInterrupted, Fresh: true})})
		}
		if err := s.beginConsultation(c, now); err != nil {
			return nil, err
		}
		return append(recs, Record{Kind: recordConsultBegin, Iteration: s.Iteration, Data: mustMarshal(s.Consultation)}), nil
	})
}

// EndConsultation clears the consultation of id without an answer (it
// failed, was canceled or was interrupted), after recs (the caller's own
// records of the failure). With fresh, the next answer must come from a
// fresh session (the call was cut off mid-turn).
func (st *Store) EndConsultation(id, reason string, fresh bool, recs ...Record) (*State, error) {
	return st.Update(id, func(s *State, now time.Time) ([]Record, error) {
		stamp(recs, s.Iteration)
		if s.Consultation == nil {
			return recs, nil
		}
		s.endConsultation(now, fresh)
		return append(recs, Record{Kind: recordConsultEnd, Iteration: s.Iteration, Data: mustMarshal(consultEnd{Reason: reason, Fresh: fresh})}), nil
	})
}

// RecordAnswer records a consultant's answer to deliberation id, if the
// deliberation still awaits the prompt that was sent, with recs (the
// caller's records of the call) after it.
func (st *Store) RecordAnswer(id, sent, text string, info AnswerInfo, recs ...Record) (*State, error) {
	return st.Update(id, func(s *State, now time.Time) ([]Record, error) {
		if got, err := s.PendingPrompt(); err != nil || got != sent {
			return nil, problem.List{{Path: "next", Message: "the deliberation changed while the consultant worked; its answer was not recorded (run send again)"}}
		}
		if err := s.recordAnswer(text, info, now); err != nil {
			return nil, err
		}
		rec := Record{Kind: "response", Iteration: s.Iteration, Text: text, Data: mustMarshal(info)}
		stamp(recs, s.Iteration)
		return append([]Record{rec}, recs...), nil
	})
}

// stamp gives records without an iteration the state's.
func stamp(recs []Record, n int) {
	for i := range recs {
		if recs[i].Iteration == 0 {
			recs[i].Iteration = n
		}
	}
}

func mustMarshal(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic("deliberation: " + err.Error())
	}
	return data
}
