package deliberation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/elicit/elicit/problem"
)

func (s *State) validateChallengeEvals(evals []ChallengeEval, p *problem.List) {
	seen := map[string]bool{}
	handled := map[string]bool{}
	disputed := make(map[string]bool, len(s.Disputed))
	for _, id := range s.Disputed {
		disputed[id] = true
	}
	for i, ce := range evals {
		path := fmt.Sprintf("challenges[%d]", i)
		handled[ce.ID] = true
		c := s.Challenges[ce.ID]
		switch {
		case ce.ID == "":
			p.Add(path+".id", "is missing: the ID of the challenge judged (%s)", disputedNote(s.Disputed))
			knownOutcome(path, ce.Outcome, p)
			continue
		case c == nil:
			p.Add(path+".id", "%q is not a challenge of this deliberation", ce.ID)
			knownOutcome(path, ce.Outcome, p)
			continue
		case !disputed[ce.ID]:
			p.Add(path+".id", "%s is no longer disputed (status %s)", ce.ID, c.Status)
			knownOutcome(path, ce.Outcome, p)
			continue
		case seen[ce.ID]:
			p.Add(path+".id", "%s is judged twice", ce.ID)
		}
		seen[ce.ID] = true
		s.validateOutcome(path, c, ce, p)
		s.validateDeadlock(path, c, ce, p)
		s.validateClosing(path, c, ce, p)
	}
	s.requireDeadlocks(handled, p)
}

// disputedNote says which challenges are disputed.
func disputedNote(ids []string) string {
	switch len(ids) {
	case 0:
		return "none is disputed"
	case 1:
		return ids[0] + " is disputed"
	}
	return strings.Join(ids, ", ") + " are disputed"
}

// knownOutcome reports an outcome that is none of the outcomes.
func knownOutcome(path, outcome string, p *problem.List) bool {
	switch outcome {
	case OutcomeMissingID, OutcomeAccepted, OutcomeRejected, OutcomeRefuted, OutcomeConceded, OutcomePartial, OutcomeCorrected, OutcomeUpgraded, OutcomeEvaluating, OutcomeAdjudicated:
		return true
	}
	p.Add(path+".outcome", "is %q, want accepted, rejected, refuted, conceded, partial, corrected, upgraded, evaluating, missing_id or adjudicated", outcome)
	return false
}

func (s *State) referenced(id string) bool {
	if s.quick() {
		return true // quick mode tracks challenges by content
	}
	return slices.Contains(s.lastResponse().Refs, id)
}

func (s *State) validateOutcome(path string, c *Challenge, ce ChallengeEval, p *problem.List) {
	ref := s.referenced(ce.ID)
	if !knownOutcome(path, ce.Outcome, p) {
		return
	}
	if ce.Outcome == OutcomeMissingID {
		switch {
		case s.quick():
			p.Add(path+".outcome", "missing_id does not apply in quick mode, where challenges carry no IDs: judge the answer by content (accepted, rejected, conceded, ...), or leave %s out when the answer ignores it (it goes to the user as unresolved)", ce.ID)
		case ref:
			p.Add(path+".outcome", "missing_id, but the response references %s", ce.ID)
		}
		return
	}
	validClaimType(path, ce.ClaimType, p)
	s.validateGrouped(path, c, ce, p)
	if oneRound(c) && s.closing[ce.ID] == "" {
		switch ce.Outcome {
		case OutcomeEvaluating, OutcomePartial, OutcomeCorrected:
			p.Add(path+".outcome", "%s is a %s challenge with one defense round: judge it (accepted, upgraded, rejected, refuted or conceded)", ce.ID, c.Kind)
		}
	}
	if !ref && ce.Outcome != OutcomeRefuted {
		p.Add(path+".outcome", "%s is not referenced in the response: use missing_id (or leave it out: it counts as dropped)", ce.ID)
	}
	switch ce.Outcome {
	case OutcomeAccepted:
		s.validateAccepted(path, c, ce, p)
	case OutcomeRefuted:
		if strings.TrimSpace(ce.Evidence) == "" {
			p.Add(path+".evidence", "is required to refute: the orchestrator rejects with evidence")
		}
	case OutcomePartial:
		if strings.TrimSpace(ce.ConcededPart) == "" {
			p.Add(path+".conceded_part", "is required for a partial defense")
		}
		if strings.TrimSpace(ce.Narrowed) == "" {
			p.Add(path+".narrowed", "is required for a partial defense (the narrowed claim to confirm)")
		}
	case OutcomeCorrected:
		if !c.AwaitingConfirmation {
			p.Add(path+".outcome", "corrected applies only to a narrowed claim awaiting confirmation")
		}
		if strings.TrimSpace(ce.Narrowed) == "" {
			p.Add(path+".narrowed", "is required (the corrected claim)")
		}
	case OutcomeUpgraded:
		if c.Kind != KindReject {
			p.Add(path+".outcome", "upgraded applies only to a REJECT challenge")
		}
	}
}

