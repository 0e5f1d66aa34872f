package deliberation

import (
	"fmt"
	"slices"
	"strings"
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

// boundText is the text of a bound point: the claim in dispute, which is
// the narrowed claim once a partial defense narrowed it (a challenge from
// the original skill has only its own text).
func (s *State) boundText(c *Challenge, id string) string {
	if len(c.Bindings) > 0 {
		return s.pointText(id)
	}
	return s.claimOf(c)
}

// claimOf is the claim a challenge disputes: the narrowed claim once a
// partial defense narrowed it, in the consultee's words.
func (s *State) claimOf(c *Challenge) string {
	if c.Narrowed != "" && len(c.Bindings) == 0 {
		return c.Narrowed
	}
	return c.Point
}

// classOf is the Evaluation line's class a challenge's moves are told
// under: REJECT for a one-round challenge (REJECT, UNGROUNDED), SKEPTICAL
// otherwise.
func (s *State) classOf(c *Challenge) string {
	if oneRound(c) {
		return ClassReject
	}
	return ClassSkeptical
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
	if ce.Outcome != OutcomeMissingID {
		s.noteDefense(ce)
	}
	switch ce.Outcome {
	case OutcomeAccepted:
		s.accept(ce)
	case OutcomeRejected:
		if c.Kind == KindReject || c.Kind == KindUngrounded {
			s.closeChallenge(ce.ID)
			c.Status = ChallengeDefended
			reason := orDefault(ce.Reason, c.Objection)
			s.dismissBound(c, terminalTag(c.Kind), reason)
			s.tell(ClassReject, ce.ID, fmt.Sprintf("%s%s — defense not accepted: %s", s.cref(ce.ID), clause(s.claimOf(c)), clause(reason)))
			return
		}
		c.Status, c.AwaitingConfirmation = ChallengeDefended, false
		s.tell(ClassSkeptical, ce.ID, fmt.Sprintf("%sdefense not accepted — %s", s.cref(ce.ID), clause(orDefault(ce.Reason, c.Objection))))
	case OutcomeEvaluating:
		c.Status = ChallengeDefended
	case OutcomeRefuted:
		s.closeChallenge(ce.ID)
		s.dismissBound(c, TagRejected, ce.Evidence)
		s.tell(ClassReject, ce.ID, fmt.Sprintf("%s%s — refuted: %s", s.cref(ce.ID), clause(s.claimOf(c)), clause(ce.Evidence)))
	case OutcomeConceded:
		s.closeChallenge(ce.ID)
		c.Status = ChallengeConceded
		reason := s.withReason(fmt.Sprintf("explicitly (iter %d)", s.Iteration), ce.Reason)
		s.dismissBound(c, TagConceded, reason)
		s.tell(s.classOf(c), ce.ID, s.cref(ce.ID)+tagged(s.claimOf(c), TagConceded, reason))
	case OutcomePartial:
		s.partial(ce)
	case OutcomeCorrected:
		s.corrected(ce)
	case OutcomeUpgraded:
		c.Kind, c.Status = KindSkeptical, ChallengeDefended
		s.tell(ClassSkeptical, ce.ID, fmt.Sprintf("%supgraded from REJECT: %s because %s (defend or concede)", s.cref(ce.ID), clause(s.claimOf(c)), clause(c.Objection)))
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

// noteDefense keeps what the consultee said for a challenge, for the
// Recovery prompt's argumentative flow: the evaluation's defense, or the
// answer's lines that reference the challenge.
func (s *State) noteDefense(ce ChallengeEval) {
	d := strings.TrimSpace(ce.Defense)
	if d == "" {
		if r := s.lastResponse(); r != nil {
			d = defenseLines(r.Text, ce.ID)
		}
	}
	if d != "" {
		s.Challenges[ce.ID].Defense = d
	}
}

// maxDefense bounds a defense kept from an answer.
const maxDefense = 400

// defenseLines are the lines of text that reference challenge id, joined
// into one line and cut at maxDefense characters.
func defenseLines(text, id string) string {
	var lines []string
	for line := range strings.SplitSeq(text, "\n") {
		if slices.Contains(references(line), id) {
			lines = append(lines, strings.Join(strings.Fields(line), " "))
		}
	}
	return cutRunes(strings.Join(lines, " "), maxDefense)
}

// cutRunes cuts s to at most n characters, marking the cut with "…".
func cutRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// gateMessage is the Dependency Gate's verdict on a concession without a
// verified failure mode.
const gateMessage = "No concrete failure mode verified. Simpler version preferred."

// accept moves defended points to Agreed, through the Dependency Gate, and
// tells the consultee.
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
			s.gateDismiss(ce.ID, id, text)
			continue
		}
		if p != nil {
			p.Text = text
			if ce.ClaimType != "" {
				p.ClaimType = ce.ClaimType
			}
		}
		s.agree(id, text, agreedEvidence(ce.EvidenceType), ce.Reason)
	}
}

// gateDismiss dismisses a dependency claim whose concession names no
// verified failure mode, and says so in the next Evaluation line.
func (s *State) gateDismiss(cid, id, text string) {
	s.dismissText(id, text, TagRejected, gateMessage)
	s.tell(ClassReject, cid, fmt.Sprintf("%s%s — %s", s.cref(cid), clause(text), gateMessage))
}

