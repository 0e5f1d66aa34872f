package deliberation

import (
	"errors"

	"github.com/elicit/elicit/problem"
)

// RestoreError marks what rebuilding the state of ID from its transcript
// (Store.Restore) mends: a missing, unreadable or outdated state file. As
// a problem's Err, the problem's message says what is wrong and that the
// state can be rebuilt; as an error of its own, Err says what is wrong.
// The package names no command: each door adds how its callers rebuild a
// state (NameRestore), the CLI with its recover --restore, the MCP server
// with its deliberation_recover tool.
type RestoreError struct {
	ID string
	// Err is what is wrong; nil as a problem's Err.
	Err error
}

func (e *RestoreError) Error() string {
	if e.Err == nil {
		return "rebuild the state of " + e.ID + " from its transcript"
	}
	return e.Err.Error() + "; rebuild the state from its transcript"
}

func (e *RestoreError) Unwrap() error { return e.Err }

// restorable marks a problem of id's state as one rebuilding mends.
func restorable(id string, p problem.Problem) problem.Problem {
	p.Err = &RestoreError{ID: id}
	return p
}

// NameRestore returns err with how to rebuild each state it says needs
// rebuilding named after it: " with: " and how(id), a door's command or
// tool. The result holds no RestoreError, so naming it again changes
// nothing; an error without one is returned as it is.
func NameRestore(err error, how func(id string) string) error {
	var re *RestoreError
	if probs, ok := err.(problem.List); ok {
		out, named := make(problem.List, len(probs)), false
		for i, p := range probs {
			if errors.As(p.Err, &re) {
				p.Message += " with: " + how(re.ID)
				p.Err, named = re.Err, true
			}
			out[i] = p
		}
		if named {
			return out
		}
		return err
	}
	if errors.As(err, &re) {
		return &namedRestore{msg: err.Error() + " with: " + how(re.ID), err: re.Err}
	}
	return err
}

// namedRestore is an error NameRestore named the rebuild of; it unwraps to
// what was wrong.
type namedRestore struct {
	msg string
	err error
}

func (e *namedRestore) Error() string { return e.msg }
func (e *namedRestore) Unwrap() error { return e.err }

// NameRestores names after the error of each entry whose state can be
// rebuilt (Restorable) how to do it, as NameRestore does.
func NameRestores(entries []Entry, how func(id string) string) {
	for i := range entries {
		if e := &entries[i]; e.Restorable {
			e.Error += " with: " + how(e.ID)
			e.Restorable = false
		}
	}
}
