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
	// MaxPerSection caps a selection for forge enrichment (Query.PerSection).
	MaxPerSection = 2
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
	Reason   string      `json:"reason"`
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
	pool, reason := r.filter(q)
	switch {
	case reason != "":
		s.Reason = reason
	case len(s.Keywords) == 0:
		s.Reason = "No keywords in the section title or text — section skipped, no methods scored"
	default:
		s.Methods = top(score(pool, s.Keywords, words(q.Title)), q.limit())
		if len(s.Methods) == 0 {
			s.Reason = fmt.Sprintf("No methods scored above 0.0 for topics [%s]", strings.Join(s.Keywords, ", "))
		} else {
			s.Status = StatusOK
		}
	}
	return s, nil
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
		n = min(n, MaxPerSection)
	}
	return n
}

// filter applies the phase, agent and tier filters and returns the methods
// left, or the reason none are.
func (r *Registry) filter(q Query) ([]Method, string) {
	var byPhase, byAgent, byTier int
	pool := make([]Method, 0, 16)
	for _, m := range r.Methods {
		if !m.HasPhase(q.Phase) {
			continue
		}
		byPhase++
		if q.Agent != "" && len(m.Agents) > 0 && !containsFold(m.Agents, q.Agent) {
			continue
		}
		byAgent++
		if !q.Manual && !m.AutoSuggest {
			continue
		}
		byTier++
		pool = append(pool, m)
	}
	switch {
	case byPhase == 0:
		return nil, "No methods match phase " + q.Phase
	case byAgent == 0:
		return nil, fmt.Sprintf("No methods match phase %s for agent %s", q.Phase, q.Agent)
	case byTier == 0:
		return nil, fmt.Sprintf("No tier-1 methods match phase %s (manual mode adds tier 2)", q.Phase)
	}
	return pool, ""
}

// score scores every method with a positive score: overlap/len(topics) plus
// 3/10 when the method's name appears in the title as whole words.
func score(pool []Method, keywords, title []string) []Candidate {
	kw := make(map[string]bool, len(keywords))
	for _, k := range keywords {
		kw[k] = true
	}
	out := make([]Candidate, 0, len(pool))
	for _, m := range pool {
		keys, name := m.keys, m.nameWords
		if keys == nil { // built by hand, not parsed
			m.index()
			keys, name = m.keys, m.nameWords
		}
		overlap := 0
		for _, t := range keys {
			if matches(t, kw) {
				overlap++
			}
		}
		num, den := overlap*10, len(keys)*10
		if containsRun(title, name) {
			num += 3 * len(keys)
		}
		if num > 0 {
			out = append(out, Candidate{Method: m, Score: float64(num) / float64(den), num: num, den: den})
		}
	}
	return out
}

// top sorts by score, highest first, ties by num, and keeps the first n.
func top(c []Candidate, n int) []Candidate {
	slices.SortFunc(c, func(a, b Candidate) int {
		if d := b.num*a.den - a.num*b.den; d != 0 {
			return d
		}
		return a.Method.Num - b.Method.Num
	})
	return c[:min(n, len(c))]
}

// containsRun reports whether run occurs in s as consecutive elements.
func containsRun(s, run []string) bool {
	if len(run) == 0 {
		return false
	}
	for i := 0; i+len(run) <= len(s); i++ {
		if slices.Equal(s[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

func containsFold(list []string, v string) bool {
	for _, x := range list {
		if strings.EqualFold(x, v) {
			return true
		}
	}
	return false
}
