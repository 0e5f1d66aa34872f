package deliberation

import (
	"fmt"
	"slices"
	"strings"
)

// verdict is one line of the Evaluation section of the next prompt.
type verdict struct {
	class string // AGREE, SKEPTICAL, REJECT, ILL-FORMED, BLOCKED, or a bucket (see tellClasses)
	text  string // the point, with its objection or reason
	cid   string // the challenge it is about, if any
}

// The Evaluation line's labels beyond the classifications: where a point
// went when no verdict of the orchestrator put it there.
const (
	tellDismissed    = "DISMISSED"     // triaged out of scope
	tellUnresolved   = "UNRESOLVED"    // an anchor shift, kept for the user
	tellNotEvaluated = "NOT EVALUATED" // late content, overflow
)

// tellClasses are the Evaluation line's labels, in order.
var tellClasses = []string{ClassAgree, ClassSkeptical, ClassReject, ClassIllFormed, ClassBlocked, tellDismissed, tellUnresolved, tellNotEvaluated}

// tell adds a line to the next Evaluation line: every change of bucket is
// told to the consultee. cid names the challenge the line is about.
func (s *State) tell(class, cid, text string) {
	s.round = append(s.round, verdict{class: class, text: text, cid: cid})
}

// untell takes back what this exchange's lines said about challenge cid:
// it closed, so "defense not accepted" no longer holds.
func (s *State) untell(cid string) {
	s.round = slices.DeleteFunc(s.round, func(v verdict) bool { return v.cid == cid })
}

// cref starts a told line about challenge id ("C1: "); quick mode states
// challenges by content, without IDs.
func (s *State) cref(id string) string {
	if s.quick() || id == "" {
		return ""
	}
	return id + ": "
}

// tagged is a told line's "point — TAG: reason".
func tagged(text, tag, reason string) string {
	if reason == "" {
		return clause(text) + " — " + tag
	}
	return clause(text) + " — " + tag + ": " + clause(reason)
}

// Routes of a point after triage and the phase rules.
const (
	routeEvaluate   = "evaluate"
	routeOutOfScope = "out-of-scope"
	routeAnchor     = "anchor-shift"
	routeOverflow   = "overflow"
	routeLate       = "not-evaluated"
)

// route applies triage and the phase rules (Late Content Handling) to a
// point; note is the Not evaluated reason of a late point.
func (s *State) route(p PointEval) (route, note string) {
	switch {
	case p.Overflow:
		return routeOverflow, "overflow: not deliberated (budget)"
	case p.Triage == "out-of-scope":
		return routeOutOfScope, ""
	case p.Triage == "anchor-shift" && !p.ServesAnchor:
		return routeAnchor, ""
	case p.Clarifies != "", s.quick():
		return routeEvaluate, ""
	case p.Revises != "" && (s.Iteration <= 2 || p.SameCoreClaim):
		return routeEvaluate, ""
	}
	evidence := p.Kind == "evidence"
	switch s.currentPhase() {
	case Constructive:
		return routeEvaluate, ""
	case Development:
		if evidence {
			return routeEvaluate, ""
		}
		return routeLate, "phase violation: raised in DEVELOPMENT"
	}
	switch {
	case evidence && p.Decisive:
		return routeEvaluate, ""
	case evidence:
		return routeLate, "non-decisive evidence in CRYSTALLIZATION"
	}
	return routeLate, "phase closed"
}

// currentPhase is the stored phase (authoritative), derived from N only
// when missing.
func (s *State) currentPhase() Phase {
	if s.Phase.valid() {
		return s.Phase
	}
	return phaseFor(s.Iteration)
}

// applyPoint registers (or re-registers) a point and routes it; path is
// where the point sits in the evaluation (points[2]).
func (s *State) applyPoint(path string, p PointEval) {
	route, note := s.route(p)
	id := s.placePoint(path, p)
	if p.Revises != "" && id != p.Revises {
		note += " (a different-core revision of " + p.Revises + ")"
	}
	s.markDrift(id, p)
	switch {
	case route == routeOverflow:
		s.notEvaluatedBlocking(id, p.Text, note, p.Blocking)
		s.tell(tellNotEvaluated, "", clause(p.Text)+" — "+note)
	case route == routeOutOfScope:
		reason := orDefault(p.Reason, "out of scope of the question")
		if p.Drift == DriftTangent {
			reason = orDefault(p.Reason, DriftTangent)
		}
		s.dismiss(id, TagOutOfScope, reason)
		s.tell(tellDismissed, "", tagged(p.Text, TagOutOfScope, reason))
	case route == routeAnchor:
		s.Counters.AnchorShifts++
		crux := orDefault(p.Reason, "reframes the question; needs the user's consent to shift the anchor")
		s.unresolve(id, p.Text, crux, UnresolvedAnchorShift)
		s.tell(tellUnresolved, "", tagged(p.Text, UnresolvedAnchorShift, crux))
	case route == routeLate:
		s.notEvaluated(id, p.Text, note)
		s.tell(tellNotEvaluated, "", clause(p.Text)+" — "+note)
	case p.Clarifies != "" && p.Classification == ClassIllFormed:
		s.stall(id)
	default:
		s.scopeChanged = s.scopeChanged || p.Clarifies == ""
		s.classify(id, p)
		s.applyDecisive(p)
	}
}

