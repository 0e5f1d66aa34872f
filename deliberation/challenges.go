package deliberation

import (
	"fmt"
	"slices"
)

// Challenge outcomes of an evaluation.
const (
	OutcomeAccepted   = "accepted"   // defense accepted: Agreed
	OutcomeRejected   = "rejected"   // defense rejected: push back (SKEPTICAL) or Dismissed (REJECT)
	OutcomeRefuted    = "refuted"    // orchestrator rejects with evidence: Dismissed REJECTED
	OutcomeConceded   = "conceded"   // explicit concession: Dismissed CONCEDED
	OutcomePartial    = "partial"    // part conceded, narrowed claim to confirm
	OutcomeCorrected  = "corrected"  // the narrowed claim was corrected (at most once)
	OutcomeUpgraded   = "upgraded"   // REJECT defense accepted as far as SKEPTICAL
	OutcomeEvaluating = "evaluating" // defended, still being evaluated
	OutcomeMissingID  = "missing_id" // content addressed without the ID
	// OutcomeAdjudicated judges each binding of a grouped challenge:
	// sustained → Dismissed, withdrawn → Agreed.
	OutcomeAdjudicated = "adjudicated"
)

// bound lists the points a challenge binds: the bindings of a grouped
// challenge, or its one point.
func (c *Challenge) bound() []string {
	if len(c.Bindings) > 0 {
		return c.Bindings
	}
	return []string{c.PointID}
}

// boundText is the text of a bound point (a challenge from the original
// skill has only its own text).
func (s *State) boundText(c *Challenge, id string) string {
	if len(c.Bindings) > 0 {
		return s.pointText(id)
	}
	return c.Point
}

func (s *State) dismissBound(c *Challenge, tag, reason string) {
	for _, id := range c.bound() {
		s.dismissText(id, s.boundText(c, id), tag, reason)
	}
}

func (s *State) unresolveBound(c *Challenge, crux, status string) {
	for _, id := range c.bound() {
		s.unresolve(id, s.boundText(c, id), crux, status)
	}
}

// Deadlock classifications.
const (
	DeadlockMissingData  = "missing-data"
	DeadlockDefinitional = "definitional"
	DeadlockCriteria     = "criteria"
	DeadlockTermsUnclear = "terms-unclear"
)

// stays reports whether an outcome leaves the challenge disputed, so a
// deadlock classification may apply.
func stays(outcome string) bool {
	return outcome == OutcomeRejected || outcome == OutcomeEvaluating
}

// rounds is the number of defense rounds a challenge has been open.
func (s *State) rounds(c *Challenge) int { return s.Iteration - c.RaisedIter }

// applyChallenge applies the judgment of one defense.
func (s *State) applyChallenge(ce ChallengeEval) {
	c := s.Challenges[ce.ID]
	c.AwaitingID = false
	switch ce.Outcome {
	case OutcomeAccepted:
		s.accept(ce)
	case OutcomeRejected:
		if c.Kind == KindReject || c.Kind == KindUngrounded {
			s.closeChallenge(ce.ID)
			s.dismissBound(c, terminalTag(c.Kind), orDefault(ce.Reason, c.Objection))
			return
		}
		c.Status, c.AwaitingConfirmation = ChallengeDefended, false
		s.round = append(s.round, verdict{ClassSkeptical, fmt.Sprintf("%s: defense not accepted — %s", ce.ID, orDefault(ce.Reason, c.Objection))})
	case OutcomeEvaluating:
		c.Status = ChallengeDefended
	case OutcomeRefuted:
		s.closeChallenge(ce.ID)
		s.dismissBound(c, TagRejected, ce.Evidence)
	case OutcomeConceded:
		s.closeChallenge(ce.ID)
		c.Status = ChallengeConceded
		s.dismissBound(c, TagConceded, s.withReason(fmt.Sprintf("explicitly (iter %d)", s.Iteration), ce.Reason))
	case OutcomePartial:
		s.partial(ce)
	case OutcomeCorrected:
		s.corrected(ce)
	case OutcomeUpgraded:
		c.Kind, c.Status = KindSkeptical, ChallengeDefended
	case OutcomeMissingID:
		s.missingID(ce.ID)
	case OutcomeAdjudicated:
		s.adjudicate(ce)
	}
	if stays(ce.Outcome) && ce.Deadlock != "" {
		s.deadlock(ce)
	}
}

func (s *State) withReason(tagReason, reason string) string {
	if reason == "" {
		return tagReason
	}
	return tagReason + "; " + reason
}

// accept moves defended points to Agreed, through the Dependency Gate.
func (s *State) accept(ce ChallengeEval) {
	c := s.Challenges[ce.ID]
	s.closeChallenge(ce.ID)
	c.Status = ChallengeDefended
	for _, id := range c.bound() {
		text := s.boundText(c, id)
		if c.Narrowed != "" {
			text = c.Narrowed
		}
		p := s.Points[id]
		if p != nil && p.Dependency && !verifiedConcession(ce.Concession) {
			s.dismissText(id, text, TagRejected, "No concrete failure mode verified. Simpler version preferred.")
			continue
		}
		if p != nil {
			p.Text = text
		}
		s.agree(id, text, agreedEvidence(ce.EvidenceType), ce.Reason)
	}
}

