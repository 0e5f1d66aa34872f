package deliberation

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/problem"
)

// checkUTF8 reports a text input at path that is not valid UTF-8 (text is
// never altered: encoding it as JSON would replace the bad bytes).
func checkUTF8(p *problem.List, path, text string) {
	if !utf8.ValidString(text) {
		p.Add(path, "is not valid UTF-8 (first bad byte at offset %d); want UTF-8 text", jsonnode.FirstInvalidUTF8([]byte(text)))
	}
}

// validateEvaluation checks ev against the state and reports every
// problem, in document order, with its path.
func (s *State) validateEvaluation(ev *Evaluation) error {
	var p problem.List
	if ev.Iteration != s.Iteration {
		p.Add("iteration", "is %d, want %d (the iteration being evaluated)", ev.Iteration, s.Iteration)
	}
	if ev.Response != ResponseDegraded && len(ev.Degraded) > 0 {
		p.Add("degraded", "is given only with the response degraded_context")
	}
	switch ev.Response {
	case ResponseValid:
	case ResponseFormatFailure, ResponseQualityFailure, ResponseDegraded:
		if ev.carries() {
			p.Add("response", "is %s: an unusable response carries no points, challenges, facts or checks", ev.Response)
		}
		if ev.Response == ResponseDegraded {
			validateDegraded(ev.Degraded, &p)
		}
		return p.Err()
	default:
		p.Add("response", "is %q, want valid, format_failure, quality_failure or degraded_context", ev.Response)
		if !ev.carries() {
			return p.Err()
		}
		// It carries what a valid response does: that is checked too, so
		// that every problem shows in one pass.
	}
	if ev.Trivial != "" && s.Iteration > 2 {
		p.Add("trivial", "an early exit (trivial) is only possible by iteration 2 (this is %d)", s.Iteration)
	}
	s.validateRound(ev, &p)
	s.validateFacts(ev.Facts, &p)
	s.incoming = s.incomingFacts(ev.Facts)
	s.closing = s.closedByPoints(ev.Points)
	defer func() { s.incoming, s.closing = nil, nil }()
	s.validatePoints(ev.Points, &p)
	s.validateChallengeEvals(ev.Challenges, &p)
	s.validateChecks(ev, &p)
	for i, q := range ev.SurfacedQuestions {
		if strings.TrimSpace(q) == "" {
			p.Add(fmt.Sprintf("surfaced_questions[%d]", i), "is empty")
		}
	}
	return p.Err()
}

// carries reports whether ev judges any content: points, challenges,
// facts or checks.
func (ev *Evaluation) carries() bool {
	return len(ev.Points)+len(ev.Challenges)+len(ev.Facts) > 0 || ev.Coverage != nil || ev.StressTest != nil || ev.Arbitration != nil
}

// validateDegraded: a degraded context names at least one of its signals.
func validateDegraded(signals []string, p *problem.List) {
	if len(signals) == 0 {
		p.Add("degraded", "is required with degraded_context: one or more of ignores_challenges, asks_settled, reverses_positions")
	}
	for i, sig := range signals {
		switch sig {
		case DegradedIgnoresChallenges, DegradedAsksSettled, DegradedReversesPositions:
		default:
			p.Add(fmt.Sprintf("degraded[%d]", i), "is %q, want ignores_challenges, asks_settled or reverses_positions", sig)
		}
	}
}

// validateRound: what an answer may carry depends on the prompt it
// answers. A clarification carries only clarifications; a stress test or
// an arbitration only its judgment.
func (s *State) validateRound(ev *Evaluation, p *problem.List) {
	switch s.pending() {
	case ActionClarify:
		for i, pt := range ev.Points {
			if pt.Clarifies == "" {
				p.Add(fmt.Sprintf("points[%d].clarifies", i), "is required: a clarification reply only sharpens the pending points (%s)", strings.Join(s.Pending, ", "))
			}
		}
	case ActionStress, ActionArbitrate:
		if len(ev.Points)+len(ev.Challenges) > 0 {
			p.Add("points", "the answer to the %s prompt carries only its judgment, no points or challenges", s.pending())
		}
	}
}

