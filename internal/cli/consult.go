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
	kind, argv, err := consult.ParseName(s.name)
	if err != nil {
		return nil, false, usagef("--consultant: %v", err)
	}
	if kind == "command" {
		return consult.NewCommand(consult.CommandOptions{Path: argv[0], Args: argv[1:], Timeout: s.timeout}), found(argv[0]), nil
	}
	path := a.getenv("ELICIT_CODEX")
	if path == "" {
		path = "codex"
	}
	c := consult.NewCodex(&consult.CodexOptions{Path: path, Model: s.model, Effort: s.effort,
		Timeout: s.timeout, IdleTimeout: s.idleTimeout})
	return c, found(path), nil
}

func found(program string) bool {
	_, err := exec.LookPath(program)
	return err == nil
}