// validateGrouped: a grouped challenge is judged as a whole or binding by
// binding (adjudicated), never narrowed.
func (s *State) validateGrouped(path string, c *Challenge, ce ChallengeEval, p *problem.List) {
	grouped := len(c.Bindings) > 0
	switch {
	case ce.Outcome == OutcomeAdjudicated && !grouped:
		p.Add(path+".outcome", "adjudicated applies only to a grouped challenge")
		return
	case grouped && (ce.Outcome == OutcomePartial || ce.Outcome == OutcomeCorrected):
		p.Add(path+".outcome", "%s is grouped: adjudicate each binding instead of narrowing", ce.ID)
	case ce.Outcome != OutcomeAdjudicated && len(ce.Bindings) > 0:
		p.Add(path+".bindings", "are given only with the outcome adjudicated")
	}
	if ce.Outcome != OutcomeAdjudicated {
		return
	}
	seen := map[string]bool{}
	for i, b := range ce.Bindings {
		bp := fmt.Sprintf("%s.bindings[%d]", path, i)
		switch {
		case !slices.Contains(c.Bindings, b.ID):
			p.Add(bp+".id", "%q is not a binding of %s (%s)", b.ID, ce.ID, strings.Join(c.Bindings, ", "))
		case seen[b.ID]:
			p.Add(bp+".id", "%s is judged twice", b.ID)
		}
		seen[b.ID] = true
		s.validateBinding(bp, b, p)
	}
	for _, id := range c.Bindings {
		if !seen[id] {
			p.Add(path+".bindings", "%s is not judged (every binding is adjudicated separately)", id)
		}
	}
}

func (s *State) validateBinding(path string, b BindingEval, p *problem.List) {
	validClaimType(path, b.ClaimType, p)
	switch b.Outcome {
	case BindingSustained:
	case BindingWithdrawn:
		switch b.EvidenceType {
		case "execution", "textual":
		case "n/a":
			s.gateOnNA(path, []string{b.ID}, b.ClaimType, "agreeing", p)
		default:
			p.Add(path+".evidence_type", "is %q, want execution, textual or n/a", b.EvidenceType)
		}
	default:
		p.Add(path+".outcome", "is %q, want sustained or withdrawn", b.Outcome)
	}
}

// validClaimType checks an optional claim_type.
func validClaimType(path, t string, p *problem.List) {
	if t != "" && t != "empirical" && t != "value" {
		p.Add(path+".claim_type", "is %q, want empirical or value", t)
	}
}

// gateOnNA is the empirical gate for agreeing on n/a (no execution or
// textual evidence): only a value claim may be agreed so. The claim type is
// the point's, or the one the judgment settles; unknown counts as not a
// value claim (When Uncertain: unclear evidence type → unverified).
func (s *State) gateOnNA(path string, ids []string, settled, verb string, p *problem.List) {
	for _, id := range ids {
		t := settled
		if pt := s.Points[id]; pt != nil && t == "" {
			t = pt.ClaimType
		}
		switch t {
		case "value":
		case "empirical":
			p.Add(path+".evidence_type", "the point is empirical: %s needs execution or textual evidence (otherwise a missing-data deadlock, Blocked)", verb)
			return
		case "":
			what := "the claim type of " + id
			if id == "" {
				what = "the claim type of the challenged point"
			}
			p.Add(path+".claim_type", "%s is unknown: %s on n/a needs claim_type value (a value judgment); an empirical claim needs execution or textual evidence", what, strings.TrimSuffix(verb, " it"))
			return
		default:
			return
		}
	}
}