func (s *State) validateFacts(facts []FactEval, p *problem.List) {
	if len(facts) > 0 && s.quick() {
		p.Add("facts", "quick mode keeps no ledger")
		return
	}
	for i, f := range facts {
		path := fmt.Sprintf("facts[%d]", i)
		switch f.Tag {
		case tagUser, tagUnverified, tagRevision:
		case tagVerified:
			if strings.TrimSpace(f.Ref) == "" {
				p.Add(path+".ref", "is required for a verified fact (the file:line, test or spec it was verified against)")
			}
		default:
			p.Add(path+".tag", "is %q, want user, verified, codex-unverified or revision", f.Tag)
		}
		if strings.TrimSpace(f.Text) == "" {
			p.Add(path+".text", "is empty")
		}
		if f.Supersedes != "" {
			s.validateSupersede(path+".supersedes", f, facts[:i], p)
		}
	}
	s.validateUserBudget(facts, p)
}

// validateUserBudget: the user entries must fit the ledger budget, or the
// constraints are incomplete.
func (s *State) validateUserBudget(facts []FactEval, p *problem.List) {
	if s.LedgerBudget <= 0 {
		return
	}
	var texts []string
	for _, f := range s.activeFacts() {
		if f.kind() == tagUser {
			texts = append(texts, f.Text)
		}
	}
	added := false
	for _, f := range facts {
		if f.Tag == tagUser {
			texts, added = append(texts, f.Text), true
		}
	}
	if n := userFactsSize(texts); added && n > s.LedgerBudget {
		p.Add("facts", "the user facts would need %d characters, over the ledger budget of %d: %s", n, s.LedgerBudget, overCapacity)
	}
}

// validateSupersede checks what f supersedes: an entry of the ledger, or
// one of the earlier facts of the same evaluation.
func (s *State) validateSupersede(path string, f FactEval, earlier []FactEval, p *problem.List) {
	old, ok := s.fact(f.Supersedes)
	var k int
	if _, err := fmt.Sscanf(f.Supersedes, "F%d", &k); err == nil && fmt.Sprintf("F%d", k) == f.Supersedes {
		if j := k - s.ledger().max - 1; j >= 0 && j < len(earlier) {
			old, ok = fact{ID: f.Supersedes, Tag: earlier[j].Tag}, true
		}
	}
	switch {
	case !ok:
		p.Add(path, "%q is not in the ledger (nor an earlier fact of this evaluation)", f.Supersedes)
	case f.Tag == tagUnverified && (old.kind() == tagUser || old.kind() == tagVerified):
		p.Add(path, "a codex-unverified fact cannot supersede a %s fact (%s)", old.kind(), f.Supersedes)
	case old.kind() == tagUser && f.Tag != tagUser:
		p.Add(path, "only the user can supersede a user fact (%s)", f.Supersedes)
	}
}

func (s *State) validatePoints(points []PointEval, p *problem.List) {
	s.validateThemes(points, p)
	validateGroups(points, p)
	seen := map[string]bool{}
	for i, pt := range points {
		path := fmt.Sprintf("points[%d]", i)
		if strings.TrimSpace(pt.Text) == "" {
			p.Add(path+".text", "is empty")
		}
		switch pt.Triage {
		case "in-scope", "out-of-scope", "anchor-shift":
		default:
			p.Add(path+".triage", "is %q, want in-scope, out-of-scope or anchor-shift", pt.Triage)
		}
		if pt.Kind != "" && pt.Kind != "argument" && pt.Kind != "evidence" {
			p.Add(path+".kind", "is %q, want argument or evidence", pt.Kind)
		}
		switch pt.Drift {
		case "", DriftSignal:
		case DriftTangent:
			if pt.Triage != "out-of-scope" {
				p.Add(path+".drift", "tangent marks a point out of scope: triage must be out-of-scope (not %q); use drift for an in-scope point that shows a drift signal", pt.Triage)
			}
		default:
			p.Add(path+".drift", "is %q, want tangent or drift", pt.Drift)
		}
		if pt.Blocked != nil && pt.Classification != ClassBlocked {
			what := pt.Classification
			if what == "" {
				what = `""`
			}
			p.Add(path+".blocked", "is given only with the classification BLOCKED (this point is %s)", what)
		}
		s.validateTarget(path, pt, seen, p)
		if route, _ := s.route(pt); route == routeEvaluate {
			s.validateClassification(path, pt, p)
		}
	}
}

