package method

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/elicit/elicit/problem"
)

// Selection defaults.
const (
	// DefaultTop is how many methods a selection returns by default.
	DefaultTop = 5
	// maxPerSection caps a selection for forge enrichment (Query.PerSection).
	maxPerSection = 2
)

// Status is the outcome of a selection.
type Status string

// Selection outcomes.
const (
	StatusOK      Status = "OK"
	StatusNoMatch Status = "NO_MATCH"
)

// Query describes the section to select methods for.
type Query struct {
	// Phase is the workflow phase, command:number (plan:0, forge:3). Required.
	Phase string
	// Agent keeps methods whose agents are empty or include it; "" keeps all.
	Agent string
	// Manual offers tier 1 and tier 2; false (auto mode) offers tier 1 only.
	Manual bool
	// Title and Text are the section's title and body. The title bonus
	// looks at Title only.
	Title, Text string
	// Keywords, when non-nil, are used (lowercased and deduplicated) instead
	// of Keywords(Title + Text).
	Keywords []string
	// Top is how many methods to return; 0 means DefaultTop.
	Top int
	// PerSection caps Top at MaxPerSection, as forge enrichment does.
	PerSection bool
}

// Candidate is a selected method and its score.
type Candidate struct {
	Method Method
	// Score is overlap/len(topics), plus 0.3 for the title bonus.
	Score float64
	// num/den is Score as an exact fraction, for comparisons.
	num, den int
}

// MarshalJSON writes the candidate as the CLI and MCP tools show it, with the
// score rounded to 4 decimals.
func (c Candidate) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Num       int     `json:"num"`
		Name      string  `json:"method_name"`
		Category  string  `json:"category"`
		Tier      int     `json:"tier"`
		Score     float64 `json:"score"`
		CodexRole string  `json:"codex_role"`
	}{c.Method.Num, c.Method.Name, c.Method.Category, c.Method.Tier, math.Round(c.Score*1e4) / 1e4, c.Method.CodexRole})
}

// Selection is the result of Registry.Select.
type Selection struct {
	Status Status `json:"status"`
	// Reason says why nothing was selected; empty when Status is OK.
	Reason string `json:"reason"`
	// Notice is what to tell the user when nothing was selected, in the
	// query's mode (NoMatchNotice): in auto mode the line to log before
	// going on without a method, in manual mode the offer to browse the
	// registry. Empty when Status is OK.
	Notice   string      `json:"notice,omitempty"`
	Keywords []string    `json:"keywords"`
	Methods  []Candidate `json:"methods"`
	// Warnings are the registry's warnings, WarnUnavailable among them when
	// it has no methods.
	Warnings []string `json:"warnings"`
}

// Select runs the selection pipeline: phase filter, agent filter, tier
// filter, topic scoring, then the top N by score, ties going to the lower
// num. Only methods scoring above 0 are selected. An invalid query is a
// problem.List error; no match is a Selection with StatusNoMatch.
func (r *Registry) Select(q Query) (*Selection, error) {
	if err := q.check(); err != nil {
		return nil, err
	}
	s := &Selection{Status: StatusNoMatch, Keywords: q.keywords(), Methods: []Candidate{}, Warnings: r.WarningTexts()}
	if len(r.Methods) == 0 && !slices.Contains(s.Warnings, WarnUnavailable) {
		// a Registry built in code (the zero value) has not been told
		s.Warnings = append(s.Warnings, WarnUnavailable)
	}
	best, t := r.rank(q, s.Keywords)
	s.Notice = NoMatchNotice(q)
	switch {
	case t.phase == 0:
		s.Reason = "No methods match phase " + q.Phase
	case t.agent == 0:
		s.Reason = fmt.Sprintf("No methods match phase %s for agent %s", q.Phase, q.Agent)
	case t.tier == 0:
		s.Reason = fmt.Sprintf("No tier-1 methods match phase %s (manual mode adds tier 2)", q.Phase)
	case len(s.Keywords) == 0:
		s.Reason = "No keywords in the section title or text — section skipped, no methods scored"
	case len(best) == 0:
		s.Reason = fmt.Sprintf("No methods scored above 0.0 for topics [%s]", strings.Join(s.Keywords, ", "))
	default:
		s.Status, s.Notice = StatusOK, ""
		for _, b := range best {
			s.Methods = append(s.Methods, Candidate{Method: *b.m, Score: float64(b.num) / float64(b.den), num: b.num, den: b.den})
		}
	}
	return s, nil
}