func (s *State) validateAccepted(path string, c *Challenge, ce ChallengeEval, p *problem.List) {
	switch ce.EvidenceType {
	case "execution", "textual":
	case "n/a":
		s.gateOnNA(path, c.bound(), ce.ClaimType, "accepting it", p)
	default:
		p.Add(path+".evidence_type", "is %q, want execution, textual or n/a", ce.EvidenceType)
	}
}

func (s *State) validateDeadlock(path string, c *Challenge, ce ChallengeEval, p *problem.List) {
	if ce.Blocked != nil && ce.Deadlock != DeadlockMissingData {
		p.Add(path+".blocked", "is given only with the deadlock missing-data")
	}
	if by := s.closing[ce.ID]; by != "" {
		// The challenge closes with this evaluation: no round follows, so
		// no deadlock ruling applies (a definitional retry would never
		// be asked).
		if ce.Deadlock != "" {
			p.Add(path+".deadlock", "does not apply: %s closes with this evaluation (%s), so no further round follows; leave deadlock out", ce.ID, by)
		}
		return
	}
	if ce.Deadlock == "" {
		if stays(ce.Outcome) && !s.quick() && s.rounds(c) >= deadlockRounds {
			p.Add(path+".deadlock", "is required: %s has been open %d rounds (missing-data, definitional, criteria or terms-unclear)", ce.ID, s.rounds(c))
		}
		return
	}
	if !stays(ce.Outcome) || s.rounds(c) < deadlockRounds {
		p.Add(path+".deadlock", "applies only to a challenge still disputed after %d rounds (%s: %d)", deadlockRounds, ce.ID, s.rounds(c))
		return
	}
	switch ce.Deadlock {
	case DeadlockMissingData:
		validateBlocked(path+".blocked", ce.Blocked, p)
	case DeadlockDefinitional:
		if c.DefinitionalRetry {
			p.Add(path+".deadlock", "the one definitional retry of %s was used: criteria (terms clear) or terms-unclear", ce.ID)
		}
	case DeadlockCriteria:
		if strings.TrimSpace(ce.Crux) == "" {
			p.Add(path+".crux", "is required for a criteria deadlock (the tradeoff to present)")
		}
	case DeadlockTermsUnclear:
		if !c.DefinitionalRetry {
			p.Add(path+".deadlock", "terms-unclear follows a definitional retry; classify definitional first")
		}
	default:
		p.Add(path+".deadlock", "is %q, want missing-data, definitional, criteria or terms-unclear", ce.Deadlock)
	}
}

// validateClosing: a challenge this evaluation's points close (its point
// revised in place, confirmed or refuted) is judged at most as still
// disputed (evaluating, or rejected for a SKEPTICAL one): an outcome that
// moves its point too would contradict the move.
func (s *State) validateClosing(path string, c *Challenge, ce ChallengeEval, p *problem.List) {
	by := s.closing[ce.ID]
	if by == "" || ce.Outcome == OutcomeEvaluating || ce.Outcome == OutcomeRejected && !oneRound(c) || !knownOutcome(path, ce.Outcome, &problem.List{}) {
		return
	}
	p.Add(path+".outcome", "is %s, but %s closes with this evaluation (%s moves its point): judge it evaluating, or leave it out", ce.Outcome, ce.ID, by)
}

// closedByPoints are the disputed challenges the points of an evaluation
// close, each with the path of the point that closes it: every point the
// challenge binds is revised in its place (up to iteration 2, or the same
// core claim) or confirmed or refuted by decisive evidence. The path names
// the key that closes it (points[0].revises).
func (s *State) closedByPoints(points []PointEval) map[string]string {
	moved := map[string]string{}
	for i, pt := range points {
		path := fmt.Sprintf("points[%d]", i)
		if pt.Revises != "" && pt.Clarifies == "" && s.sameClaimRevision(pt) {
			moved[pt.Revises] = path + ".revises"
		}
		if route, _ := s.route(pt); route == routeEvaluate {
			if pt.Confirms != "" {
				moved[pt.Confirms] = path + ".confirms"
			}
			if pt.Refutes != "" {
				moved[pt.Refutes] = path + ".refutes"
			}
		}
	}
	if len(moved) == 0 {
		return nil
	}
	closed := map[string]string{}
	for _, id := range s.Disputed {
		bound := s.Challenges[id].bound()
		if slices.ContainsFunc(bound, func(pid string) bool { return moved[pid] == "" }) {
			continue
		}
		closed[id] = moved[bound[0]]
	}
	return closed
}

