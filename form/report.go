package form

import "github.com/elicit/elicit/problem"

// maxProblems is how many problems one check of a form or of answers keeps;
// past it the list ends with how many more there were (problem.Max: the cap
// of every list shown).
const maxProblems = problem.Max

// report collects the problems of one check: the first maxProblems, and a
// count of the rest.
type report struct {
	list problem.List
	more int
}

// full reports whether the list is full: later problems are only counted.
func (r *report) full() bool { return len(r.list) >= maxProblems }

// add records a problem, or only counts it once the list is full.
func (r *report) add(path, format string, args ...any) {
	if r.full() {
		r.more++
		return
	}
	r.list.Add(path, format, args...)
}

// addErr records a problem with the error behind it (see problem.Problem).
func (r *report) addErr(path string, err error, format string, args ...any) {
	if r.full() {
		r.more++
		return
	}
	r.list.Add(path, format, args...)
	r.list[len(r.list)-1].Err = err
}

// addList records problems found by another check.
func (r *report) addList(l problem.List) {
	for _, p := range l {
		if p.More > 0 {
			r.more += p.More
			continue
		}
		r.addErr(p.Path, p.Err, "%s", p.Message)
	}
}

// count is how many problems there were, listed or not.
func (r *report) count() int { return len(r.list) + r.more }

// problems is the list, ending with how many more problems there were; nil
// when there were none.
func (r *report) problems() problem.List {
	if r.more == 0 {
		return r.list
	}
	return append(r.list, problem.MoreProblems(r.more))
}
