package term

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/elicit/elicit/internal/termui"
)

// ErrCancelled is returned by Ask when the person presses Escape or
// Ctrl-C, or when the context the session was opened with is done.
var ErrCancelled error = termui.Cancelled{} // equal to termui.ErrCancelled

// Session is a terminal that Ask draws its widgets on, one below the
// other. Close it when done: it restores the terminal.
type Session struct{ ui *termui.Session }

// Open puts in, which must be a terminal, into raw mode and returns a
// session drawing on out (usually the same terminal). Colours are off when
// NO_COLOR is set. When ctx is done (a signal), the question being
// answered returns ErrCancelled.
func Open(ctx context.Context, in *os.File, out io.Writer) (*Session, error) {
	if in == nil || out == nil {
		return nil, errors.New("term: Open needs a terminal to read keys from and a writer to draw on")
	}
	if !termui.IsTerminal(in) {
		return nil, fmt.Errorf("term: %s is not a terminal: use AskLines, which asks line by line on any reader", in.Name())
	}
	ui, err := termui.Open(ctx, in, out)
	if err != nil {
		return nil, fmt.Errorf("term: %s: %w", in.Name(), err)
	}
	return &Session{ui: ui}, nil
}

// NewSession is a session on any reader and writer, without a terminal:
// keys are read from in as a terminal sends them (bytes and escape
// sequences), and plain text with cursor movements is drawn on out, width
// columns wide (80 when width is 0 or less). It suits tests and programs
// that relay a terminal of their own.
func NewSession(in io.Reader, out io.Writer, width int) *Session {
	if width <= 0 {
		width = 80
	}
	return &Session{ui: termui.New(in, out, width, false)}
}

// Close ends the session on a line of its own (a question left unanswered
// is marked so) and restores the terminal.
func (s *Session) Close() {
	if s != nil && s.ui != nil {
		s.ui.Close()
	}
}