// validateTarget checks clarifies and revises.
func (s *State) validateTarget(path string, pt PointEval, seen map[string]bool, p *problem.List) {
	switch {
	case pt.Clarifies != "" && pt.Revises != "":
		p.Add(path, "clarifies and revises are exclusive")
	case pt.Clarifies != "":
		if !slices.Contains(s.Pending, pt.Clarifies) {
			p.Add(path+".clarifies", "%q is not awaiting clarification", pt.Clarifies)
		}
	case pt.Revises != "":
		if !s.revisable(pt.Revises) {
			p.Add(path+".revises", "%q is not a disputed, pending or unresolved point", pt.Revises)
		}
	}
	s.validateDecisive(path, pt, p)
	mine := map[string]bool{}
	for _, id := range []string{pt.Clarifies, pt.Revises, pt.Confirms, pt.Refutes} {
		if id == "" || mine[id] {
			continue
		}
		if seen[id] {
			p.Add(path, "%s is targeted twice", id)
		}
		seen[id], mine[id] = true, true
	}
}

// validateDecisive: only decisive evidence, itself agreed on execution or
// textual evidence, confirms or refutes a point, one or the other, and
// only a point with a verdict or a dispute that the evidence would move
// (confirms: not already Agreed; refutes: not already Dismissed).
func (s *State) validateDecisive(path string, pt PointEval, p *problem.List) {
	key, target := "confirms", pt.Confirms
	if pt.Refutes != "" {
		key, target = "refutes", pt.Refutes
	}
	switch {
	case target == "":
		return
	case pt.Confirms != "" && pt.Refutes != "":
		p.Add(path+".refutes", "confirms and refutes are exclusive: the evidence either matches the exact predicate of %s (confirms) or contradicts it (refutes)", pt.Confirms)
		return
	}
	var missing []string
	if pt.Kind != "evidence" {
		missing = append(missing, "kind evidence")
	}
	if !pt.Decisive {
		missing = append(missing, "decisive true")
	}
	if pt.Classification != ClassAgree {
		missing = append(missing, "classification AGREE")
	}
	if pt.EvidenceType != "execution" && pt.EvidenceType != "textual" {
		missing = append(missing, "evidence_type execution or textual")
	}
	if len(missing) > 0 {
		p.Add(path+"."+key, "only decisive evidence %s a point: this one needs %s (if you must explain why the evidence matters, it is not decisive: leave %s out)", key, strings.Join(missing, ", "), key)
	} else if route, _ := s.route(pt); route != routeEvaluate {
		p.Add(path+"."+key, "applies to evidence that is evaluated (triage in-scope), not to a point routed %s", route)
	}
	at := s.placements()[target]
	switch {
	case len(at) != 1 || strings.HasPrefix(at[0], "not_evaluated") || strings.HasPrefix(at[0], "pending"):
		p.Add(path+"."+key, "%q is not an agreed, dismissed, unresolved or disputed point", target)
	case key == "confirms" && strings.HasPrefix(at[0], "buckets.agreed"):
		p.Add(path+".confirms", "%s is already Agreed: confirms moves a point into Agreed (leave it out, or name the point the evidence bears on)", target)
	case key == "refutes" && strings.HasPrefix(at[0], "buckets.dismissed"):
		p.Add(path+".refutes", "%s is already Dismissed: refutes moves a point into Dismissed (leave it out, or name the point the evidence bears on)", target)
	}
}

func (s *State) revisable(id string) bool {
	if slices.Contains(s.Pending, id) || slices.ContainsFunc(s.Buckets.Unresolved, func(u Unresolved) bool { return u.ID == id }) {
		return true
	}
	return slices.ContainsFunc(s.Disputed, func(c string) bool { return slices.Contains(s.Challenges[c].bound(), id) })
}

// validateGroups: a group joins two or more SKEPTICAL points with one flaw.
func validateGroups(points []PointEval, p *problem.List) {
	members, flaw := map[string]int{}, map[string]string{}
	for i, pt := range points {
		if pt.Group == "" {
			continue
		}
		path := fmt.Sprintf("points[%d].group", i)
		members[pt.Group]++
		if pt.Classification != ClassSkeptical || pt.Ungrounded {
			p.Add(path, "groups SKEPTICAL points only (one challenge, one flaw)")
		}
		if f, ok := flaw[pt.Group]; ok && f != pt.Flaw {
			p.Add(path, "the points of group %q must share one flaw (%q, not %q)", pt.Group, f, pt.Flaw)
		}
		flaw[pt.Group] = pt.Flaw
	}
	for i, pt := range points {
		if pt.Group != "" && members[pt.Group] == 1 {
			p.Add(fmt.Sprintf("points[%d].group", i), "group %q has one point; a group binds two or more", pt.Group)
		}
	}
}

