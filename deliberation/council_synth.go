package deliberation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/elicit/elicit/problem"
)

// The confidence of a point across a council. Seed 000's "Cross-model
// consensus — high confidence" is given only when every consultee agreed
// and the orchestrator agreed the point on execution or textual evidence;
// agreement without that evidence stays weak (seed 002, Rule 0:
// "LLM-to-LLM agreement is weak evidence (correlated training)").
const (
	ConfidenceConsensus = "cross-model consensus — high confidence"
	ConfidenceWeak      = "every consultee agreed, without evidence — weak"
	ConfidenceSplit     = "consultees disagree"
	ConfidencePartial   = "not every consultee agreed"
)

// CouncilSynthesis is a council's synthesis: the top-line answer, the
// consultees and what became of each, agreement measured point by point,
// and each finished consultee's own synthesis.
type CouncilSynthesis struct {
	Answer     string           `json:"answer"`
	Question   string           `json:"question"`
	Consultees []MemberView     `json:"consultees"`
	Agreement  []AgreementEntry `json:"agreement"`
	// Review is the cross-review's status (done, or empty when none was
	// asked for) and the reviewers that failed.
	Review         string            `json:"review,omitempty"`
	ReviewFailures map[string]string `json:"review_failures,omitempty"`
	// Syntheses are the finished consultees' syntheses, by name.
	Syntheses map[string]*Synthesis `json:"syntheses"`
}

// AgreementEntry is one point across the council: the points that make
// it (several when consultees made it independently), who agreed,
// disagreed or was silent, where the orchestrator put it, on what
// evidence, and the confidence that follows.
type AgreementEntry struct {
	Point     string   `json:"point"`
	Sources   []string `json:"sources"`
	Agreed    []string `json:"agreed"`
	Disagreed []string `json:"disagreed"`
	Silent    []string `json:"silent"`
	// Outcome is the sources' bucket (agreed, dismissed, unresolved,
	// disputed), or mixed.
	Outcome  string   `json:"outcome"`
	Evidence []string `json:"evidence"`
	// Challenges are the cross-review's challenges of the point: who, the
	// flaw, its evidence type.
	Challenges []string `json:"challenges,omitempty"`
	Confidence string   `json:"confidence"`
}

// SynthesizeCouncil is the council's synthesis, opening with answer. It
// is permitted once every consultee finished (with a synthesis its own
// state permits) or failed, at least one finished, and the cross-review,
// when asked for, is done.
func (st *Store) SynthesizeCouncil(id, answer string) (*CouncilSynthesis, error) {
	if st.sh != nil {
		return sharedCouncil(st, id, true, func(v *Store) (*CouncilSynthesis, error) { return v.SynthesizeCouncil(id, answer) })
	}
	c, states, err := st.councilStates(id)
	if err != nil {
		return nil, err
	}
	step := c.step(states)
	if step.Action != CouncilSynthesize {
		return nil, problem.List{{Path: "id", Message: fmt.Sprintf("council %s does not permit Synthesize yet: next is %s (%s)", id, step.Action, orDefault(step.Reason, "a consultee is still deliberating"))}}
	}
	y := &CouncilSynthesis{Question: states[0].questionText(), Consultees: step.Consultees, Syntheses: map[string]*Synthesis{}}
	if c.Review != nil {
		y.Review, y.ReviewFailures = c.Review.Status, c.Review.Failures
	}
	var probs problem.List
	seen := map[string]bool{}
	for i, m := range c.Members {
		if m.Failure != nil || states[i].Status != StatusFinished {
			continue
		}
		ms, err := synthesize(states[i], answer)
		if err != nil {
			for _, p := range problemsOf(err) {
				if !seen[p.Path+p.Message] {
					seen[p.Path+p.Message] = true
					probs = append(probs, p)
				}
			}
			continue
		}
		y.Syntheses[m.Name] = ms
		if y.Answer == "" {
			y.Answer = ms.Answer
		}
	}
	if err := probs.Err(); err != nil {
		return nil, err
	}
	y.Agreement = c.agreement(states)
	return y, nil
}

// agreement measures, point by point, who of the council agreed: each
// point in a place is an entry of its own, unless the council merged it
// with others (merges chain: A:P1 = B:P2 and B:P2 = C:P1 are one entry).
func (c *Council) agreement(states []*State) []AgreementEntry {
	find := c.merged()
	where := map[string]placed{}
	var roots []string
	members := map[string][]string{}
	for i, m := range c.Members {
		for _, p := range places(states[i]) {
			ref := pointRef(m.Name, p.id)
			where[ref] = p
			root := find(ref)
			if _, ok := members[root]; !ok {
				roots = append(roots, root)
			}
			members[root] = append(members[root], ref)
		}
	}
	out := []AgreementEntry{}
	for _, root := range roots {
		out = append(out, c.entry(members[root], where))
	}
	return out
}

// merged returns the function naming a point's group: two points made
// independently (Same) have one root.
func (c *Council) merged() func(string) string {
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		p, ok := parent[x]
		if !ok || p == x {
			return x
		}
		root := find(p)
		parent[x] = root
		return root
	}
	for _, g := range c.Same {
		if len(g) < 2 {
			continue // a hand-edited file: nothing to merge
		}
		for _, ref := range g[1:] {
			if a, b := find(g[0]), find(ref); a != b {
				parent[b] = a
			}
		}
	}
	return find
}

// conceded tags: the consultee gave up its own point.
var concededTags = []string{"CONCEDED", "PARTIAL-CONCEDE"}