// adjudicate judges each binding of a grouped challenge separately; a
// withdrawn binding still passes the Dependency Gate.
func (s *State) adjudicate(ce ChallengeEval) {
	c := s.Challenges[ce.ID]
	s.closeChallenge(ce.ID)
	c.Status = ChallengeDefended
	for _, b := range ce.Bindings {
		text := s.pointText(b.ID)
		if b.Outcome == BindingSustained {
			reason := orDefault(b.Reason, c.Objection)
			s.dismissText(b.ID, text, TagRejected, reason)
			s.tell(ClassReject, ce.ID, fmt.Sprintf("%s [%s]: %s — %s", ce.ID, b.ID, clause(text), clause(reason)))
			continue
		}
		p := s.Points[b.ID]
		if p != nil && p.Dependency && !verifiedConcession(b.Concession) {
			s.dismissText(b.ID, text, TagRejected, gateMessage)
			s.tell(ClassReject, ce.ID, fmt.Sprintf("%s [%s]: %s — %s", ce.ID, b.ID, clause(text), gateMessage))
			continue
		}
		if p != nil && b.ClaimType != "" {
			p.ClaimType = b.ClaimType
		}
		s.agree(b.ID, text, agreedEvidence(b.EvidenceType), b.Reason)
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
	id := s.newPointID()
	s.assigned.point(s.evalPath+".conceded_part", id)
	s.Points[id] = &Point{Text: ce.ConcededPart, RaisedIter: s.Iteration}
	s.dismiss(id, TagPartialConcede, ce.ConcededPart)
	s.tell(s.classOf(c), ce.ID, s.cref(ce.ID)+TagPartialConcede+": "+clause(ce.ConcededPart))
	c.Narrowed, c.AwaitingConfirmation = ce.Narrowed, true
}

// corrected takes the one permitted correction of a narrowed claim; a
// second is a stall.
func (s *State) corrected(ce ChallengeEval) {
	c := s.Challenges[ce.ID]
	c.Corrections++
	// The claim in dispute is now the one the consultee last made: the
	// stall keeps its words (the seed: preserve Codex's phrasing).
	c.Narrowed = ce.Narrowed
	if c.Corrections > 1 {
		s.closeChallenge(ce.ID)
		s.dismissBound(c, TagStall, "scope unstable")
		s.Counters.Stalls++
		s.tell(s.classOf(c), ce.ID, s.cref(ce.ID)+tagged(s.claimOf(c), TagStall, "scope unstable"))
		return
	}
	c.AwaitingConfirmation = true
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

// deadlock routes a challenge open for deadlockRounds rounds. A change of
// bucket replaces the challenge's verdict in the next Evaluation line.
func (s *State) deadlock(ce ChallengeEval) {
	c := s.Challenges[ce.ID]
	var told string
	switch ce.Deadlock {
	case DeadlockMissingData:
		s.closeChallenge(ce.ID)
		crux := blockedCrux(ce.Blocked)
		s.unresolveBound(c, crux, UnresolvedBlocked)
		s.SurfacedQuestions = append(s.SurfacedQuestions, fmt.Sprintf("%s? (%s)", ce.Blocked.Measurement, ce.Blocked.VerdictDelta))
		told = fmt.Sprintf("%sunresolved (deadlock: missing data — %s)", s.cref(ce.ID), clause(crux))
	case DeadlockDefinitional:
		c.DefinitionalRetry = true
	case DeadlockCriteria:
		s.closeChallenge(ce.ID)
		s.unresolveBound(c, ce.Crux, UnresolvedTradeoff)
		told = fmt.Sprintf("%sunresolved (deadlock: criteria — %s)", s.cref(ce.ID), clause(ce.Crux))
	case DeadlockTermsUnclear:
		s.closeChallenge(ce.ID)
		s.dismissBound(c, TagStall, "terms unclear")
		s.Counters.Stalls++
		told = fmt.Sprintf("%sdismissed as %s (deadlock: terms unclear)", s.cref(ce.ID), TagStall)
	}
	if told == "" {
		return
	}
	s.untell(ce.ID)
	s.tell(s.classOf(c), ce.ID, told)
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
			if d := defenseLines(s.lastResponse().Text, id); d != "" {
				c.Defense = d
			}
		default:
			s.drop(id)
		}
	}
}

func (s *State) drop(id string) {
	c := s.Challenges[id]
	c.AwaitingID = false
	tag, reason := TagUndefended, fmt.Sprintf("not defended (iter %d)", s.Iteration)
	if c.Kind == KindUngrounded {
		tag, reason = TagUngrounded, fmt.Sprintf("not reframed with observable referents (iter %d)", s.Iteration)
	}
	if oneRound(c) || c.ReminderSent {
		s.closeChallenge(id)
		c.Status = ChallengeUndefended
		s.dismissBound(c, tag, reason)
		s.untell(id)
		s.tell(s.classOf(c), id, s.cref(id)+tagged(s.claimOf(c), tag, reason))
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

// closeChallenge takes a challenge off the disputed list. A challenge
// closed while still open (refuted, revised, sent to Unresolved at the
// end) gets the status its last answer earned: defended when the answer
// referenced it, undefended when not; the caller may set another.
func (s *State) closeChallenge(id string) {
	s.Disputed = removeString(s.Disputed, id)
	c := s.Challenges[id]
	if c == nil {
		return
	}
	c.AwaitingConfirmation, c.AwaitingID = false, false
	if c.Status == ChallengeOpen {
		c.Status = ChallengeUndefended
		// Quick mode has no IDs to look for: a challenge the evaluation
		// did not judge was not addressed, so it was not defended.
		if r := s.lastResponse(); r != nil && !s.quick() && slices.Contains(r.Refs, id) {
			c.Status = ChallengeDefended
		}
	}
}
