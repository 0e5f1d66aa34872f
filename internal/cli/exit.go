package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/elicit/elicit/problem"
)

// Exit codes of every elicit command.
const (
	exitOK      = 0 // success
	exitInvalid = 1 // invalid input; the problems were reported
	exitUsage   = 2 // the command line itself was wrong
)

// usageError marks a mistake on the command line (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// errReported says the command already printed its problems (as JSON on
// stdout, say) and only the exit code is left to set.
var errReported = errors.New("problems reported")

// exitCode maps an error returned by a command to the process exit code and
// prints what still has to be printed. It is the only place that does.
func exitCode(err error, stderr io.Writer) int {
	var usage *usageError
	var problems problem.List
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errReported):
		return exitInvalid
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "elicit: %s\nRun 'elicit --help' for usage.\n", usage.msg)
		return exitUsage
	case errors.As(err, &problems):
		fmt.Fprintln(stderr, "elicit: "+problems.Error())
		return exitInvalid
	default:
		fmt.Fprintf(stderr, "elicit: %s\n", err)
		return exitInvalid
	}
}