func (c *Council) entry(group []string, where map[string]placed) AgreementEntry {
	e := AgreementEntry{Sources: []string{}, Agreed: []string{}, Disagreed: []string{}, Silent: []string{}, Evidence: []string{}}
	by := map[string]string{} // member -> its source point
	outcomes := map[string]bool{}
	for _, ref := range group {
		p, ok := where[ref]
		if !ok {
			continue // merged, then moved out of every place (not evaluated)
		}
		member, _, _ := splitRef(ref)
		e.Sources = append(e.Sources, ref)
		by[member] = ref
		if e.Point == "" {
			e.Point = p.text
		}
		outcomes[p.bucket] = true
		if p.bucket == placeAgreed && p.evidence != "" && !slices.Contains(e.Evidence, p.evidence) {
			e.Evidence = append(e.Evidence, p.evidence)
		}
	}
	var review []ReviewVerdict
	if c.Review != nil {
		for _, v := range c.Review.Verdicts {
			if slices.Contains(e.Sources, v.Point) {
				review = append(review, v)
			}
		}
	}
	for _, m := range c.Members {
		switch ref, made := by[m.Name]; {
		case made && slices.ContainsFunc(concededTags, func(t string) bool { return strings.HasPrefix(where[ref].tag, t) }):
			e.Disagreed = append(e.Disagreed, m.Name)
		case made:
			e.Agreed = append(e.Agreed, m.Name)
		default:
			verdict := ""
			for _, v := range review {
				if v.By == m.Name {
					verdict = v.Verdict
					if v.Verdict == "challenge" {
						e.Challenges = append(e.Challenges, challengeNote(m.Name, v))
						break
					}
				}
			}
			switch verdict {
			case "agree":
				e.Agreed = append(e.Agreed, m.Name)
			case "challenge":
				e.Disagreed = append(e.Disagreed, m.Name)
			default:
				e.Silent = append(e.Silent, m.Name)
			}
		}
	}
	e.Outcome = "mixed"
	if len(outcomes) == 1 {
		for o := range outcomes {
			e.Outcome = o
		}
	}
	evidenced := e.Outcome == placeAgreed && (slices.Contains(e.Evidence, "execution") || slices.Contains(e.Evidence, "textual"))
	switch {
	case len(e.Disagreed) > 0:
		e.Confidence = ConfidenceSplit
	case len(e.Agreed) == len(c.Members) && evidenced:
		e.Confidence = ConfidenceConsensus
	case len(e.Agreed) == len(c.Members):
		e.Confidence = ConfidenceWeak
	default:
		e.Confidence = ConfidencePartial
	}
	return e
}

// Markdown is the council synthesis for the user: the answer, the
// consultees, the agreement table, then each consultee's synthesis.
func (y *CouncilSynthesis) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Answer:** %s\n\n> **Question:** %s\n>\n> **Council:** %d consultees", oneParagraph(y.Answer), oneParagraph(y.Question), len(y.Consultees))
	if y.Review != "" {
		fmt.Fprintf(&b, ", cross-review %s", y.Review)
	}
	b.WriteString("\n\n## CONSULTEES\n\n| Consultee | Consultant | Stance | Status | Iterations | Challenges | Undefended | Conceded | Missing-ID |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, m := range y.Consultees {
		status := m.Status
		switch {
		case m.Failure != nil:
			status = fmt.Sprintf("failed at iteration %d (%s: %s)", m.Failure.Iteration, m.Failure.Kind, m.Failure.Message)
		case m.ExitReason != "":
			status += " (" + m.ExitReason + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %d | %d | %d | %d |\n", m.Name, cell(m.Consultant), orDefault(m.Stance, "—"), cell(status),
			m.Iteration, m.Challenges.Issued, m.Challenges.Undefended, m.Challenges.Conceded, m.Challenges.MissingID)
	}
	for _, name := range sortedKeys(y.ReviewFailures) {
		fmt.Fprintf(&b, "\nCross-review by %s failed: %s\n", name, oneParagraph(y.ReviewFailures[name]))
	}
	fmt.Fprintf(&b, "\n## AGREEMENT (%d)\n\n", len(y.Agreement))
	if len(y.Agreement) == 0 {
		b.WriteString("— none —\n")
	} else {
		b.WriteString("| Sources | Point | Agreed | Disagreed | Silent | Outcome | Evidence | Confidence |\n|---|---|---|---|---|---|---|---|\n")
		for _, e := range y.Agreement {
			point := e.Point
			if len(e.Challenges) > 0 {
				point += " (challenged: " + strings.Join(e.Challenges, "; ") + ")"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", strings.Join(e.Sources, " = "), cell(point),
				dash(e.Agreed), dash(e.Disagreed), dash(e.Silent), e.Outcome, dash(e.Evidence), e.Confidence)
		}
	}
	for _, m := range y.Consultees {
		ms := y.Syntheses[m.Name]
		if ms == nil {
			continue
		}
		fmt.Fprintf(&b, "\n## CONSULTEE %s\n\n", m.Name)
		body := ms.Markdown()
		if _, rest, ok := strings.Cut(body, "\n\n"); ok && strings.HasPrefix(body, "**Answer:**") {
			body = rest // the council's answer opens the whole synthesis
		}
		b.WriteString(strings.ReplaceAll(body, "\n## ", "\n### "))
	}
	return b.String()
}

// challengeNote is a review's challenge as the agreement table shows it:
// who, the flaw, its evidence type, and the challenge it became.
func challengeNote(by string, v ReviewVerdict) string {
	note := fmt.Sprintf("%s: %s (%s", by, v.Flaw, v.EvidenceType)
	if v.Issued != "" {
		note += "; " + v.Issued + " in its ledger"
	}
	return note + ")"
}

func dash(names []string) string {
	if len(names) == 0 {
		return "—"
	}
	return strings.Join(names, ", ")
}