// stall dismisses a point still unevaluable after its clarification, and
// tells the consultee.
func (s *State) stall(id string) {
	const reason = "unevaluable after clarification"
	s.dismiss(id, TagStall, reason)
	s.Counters.Stalls++
	s.tell(ClassIllFormed, "", id+": "+tagged(s.pointText(id), TagStall, reason))
}

// Drift marks of a point against the Solution Space Mapping.
const (
	DriftTangent = "tangent" // one of the likely tangents: out of scope
	DriftSignal  = "drift"   // shows a drift signal: the deliberation is leaving productive territory
)

// markDrift counts a point marked tangent or drift, for the status and the
// next prompt.
func (s *State) markDrift(id string, p PointEval) {
	switch p.Drift {
	case DriftTangent:
		s.Counters.Tangents++
	case DriftSignal:
		s.Counters.Drift++
	default:
		return
	}
	s.Points[id].Drift = p.Drift
	s.drifted = append(s.drifted, fmt.Sprintf("%s (%s)", id, p.Drift))
}

// applyDecisive moves the point decisive evidence bears on, at once and
// in the direction the evaluation says: refutes Dismisses it REJECTED
// with the evidence (from Agreed, a dispute or Unresolved blocked alike),
// confirms Agrees it. A challenge on the point closes.
func (s *State) applyDecisive(ev PointEval) {
	target := orDefault(ev.Refutes, ev.Confirms)
	if target == "" {
		return
	}
	text := s.placedText(target)
	cid := ""
	if closed := s.unplace(target); len(closed) > 0 {
		cid = closed[0]
	}
	if ev.Refutes != "" {
		reason := "contradicted by decisive evidence: " + clause(ev.Text)
		s.dismissText(target, text, TagRejected, reason)
		s.tell(ClassReject, cid, s.cref(cid)+tagged(text, TagRejected, reason))
		return
	}
	reason := "confirmed by decisive evidence: " + clause(ev.Text)
	s.agreeTold(target, text, agreedEvidence(ev.EvidenceType), reason, cid, clause(text)+" ("+reason+")")
}

// placedText is a point's text as its place holds it: its bucket entry,
// or the claim its challenge disputes (the narrowed one, once narrowed).
func (s *State) placedText(id string) string {
	for _, a := range s.Buckets.Agreed {
		if a.ID == id {
			return a.Point
		}
	}
	for _, d := range s.Buckets.Dismissed {
		if d.ID == id {
			return d.Point
		}
	}
	for _, u := range s.Buckets.Unresolved {
		if u.ID == id {
			return u.Point
		}
	}
	for _, cid := range s.Disputed {
		if c := s.Challenges[cid]; slices.Contains(c.bound(), id) {
			return s.boundText(c, id)
		}
	}
	return s.pointText(id)
}

// placePoint returns the point's ID: the clarified point or a revision of
// the same core claim (taken out of its old place), or a new one. A
// revision of a different core claim after iteration 2 is a new argument:
// it gets its own ID and the claim it would replace stays where it is.
func (s *State) placePoint(path string, p PointEval) string {
	id := p.Clarifies
	if id == "" && p.Revises != "" && s.sameClaimRevision(p) {
		id = p.Revises
	}
	if id == "" {
		id = s.newPointID()
	} else {
		for _, cid := range s.unplace(id) {
			c := s.Challenges[cid]
			s.tell(s.classOf(c), cid, s.cref(cid)+clause(s.claimOf(c))+" — closed: you revised it (judged again as revised)")
		}
	}
	s.Points[id] = &Point{
		Text: p.Text, RaisedIter: s.Iteration, ClaimType: p.ClaimType,
		Theme: p.Theme, Blocking: p.Blocking, Dependency: p.Dependency != nil,
		Issue: p.Flaw, Clarify: p.Clarify,
	}
	s.assigned.point(path, id)
	return id
}