// validateThemes enforces the >7 points rule: themes (at most 5) on every
// in-scope point, blocking themes deliberated first, overflow only then.
func (s *State) validateThemes(points []PointEval, p *problem.List) {
	inScope := 0
	for _, pt := range points {
		if pt.Triage == "in-scope" {
			inScope++
		}
	}
	themes, blocking := map[string]bool{}, map[string]bool{}
	for i, pt := range points {
		path := fmt.Sprintf("points[%d]", i)
		if inScope <= maxPlainPoints {
			if pt.Overflow {
				p.Add(path+".overflow", "overflow applies only with more than %d in-scope points (there are %d)", maxPlainPoints, inScope)
			}
			continue
		}
		if pt.Triage == "in-scope" && pt.Theme == "" {
			p.Add(path+".theme", "is required: %d in-scope points (more than %d) are grouped into themes", inScope, maxPlainPoints)
		}
		if pt.Theme != "" {
			themes[pt.Theme] = true
			blocking[pt.Theme] = blocking[pt.Theme] || pt.Blocking
		}
	}
	if len(themes) > maxThemes {
		p.Add("points", "%d themes, want at most %d", len(themes), maxThemes)
	}
	s.validateOverflow(points, blocking, p)
}

func (s *State) validateOverflow(points []PointEval, blocking map[string]bool, p *problem.List) {
	deliberatedPlain := false
	for _, pt := range points {
		if !pt.Overflow && pt.Theme != "" && !blocking[pt.Theme] {
			deliberatedPlain = true
		}
	}
	for i, pt := range points {
		path := fmt.Sprintf("points[%d]", i)
		if !pt.Overflow {
			continue
		}
		if pt.Classification != "" {
			p.Add(path+".classification", "an overflow point is not deliberated, so not classified (never AGREE)")
		}
		if blocking[pt.Theme] && deliberatedPlain {
			p.Add(path+".overflow", "theme %q is blocking: blocking themes are deliberated first", pt.Theme)
		}
	}
}

// validateClassification enforces the classification gates.
func (s *State) validateClassification(path string, pt PointEval, p *problem.List) {
	if pt.ClaimType != "" && pt.ClaimType != "empirical" && pt.ClaimType != "value" {
		p.Add(path+".claim_type", "is %q, want empirical or value", pt.ClaimType)
	}
	switch pt.Classification {
	case ClassAgree:
		s.validateAgree(path, pt, p)
	case ClassSkeptical:
		if pt.Ungrounded {
			if pt.ClaimType != "value" {
				p.Add(path+".ungrounded", "applies to a value claim (claim_type value), not %q", pt.ClaimType)
			}
			break
		}
		requireFlaw(path, pt.Classification, pt.Flaw, p)
	case ClassReject:
		requireFlaw(path, pt.Classification, pt.Flaw, p)
		if pt.ClaimType == "" {
			requireClaimType(path, pt.ClaimType, p)
		}
		if strings.TrimSpace(pt.Evidence) == "" {
			p.Add(path+".evidence", "is required for REJECT (execution, textual or reasoning supporting the rejection)")
		}
		if strings.TrimSpace(pt.WhyTerminal) == "" {
			p.Add(path+".why_terminal", "is required for REJECT (why SKEPTICAL is insufficient)")
		}
	case ClassIllFormed:
		if s.quick() {
			p.Add(path+".classification", "quick mode has no clarification round: use SKEPTICAL or BLOCKED")
		}
		requireIllFormedFlaw(path, pt, p)
		if strings.TrimSpace(pt.Clarify) == "" {
			p.Add(path+".clarify", "is required for ILL-FORMED (the question that would make the point evaluable)")
		}
	case ClassBlocked:
		validateBlocked(path+".blocked", pt.Blocked, p)
	case "":
		p.Add(path+".classification", "is required for an evaluated point (AGREE, SKEPTICAL, REJECT, ILL-FORMED or BLOCKED)")
	default:
		p.Add(path+".classification", "is %q, want AGREE, SKEPTICAL, REJECT, ILL-FORMED or BLOCKED", pt.Classification)
	}
	if pt.Ungrounded && pt.Classification != ClassSkeptical {
		p.Add(path+".ungrounded", "applies only with SKEPTICAL (the one reframing challenge)")
	}
	validateDependency(path+".dependency", pt.Dependency, p)
}

