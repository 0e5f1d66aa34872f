package problem

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with an input.
type Problem struct {
	// Path locates the problem inside the input, e.g. "fields[2].options".
	// It is empty for problems about the input as a whole.
	Path string
	// Message says what is wrong and, where it helps, what would be right.
	Message string
	// Err, when set, is the error behind the problem: errors.Is and
	// errors.As on the List reach it (a sentinel such as
	// form.ErrNoTemplate).
	Err error `json:"-"`
}

// String renders the problem as "path: message".
func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// List is an ordered list of problems. A non-empty List is an error.
type List []Problem

// Add appends a problem with a formatted message.
func (l *List) Add(path, format string, args ...any) {
	*l = append(*l, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

// Strings renders every problem with Problem.String.
func (l List) Strings() []string {
	out := make([]string, len(l))
	for i, p := range l {
		out[i] = p.String()
	}
	return out
}

// Error joins the problems, one per line.
func (l List) Error() string {
	switch len(l) {
	case 0:
		return "no problems"
	case 1:
		return l[0].String()
	}
	return fmt.Sprintf("%d problems:\n%s", len(l), strings.Join(l.Strings(), "\n"))
}

// Err returns l as an error, or nil when l is empty.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Unwrap returns the errors behind the problems (see Problem.Err), so that
// errors.Is and errors.As see them through the list.
func (l List) Unwrap() []error {
	var out []error
	for _, p := range l {
		if p.Err != nil {
			out = append(out, p.Err)
		}
	}
	return out
}