// sameClaimRevision: a revision re-enters at Evaluate in place of the point
// it revises up to iteration 2, and after that when it keeps the same core
// claim.
func (s *State) sameClaimRevision(p PointEval) bool {
	return s.Iteration <= 2 || p.SameCoreClaim
}

// newPointID numbers a new point: one more than the highest in use.
func (s *State) newPointID() string {
	if s.seqP == 0 {
		for id := range s.Points {
			s.seqP = max(s.seqP, numberOf("P", id))
		}
		for _, a := range s.Buckets.Agreed {
			s.seqP = max(s.seqP, numberOf("P", a.ID))
		}
		for _, d := range s.Buckets.Dismissed {
			s.seqP = max(s.seqP, numberOf("P", d.ID))
		}
		for _, u := range s.Buckets.Unresolved {
			s.seqP = max(s.seqP, numberOf("P", u.ID))
		}
		for _, n := range s.NotEvaluated {
			s.seqP = max(s.seqP, numberOf("P", n.ID))
		}
	}
	s.seqP++
	return fmt.Sprintf("P%d", s.seqP)
}

// newChallengeID numbers a new challenge.
func (s *State) newChallengeID() string {
	if s.seqC == 0 {
		for id := range s.Challenges {
			s.seqC = max(s.seqC, numberOf("C", id))
		}
	}
	s.seqC++
	return fmt.Sprintf("C%d", s.seqC)
}

// numberOf is the number of an ID with the prefix, or 0.
func numberOf(prefix, id string) int {
	if !strings.HasPrefix(id, prefix) {
		return 0
	}
	return idNum(id)
}

// classify routes an evaluated point by its classification.
func (s *State) classify(id string, p PointEval) {
	if d := p.Dependency; d != nil && d.Confidence == "GUESS" && d.AlternativeConfidence == "GUESS" {
		reason := "both sides GUESS on operational behavior: fewer dependencies wins (" + orDefault(d.Alternative, "the simpler version") + ")"
		s.dismiss(id, TagRejected, reason)
		s.tell(ClassReject, "", tagged(p.Text, TagRejected, reason))
		return
	}
	switch p.Classification {
	case ClassAgree:
		s.agree(id, p.Text, agreedEvidence(p.EvidenceType), p.Reason)
	case ClassSkeptical, ClassReject:
		s.challenge(id, p)
	case ClassIllFormed:
		s.Pending = append(s.Pending, id)
		s.tell(ClassIllFormed, "", fmt.Sprintf("%s: %s — %s", id, clause(p.Text), clause(p.Flaw)))
	case ClassBlocked:
		b := p.Blocked
		s.unresolve(id, p.Text, blockedCrux(b), UnresolvedBlocked)
		s.SurfacedQuestions = append(s.SurfacedQuestions, fmt.Sprintf("%s? (%s)", b.Measurement, b.VerdictDelta))
		s.tell(ClassBlocked, "", clause(p.Text)+" — needs "+clause(b.Measurement))
	}
}

func agreedEvidence(t string) string {
	if t == "execution" || t == "textual" {
		return t
	}
	return "n/a"
}

func blockedCrux(b *Blocked) string {
	return fmt.Sprintf("missing %s; threshold %s; %s", b.Measurement, b.Threshold, b.VerdictDelta)
}

// ungroundedObjection is the one challenge of a value claim without an
// observable referent.
const ungroundedObjection = "Reframe with observable referents or withdraw."

// challenge issues C# on a SKEPTICAL or REJECT point; SKEPTICAL points
// of one group share one challenge (C1 [P9, P10]).
func (s *State) challenge(pointID string, p PointEval) {
	if cid, ok := s.groups[p.Group]; ok && p.Group != "" {
		c := s.Challenges[cid]
		c.Bindings = append(c.Bindings, pointID)
		c.Point += "; " + p.Text
		s.assigned.bind(cid, pointID)
		s.tell(ClassSkeptical, cid, s.verdictLine(cid, p))
		return
	}
	id := s.newChallengeID()
	kind := p.Classification
	if p.Ungrounded {
		kind, p.Flaw = KindUngrounded, ungroundedObjection
	}
	c := &Challenge{
		Point: p.Text, Objection: p.Flaw, RaisedIter: s.Iteration, Status: ChallengeOpen,
		PointID: pointID, Kind: kind, UpgradeIf: p.UpgradeIf,
	}
	if p.Group != "" {
		c.Bindings = []string{pointID}
		if s.groups == nil {
			s.groups = map[string]string{}
		}
		s.groups[p.Group] = id
	}
	s.Challenges[id] = c
	s.Disputed = append(s.Disputed, id)
	s.assigned.bind(id, pointID)
	s.tell(p.Classification, id, s.verdictLine(id, p))
}