// tally counts the methods left after each filter.
type tally struct{ phase, agent, tier int }

// scored is a method with its exact score num/den.
type scored struct {
	m        *Method
	num, den int
}

// rank filters the registry and keeps the best q.limit() methods with a
// positive score, best first.
func (r *Registry) rank(q Query, keywords []string) ([]scored, tally) {
	kw := make(map[string]bool, len(keywords))
	for _, k := range keywords {
		kw[k] = true
	}
	title := phrase(q.Title)
	// A top larger than the registry selects every method that scores:
	// the slice is sized by what can fill it, not by the count asked for.
	n := min(q.limit(), len(r.Methods))
	best := make([]scored, 0, n+1)
	var t tally
	for i := range r.Methods {
		m := &r.Methods[i]
		if !q.admits(m, &t) || len(kw) == 0 {
			continue
		}
		if s := scoreOf(m, kw, title); s.num > 0 {
			best = insertTop(best, s, n)
		}
	}
	return best, t
}

// admits applies the phase, agent and tier filters to m, counting in t.
func (q Query) admits(m *Method, t *tally) bool {
	if !m.hasPhase(q.Phase) {
		return false
	}
	t.phase++
	if q.Agent != "" && len(m.Agents) > 0 && !containsFold(m.Agents, q.Agent) {
		return false
	}
	t.agent++
	if !q.Manual && !m.AutoSuggest {
		return false
	}
	t.tier++
	return true
}

// scoreOf is overlap/len(topics), plus 3/10 when the method's name appears
// in the title as whole words.
func scoreOf(m *Method, kw map[string]bool, title string) scored {
	keys, name := m.keys, m.nameWords
	if keys == nil { // built by hand, not parsed
		c := *m
		c.index()
		keys, name = c.keys, c.nameWords
	}
	overlap := 0
	for _, t := range keys {
		if matches(t, kw) {
			overlap++
		}
	}
	s := scored{m: m, num: overlap * 10, den: len(keys) * 10}
	if name != " " && strings.Contains(title, name) {
		s.num += 3 * len(keys)
	}
	return s
}

// insertTop inserts s into best, kept sorted by score descending then num
// ascending, and cut to n.
func insertTop(best []scored, s scored, n int) []scored {
	i := len(best)
	for i > 0 && better(s, best[i-1]) {
		i--
	}
	if i >= n {
		return best
	}
	best = slices.Insert(best, i, s)
	return best[:min(len(best), n)]
}

func better(a, b scored) bool {
	if d := a.num*b.den - b.num*a.den; d != 0 {
		return d > 0
	}
	return a.m.Num < b.m.Num
}

func (q Query) check() error {
	var p problem.List
	if !ValidPhase(q.Phase) {
		p.Add("phase", "%q is not a phase (want command:number, as plan:0 or arc:7.5)", q.Phase)
	}
	if q.Top < 0 {
		p.Add("top", "%d is not a count (want 1 or more, or 0 for %d)", q.Top, DefaultTop)
	}
	return p.Err()
}

func (q Query) keywords() []string {
	if q.Keywords == nil {
		return Keywords(q.Title + "\n" + q.Text)
	}
	out := []string{}
	for _, k := range q.Keywords {
		if k = strings.ToLower(strings.TrimSpace(k)); k != "" {
			out = appendNew(out, k)
		}
	}
	return out
}

func (q Query) limit() int {
	n := q.Top
	if n == 0 {
		n = DefaultTop
	}
	if q.PerSection {
		n = min(n, maxPerSection)
	}
	return n
}

func containsFold(list []string, v string) bool {
	for _, x := range list {
		if strings.EqualFold(x, v) {
			return true
		}
	}
	return false
}
