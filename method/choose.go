package method

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/elicit/elicit/problem"
)

// Choose applies the plan workflow's mandatory selection to s: nums must
// name at least one of its methods, and only those. The chosen candidates
// come back in s's order.
func (s *Selection) Choose(nums []int) ([]Candidate, error) {
	var p problem.List
	if len(s.Methods) == 0 {
		p.Add("", "no methods to choose from: %s", s.Reason)
		return nil, p
	}
	if len(nums) == 0 {
		p.Add("choose", "at least one method must be selected (one of %s)", s.nums())
	}
	want := map[int]bool{}
	for _, n := range nums {
		if !s.has(n) {
			p.Add("choose", "method %d is not among the candidates (%s)", n, s.nums())
		}
		want[n] = true
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	var out []Candidate
	for _, c := range s.Methods {
		if want[c.Method.Num] {
			out = append(out, c)
		}
	}
	return out, nil
}

// Quick is the choice of --quick mode: the top-scored method alone.
func (s *Selection) Quick() ([]Candidate, error) {
	if len(s.Methods) == 0 {
		return s.Choose(nil)
	}
	return s.Methods[:1], nil
}

func (s *Selection) has(num int) bool {
	for _, c := range s.Methods {
		if c.Method.Num == num {
			return true
		}
	}
	return false
}

func (s *Selection) nums() string {
	parts := make([]string, len(s.Methods))
	for i, c := range s.Methods {
		parts[i] = strconv.Itoa(c.Method.Num)
	}
	return strings.Join(parts, ", ")
}

// NoMatchNotice is what to tell the user when a selection for q found
// nothing: in auto mode (forge enrichment) a log line, in manual mode an
// offer to browse the registry.
func NoMatchNotice(q Query) string {
	if q.Manual {
		return "No methods match your current context. Would you like to browse the full registry?"
	}
	return fmt.Sprintf("No elicitation methods matched for section '%s' — proceeding without method injection.", printable(q.Title))
}