// verdictLine is a challenge's line in the Evaluation section.
func (s *State) verdictLine(id string, p PointEval) string {
	line := fmt.Sprintf("%s because %s", clause(p.Text), clause(p.Flaw))
	switch {
	case p.Ungrounded:
		line = clause(p.Text) + " — a value claim without an observable referent: reframe with observable referents or withdraw"
	case p.Classification == ClassReject:
		line = fmt.Sprintf("%s — %s (one defense round)", clause(p.Text), clause(p.Flaw))
	}
	if s.quick() {
		return line
	}
	return id + ": " + line
}

func (s *State) pointText(id string) string {
	if p := s.Points[id]; p != nil {
		return p.Text
	}
	return id
}

func (s *State) agree(id, text, evidence, reason string) {
	s.agreeTold(id, text, evidence, reason, "", clause(text))
}

// agreeTold agrees a point and tells the consultee so in its own words.
func (s *State) agreeTold(id, text, evidence, reason, cid, told string) {
	s.Buckets.Agreed = append(s.Buckets.Agreed, Agreed{ID: id, Point: text, EvidenceType: evidence, Reason: reason})
	s.tell(ClassAgree, cid, told)
}

func (s *State) dismiss(id, tag, reason string) {
	s.Buckets.Dismissed = append(s.Buckets.Dismissed, Dismissed{ID: id, Point: s.pointText(id), Tag: tag, Reason: reason})
}

func (s *State) unresolve(id, text, crux, status string) {
	s.Buckets.Unresolved = append(s.Buckets.Unresolved, Unresolved{ID: id, Point: text, Crux: crux, Status: status})
}

func (s *State) notEvaluated(id, text, reason string) {
	s.notEvaluatedBlocking(id, text, reason, false)
}

func (s *State) notEvaluatedBlocking(id, text, reason string, blocking bool) {
	s.NotEvaluated = append(s.NotEvaluated, NotEvaluated{ID: id, Point: text, Reason: reason, Blocking: blocking})
	const warn = "undeliberated blocking claims exist"
	if blocking && !slices.Contains(s.Warnings, warn) {
		s.Warnings = append(s.Warnings, warn)
	}
}

// unplace takes a point out of wherever it is (a revision or a
// clarification re-enters it at Evaluate; decisive evidence moves it) and
// returns the challenges that closed with it.
func (s *State) unplace(id string) (closed []string) {
	s.Buckets.Agreed = slices.DeleteFunc(s.Buckets.Agreed, func(a Agreed) bool { return a.ID == id })
	s.Buckets.Dismissed = slices.DeleteFunc(s.Buckets.Dismissed, func(d Dismissed) bool { return d.ID == id })
	s.Buckets.Unresolved = slices.DeleteFunc(s.Buckets.Unresolved, func(u Unresolved) bool { return u.ID == id })
	s.NotEvaluated = slices.DeleteFunc(s.NotEvaluated, func(n NotEvaluated) bool { return n.ID == id })
	s.Pending = removeString(s.Pending, id)
	for _, cid := range slices.Clone(s.Disputed) {
		if c := s.Challenges[cid]; slices.Contains(c.bound(), id) && s.unbind(cid, id) {
			closed = append(closed, cid)
		}
	}
	return closed
}

// unbind takes a point out of a challenge: a grouped challenge keeps its
// other bindings, any other challenge closes (it reports so), and what
// this exchange said of it is taken back.
func (s *State) unbind(cid, id string) bool {
	c := s.Challenges[cid]
	if len(c.Bindings) < 2 {
		s.closeChallenge(cid)
		s.untell(cid)
		return true
	}
	c.Bindings = removeString(slices.Clone(c.Bindings), id)
	c.PointID = c.Bindings[0]
	var texts []string
	for _, b := range c.Bindings {
		texts = append(texts, s.pointText(b))
	}
	c.Point = strings.Join(texts, "; ")
	return false
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// dismissText dismisses a point by ID with a known text (a challenge from a
// state file of the original skill has no point ID).
func (s *State) dismissText(id, text, tag, reason string) {
	s.Buckets.Dismissed = append(s.Buckets.Dismissed, Dismissed{ID: id, Point: text, Tag: tag, Reason: reason})
}
