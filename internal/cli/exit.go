package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/termui"
	"github.com/elicit/elicit/internal/visible"
	"github.com/elicit/elicit/problem"
)

// Exit codes of every elicit command.
const (
	exitOK      = 0 // success
	exitInvalid = 1 // invalid input; the problems were reported
	exitUsage   = 2 // the command line itself was wrong
	// exitNoAnswer: nobody answered; the person cancelled (Escape, Ctrl-C,
	// a Cancel button) or the time ran out.
	exitNoAnswer = 3
)

// noAnswerError says nobody answered (exit 3). msg is printed on stderr;
// it is empty when the command already reported it (as JSON on stdout).
type noAnswerError struct{ msg string }

func (e *noAnswerError) Error() string {
	if e.msg == "" {
		return "no answer"
	}
	return e.msg
}

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
// prints what still has to be printed. It is the only place that does. A
// usage error points at the help of the command that failed (command, as
// "elicit methods list"). What it prints is for people: control characters
// and bidirectional controls in it (a problem path naming an unknown key, a
// file name) are escaped (see visible.String).
func exitCode(err error, stderr io.Writer, command string) int {
	stderr = visible.NewWriter(stderr)
	err = deliberation.NameRestore(err, restoreCommand)
	var usage *usageError
	var none *noAnswerError
	var problems problem.List
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errReported):
		return exitInvalid
	case errors.As(err, &none):
		if none.msg != "" {
			fmt.Fprintf(stderr, "elicit: %s\n", none.msg)
		}
		return exitNoAnswer
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "elicit: %s\nRun '%s --help' for usage.\n", usage.msg, command)
		return exitUsage
	case errors.As(err, &problems):
		fmt.Fprintln(stderr, "elicit: "+problems.Error())
		return exitInvalid
	default:
		fmt.Fprintf(stderr, "elicit: %s\n", err)
		return exitInvalid
	}
}

// noAnswer turns a widget's cancellation (or the end of its input) into
// exit 3 with a message; other errors pass through.
func noAnswer(err error) error {
	switch {
	case errors.Is(err, termui.ErrCancelled):
		return &noAnswerError{msg: "cancelled: no answer"}
	case errors.Is(err, io.EOF):
		return &noAnswerError{msg: "the input ended before an answer"}
	}
	return err
}
