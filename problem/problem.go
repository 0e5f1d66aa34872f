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
	// More, when not 0, makes this the entry that ends a capped list (see
	// [List.Capped]): it stands for that many problems left out.
	More int `json:"-"`
}

// Max is how many problems a list shows: past it, [List.Capped] keeps the
// first Max and ends with an entry saying how many more there were. An input
// of a megabyte can have a problem every few bytes, and a list of all of
// them would be many times the input's size and of no use to anyone.
const Max = 1000

// MoreProblems is the entry that ends a list cut after Max problems: it
// stands for n problems left out.
func MoreProblems(n int) Problem {
	return Problem{Message: fmt.Sprintf("… and %d more problems (fix the ones above and check again)", n), More: n}
}

// Capped returns the list as it is shown: every problem when there are at
// most Max, else the first Max and a [MoreProblems] entry counting the
// rest. Entries that already end a capped list (from a check that capped
// its own) are counted in, wherever they stand, so a list merged from
// several checks is cut once and counts every problem.
func (l List) Capped() List {
	if len(l) <= Max && !l.hasMore() {
		return l
	}
	out := make(List, 0, min(len(l), Max)+1)
	more := 0
	for _, p := range l {
		switch {
		case p.More > 0:
			more += p.More
		case len(out) < Max:
			out = append(out, p)
		default:
			more++
		}
	}
	if more > 0 {
		out = append(out, MoreProblems(more))
	}
	return out
}

// Count is how many problems the list stands for, listed or left out.
func (l List) Count() int {
	n := 0
	for _, p := range l {
		if p.More > 0 {
			n += p.More
		} else {
			n++
		}
	}
	return n
}

func (l List) hasMore() bool {
	for _, p := range l {
		if p.More > 0 {
			return true
		}
	}
	return false
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

// Strings renders the problems as they are shown (see [List.Capped]), each
// with Problem.String: at most Max, then "… and N more problems".
func (l List) Strings() []string {
	l = l.Capped()
	out := make([]string, len(l))
	for i, p := range l {
		out[i] = p.String()
	}
	return out
}

// Error joins the problems as they are shown (see [List.Capped]), one per
// line, after how many there are in all.
func (l List) Error() string {
	switch {
	case len(l) == 0:
		return "no problems"
	case len(l) == 1 && l[0].More == 0:
		return l[0].String()
	}
	return fmt.Sprintf("%d problems:\n%s", l.Count(), strings.Join(l.Strings(), "\n"))
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