// requireIllFormedFlaw: an ILL-FORMED point says why it is unevaluable in
// one sentence, which the consultee is told (the seed: "generic 'this is
// unclear' is insufficient").
func requireIllFormedFlaw(path string, pt PointEval, p *problem.List) {
	const why = "why the point is unevaluable, in one sentence: a missing referent, an undefined comparison, an incoherent structure; the consultee is told it"
	flaw := strings.ToLower(strings.TrimRight(strings.TrimSpace(pt.Flaw), "."))
	switch flaw {
	case "":
		p.Add(path+".flaw", "is required for ILL-FORMED %q: say %s", cutRunes(clause(pt.Text), 60), why)
	case "unclear", "this is unclear", "it is unclear", "ambiguous", "vague", "unevaluable", "unevaluable as stated", "ill-formed", "none", "n/a":
		p.Add(path+".flaw", "%q is generic for ILL-FORMED %q: say %s", pt.Flaw, cutRunes(clause(pt.Text), 60), why)
	}
}

func requireFlaw(path, class, flaw string, p *problem.List) {
	switch strings.ToLower(strings.TrimSpace(flaw)) {
	case "":
		p.Add(path+".flaw", "is required for %s (the flaw in one sentence; if you cannot state one, use ILL-FORMED)", class)
	case "none", "n/a", "no flaw":
		p.Add(path+".flaw", "%q with %s is a contradiction: articulate the flaw or revise to AGREE", flaw, class)
	}
}

func requireClaimType(path, t string, p *problem.List) {
	if t != "empirical" && t != "value" {
		p.Add(path+".claim_type", "is %q, want empirical or value", t)
	}
}

func (s *State) validateAgree(path string, pt PointEval, p *problem.List) {
	if pt.ClaimType == "" {
		requireClaimType(path, pt.ClaimType, p)
	}
	if pt.ClaimType == "empirical" && pt.EvidenceType != "execution" && pt.EvidenceType != "textual" {
		p.Add(path+".evidence_type", "is %q: an empirical AGREE needs execution or textual evidence (otherwise BLOCKED)", pt.EvidenceType)
	}
	if pt.ClaimType == "value" && pt.EvidenceType != "" && pt.EvidenceType != "n/a" {
		p.Add(path+".evidence_type", "is %q: a value judgment takes n/a", pt.EvidenceType)
	}
	for j, id := range pt.ReliesOn {
		f, ok := s.fact(id)
		if tag, incoming := s.incoming[id]; incoming {
			f, ok = fact{ID: id, Tag: tag}, true
		}
		switch {
		case !ok:
			p.Add(fmt.Sprintf("%s.relies_on[%d]", path, j), "%q is not in the ledger", id)
		case f.kind() == tagUnverified:
			p.Add(fmt.Sprintf("%s.relies_on[%d]", path, j), "%s is codex-unverified: it cannot justify an AGREE (verify it first)", id)
		}
	}
}

func validateBlocked(path string, b *Blocked, p *problem.List) {
	if b == nil {
		p.Add(path, "is required: a blocked entry names the missing measurement, the threshold and the verdict delta")
		return
	}
	for _, f := range []struct{ name, v string }{{"measurement", b.Measurement}, {"threshold", b.Threshold}, {"verdict_delta", b.VerdictDelta}} {
		if strings.TrimSpace(f.v) == "" {
			p.Add(path+"."+f.name, "is required (Blocked = measurement + threshold + verdict delta)")
		}
	}
}

func validateDependency(path string, d *Dependency, p *problem.List) {
	if d == nil {
		return
	}
	switch d.Confidence {
	case "CERTAIN", "LIKELY":
		if strings.TrimSpace(d.Operation) == "" {
			p.Add(path+".operation", "is required for %s: state the granular operation that fails without it, or classify GUESS", d.Confidence)
		}
	case "GUESS":
	default:
		p.Add(path+".confidence", "is %q, want CERTAIN, LIKELY or GUESS", d.Confidence)
	}
	switch d.AlternativeConfidence {
	case "", "CERTAIN", "LIKELY", "GUESS":
	default:
		p.Add(path+".alternative_confidence", "is %q, want CERTAIN, LIKELY or GUESS", d.AlternativeConfidence)
	}
}

// incomingFacts are the IDs the evaluation's facts will get, with their
// tags, so its points may rely on them.
func (s *State) incomingFacts(facts []FactEval) map[string]string {
	n := s.ledger().max
	out := map[string]string{}
	for _, f := range facts {
		n++
		out[fmt.Sprintf("F%d", n)] = f.Tag
	}
	return out
}