// oneRound: REJECT and UNGROUNDED challenges get one defense round.
func oneRound(c *Challenge) bool { return c.Kind == KindReject || c.Kind == KindUngrounded }

// requireDeadlocks: a referenced challenge must be judged when its one
// defense round is this answer (REJECT, UNGROUNDED) or when it has been
// disputed deadlockRounds rounds (with a deadlock classification).
func (s *State) requireDeadlocks(handled map[string]bool, p *problem.List) {
	if s.quick() || s.pending() == ActionClarify {
		return
	}
	for _, id := range s.Disputed {
		c := s.Challenges[id]
		switch {
		case handled[id] || !s.referenced(id) || c.RaisedIter >= s.Iteration || s.closing[id] != "":
		case oneRound(c):
			p.Add("challenges", "%s is a %s challenge and the answer defends it: judge its one defense round", id, c.Kind)
		case s.rounds(c) >= deadlockRounds:
			p.Add("challenges", "%s has been open %d rounds: judge it with a deadlock classification", id, s.rounds(c))
		}
	}
}

// validateChecks: the coverage, stress-test and arbitration judgments come
// exactly with the answers to those prompts.
func (s *State) validateChecks(ev *Evaluation, p *problem.List) {
	action := s.pending()
	checks := []struct {
		name  string
		given bool
		want  string
	}{
		{"coverage", ev.Coverage != nil, ActionCoverage},
		{"stress_test", ev.StressTest != nil, ActionStress},
		{"arbitration", ev.Arbitration != nil, ActionArbitrate},
	}
	for _, c := range checks {
		switch {
		case c.given && action != c.want:
			p.Add(c.name, "is only given with the answer to the %s prompt (the pending action is %s)", c.want, action)
		case !c.given && action == c.want:
			p.Add(c.name, "is required: the response answers the %s prompt", c.want)
		}
	}
	if ev.Coverage != nil && action == ActionCoverage && len(ev.Points) == 0 && s.qualifyingCoverage(ev.Coverage) {
		p.Add("points", "the coverage answer cites NEW evidence (%s) that passes the ATTACK test: give the gap as points (they enter the deliberation), or set attack false", strings.Join(s.newArtifacts(ev.Coverage.Artifacts), ", "))
	}
	if ev.StressTest != nil {
		s.validateStress(ev.StressTest, p)
	}
	if ev.Arbitration != nil {
		s.validateArbitration(ev.Arbitration, p)
	}
}

func (s *State) validateStress(se *StressEval, p *problem.List) {
	if strings.TrimSpace(se.Objection) == "" {
		p.Add("stress_test.objection", "is empty")
	}
	switch se.Classification {
	case "fatal", "unresolved", "inconclusive":
	case "mitigable":
		if strings.TrimSpace(se.Mitigation) == "" {
			p.Add("stress_test.mitigation", "is required for mitigable (the orchestrator confirms with mitigation text)")
		}
	case "refuted":
		if strings.TrimSpace(se.Evidence) == "" {
			p.Add("stress_test.evidence", "is required for refuted (the orchestrator cites evidence)")
		}
	default:
		p.Add("stress_test.classification", "is %q, want fatal, unresolved, mitigable, refuted or inconclusive", se.Classification)
	}
	for i, id := range se.Impact {
		if !slices.ContainsFunc(s.Buckets.Agreed, func(a Agreed) bool { return a.ID == id }) {
			p.Add(fmt.Sprintf("stress_test.impact[%d]", i), "%q is not an Agreed point", id)
		}
	}
}

func (s *State) validateArbitration(ae *ArbitrationEval, p *problem.List) {
	at := s.placements()
	seen := map[string]bool{}
	for i, c := range ae.Flagged {
		path := fmt.Sprintf("arbitration.flagged[%d]", i)
		if len(at[c.ID]) == 0 || strings.HasPrefix(at[c.ID][0], "not_evaluated") {
			p.Add(path+".id", "%q is not an evaluated point", c.ID)
		}
		if seen[c.ID] {
			p.Add(path+".id", "%s is flagged twice", c.ID)
		}
		seen[c.ID] = true
		if strings.TrimSpace(c.Reason) == "" {
			p.Add(path+".reason", "is empty")
		}
	}
}
