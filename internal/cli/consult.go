package cli

import (
	"os/exec"
	"time"

	"github.com/elicit/elicit/consult"
)

// consultantSpec says which consultant to build and how.
type consultantSpec struct {
	name        string // "codex" or "command:PROG ARGS..."
	model       string
	effort      string
	timeout     time.Duration
	idleTimeout time.Duration
}

// consultant builds the consultant a spec names and reports whether its
// program can be found. The codex program is $ELICIT_CODEX, else "codex".
func (a *app) consultant(s consultantSpec) (consult.Consultant, bool, error) {
	c, err := consult.New(s.name, &consult.CodexOptions{Path: consult.CodexPath(a.getenv), Model: s.model, Effort: s.effort,
		Timeout: s.timeout, IdleTimeout: s.idleTimeout})
	if err != nil {
		return nil, false, usagef("--consultant: %v", err)
	}
	_, err = exec.LookPath(consult.Program(c))
	return c, err == nil, nil
}
