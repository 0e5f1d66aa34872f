package consult

import (
	"context"
	"fmt"
	"sync"
)

// Scripted is a consultant for tests: it answers from Replies in order and
// records every call.
type Scripted struct {
	// Replies are returned in order; an entry with Err set fails instead.
	Replies []ScriptedReply
	// Schemas makes it a SchemaTaker.
	Schemas bool

	mu    sync.Mutex
	calls []Call
}

// ScriptedReply is one scripted answer or failure.
type ScriptedReply struct {
	Reply Reply
	Err   error
}

// Call is one recorded call of a Scripted consultant.
type Call struct {
	SessionID string // empty for Start
	Request   Request
}

// Name implements Consultant.
func (s *Scripted) Name() string { return "scripted" }

// Start implements Consultant.
func (s *Scripted) Start(_ context.Context, req Request) (*Reply, error) { return s.next("", req) }

// Resume implements Consultant.
func (s *Scripted) Resume(_ context.Context, id string, req Request) (*Reply, error) {
	return s.next(id, req)
}

// TakesSchema implements SchemaTaker.
func (s *Scripted) TakesSchema() bool { return s.Schemas }

// Calls returns the calls made so far.
func (s *Scripted) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

func (s *Scripted) next(id string, req Request) (*Reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.calls)
	s.calls = append(s.calls, Call{SessionID: id, Request: req})
	if n >= len(s.Replies) {
		return nil, &Error{Kind: KindExit, Consultant: s.Name(), ExitCode: -1, Message: fmt.Sprintf("no scripted reply for call %d", n+1)}
	}
	r := s.Replies[n]
	if r.Err != nil {
		return nil, r.Err
	}
	rep := r.Reply
	if rep.SessionID == "" && id != "" {
		rep.SessionID = id
	}
	return &rep, nil
}