// adjudicate judges each binding of a grouped challenge separately.
func (s *State) adjudicate(ce ChallengeEval) {
	c := s.Challenges[ce.ID]
	s.closeChallenge(ce.ID)
	c.Status = ChallengeDefended
	for _, b := range ce.Bindings {
		if b.Outcome == BindingSustained {
			s.dismissText(b.ID, s.pointText(b.ID), TagRejected, orDefault(b.Reason, c.Objection))
			continue
		}
		s.agree(b.ID, s.pointText(b.ID), agreedEvidence(b.EvidenceType), b.Reason)
	}
}

// verifiedConcession: the granular operation and verifiable evidence are
// both stated (GUESS is not evidence).
func verifiedConcession(c *Concession) bool {
	return c != nil && c.Operation != "" && c.Evidence != "" && c.Evidence != "GUESS"
}

// partial records a partial defense: the conceded part is Dismissed as a
// point of its own; the narrowed claim goes out for confirmation.
func (s *State) partial(ce ChallengeEval) {
	c := s.Challenges[ce.ID]
	c.Status = ChallengeDefended
	id := nextID("P", s.pointIDs())
	s.Points[id] = &Point{Text: ce.ConcededPart, RaisedIter: s.Iteration}
	s.dismiss(id, TagPartialConcede, ce.ConcededPart)
	c.Narrowed, c.AwaitingConfirmation = ce.Narrowed, true
}

// corrected takes the one permitted correction of a narrowed claim; a
// second is a stall.
func (s *State) corrected(ce ChallengeEval) {
	c := s.Challenges[ce.ID]
	c.Corrections++
	if c.Corrections > 1 {
		s.closeChallenge(ce.ID)
		s.dismissBound(c, TagStall, "scope unstable")
		s.Counters.Stalls++
		return
	}
	c.Narrowed, c.AwaitingConfirmation = ce.Narrowed, true
}

// missingID sends the one ID confirmation of a challenge, or treats it as
// dropped when that was used.
func (s *State) missingID(id string) {
	c := s.Challenges[id]
	if c.IDRecovery {
		s.drop(id)
		return
	}
	c.IDRecovery, c.AwaitingID = true, true
	s.Counters.IDRecoveries++
}

// deadlock routes a challenge open for deadlockRounds rounds.
func (s *State) deadlock(ce ChallengeEval) {
	c := s.Challenges[ce.ID]
	switch ce.Deadlock {
	case DeadlockMissingData:
		s.closeChallenge(ce.ID)
		s.unresolveBound(c, blockedCrux(ce.Blocked), UnresolvedBlocked)
		s.SurfacedQuestions = append(s.SurfacedQuestions, fmt.Sprintf("%s? (%s)", ce.Blocked.Measurement, ce.Blocked.VerdictDelta))
	case DeadlockDefinitional:
		c.DefinitionalRetry = true
	case DeadlockCriteria:
		s.closeChallenge(ce.ID)
		s.unresolveBound(c, ce.Crux, UnresolvedTradeoff)
	case DeadlockTermsUnclear:
		s.closeChallenge(ce.ID)
		s.dismissBound(c, TagStall, "terms unclear")
		s.Counters.Stalls++
	}
}

// applyDrops handles the challenges this response did not address:
// referenced → defended; unreferenced → dropped, reminded, then
// undefended; REJECT gets no reminder.
func (s *State) applyDrops(handled map[string]bool) {
	refs := s.lastResponse().Refs
	for _, id := range slices.Clone(s.Disputed) {
		c := s.Challenges[id]
		switch {
		case handled[id] || c.RaisedIter >= s.Iteration:
		case slices.Contains(refs, id):
			c.Status, c.AwaitingID = ChallengeDefended, false
		default:
			s.drop(id)
		}
	}
}

func (s *State) drop(id string) {
	c := s.Challenges[id]
	c.AwaitingID = false
	if c.Kind == KindUngrounded {
		s.closeChallenge(id)
		c.Status = ChallengeUndefended
		s.dismissBound(c, TagUngrounded, fmt.Sprintf("not reframed with observable referents (iter %d)", s.Iteration))
		return
	}
	if c.Kind == KindReject || c.ReminderSent {
		s.closeChallenge(id)
		c.Status = ChallengeUndefended
		s.dismissBound(c, TagUndefended, fmt.Sprintf("not defended (iter %d)", s.Iteration))
		return
	}
	c.Status, c.ReminderSent = ChallengeDropped, true
}

// terminalTag is the Dismissed tag of a one-round challenge whose defense
// failed.
func terminalTag(kind string) string {
	if kind == KindUngrounded {
		return TagUngrounded
	}
	return TagRejected
}

// closeChallenge takes a challenge off the disputed list.
func (s *State) closeChallenge(id string) {
	s.Disputed = removeString(s.Disputed, id)
	if c := s.Challenges[id]; c != nil {
		c.AwaitingConfirmation, c.AwaitingID = false, false
	}
}
