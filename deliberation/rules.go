package deliberation

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/elicit/elicit/problem"
)

// Actions: what the orchestrator does next.
const (
	ActionAsk        = "ask"            // send the First Call
	ActionCritique   = "critique"       // send the Subsequent Call
	ActionReminder   = "reminder"       // a Subsequent Call that only reminds of dropped challenges
	ActionRetry      = "retry"          // resend after a format failure (N unchanged)
	ActionClarify    = "clarification"  // ask the ILL-FORMED clarifications (N unchanged)
	ActionCoverage   = "coverage_check" // iteration 2: "What's missing from this analysis?"
	ActionStress     = "stress_test"    // steelman the strongest objection
	ActionArbitrate  = "arbitration"    // send the buckets to an arbiter
	ActionSynthesize = "synthesize"     // the deliberation is over; synthesize
	ActionExit       = "exit"           // the deliberation stopped; tell the user Reason
	// ActionRecover resends the pending step as the Recovery prompt, to a
	// fresh consultee session (the context was degraded); N unchanged.
	ActionRecover = "recover"
)

// Awaiting values of Next.
const (
	AwaitResponse   = "response"
	AwaitEvaluation = "evaluation"
)

// Exit reasons (State.ExitReason). The first four permit Synthesize.
const (
	ExitConverged        = "converged"
	ExitCap              = "cap reached"
	ExitTrivial          = "early exit: trivial"
	ExitQuality          = "early exit: quality"
	ExitAnchorShift      = "anchor shift"
	ExitProtocol         = "protocol integrity failure"
	ExitStalled          = "stalled"
	ExitArbitration      = "arbitration"
	ExitQuickUnengaged   = "quick mode: unable to engage"
	ExitAbandoned        = "abandoned"
	exitMsgQuality       = "Codex unable to engage at required level."
	exitMsgAnchorShift   = "Question may need narrowing or decomposition."
	exitMsgProtocol      = "Protocol integrity failure: Codex unable to maintain challenge tracking."
	exitMsgStalled       = "Deliberation stalled: narrow the scope, give examples or constraints, or split the question."
	exitMsgArbitration   = "Deliberation produced insufficient confident reasoning."
	exitMsgQuickUnengage = "Codex unable to engage (Quick Mode)."
)

// Classifications and challenge kinds.
const (
	ClassAgree      = "AGREE"
	ClassSkeptical  = "SKEPTICAL"
	ClassReject     = "REJECT"
	ClassIllFormed  = "ILL-FORMED"
	ClassBlocked    = "BLOCKED"
	KindSkeptical   = ClassSkeptical
	KindReject      = ClassReject
	KindUngrounded  = "UNGROUNDED" // a value claim without an observable referent: challenged once
	failureNone     = "none"
	failureFormat   = "format"
	failureQuality  = "quality"
	arbitrationBar  = 0.6 // share of flagged points that ends the deliberation
	deadlockRounds  = 3   // iterations a challenge may stay open before deadlock
	maxThemes       = 5
	maxPlainPoints  = 7
	maxAnchorShifts = 2
	maxIDRecoveries = 2
	maxStalls       = 2
)

// Unresolved statuses.
const (
	UnresolvedBlocked      = "blocked"
	UnresolvedTradeoff     = "tradeoff"
	UnresolvedDefinitional = "definitional"
	UnresolvedAnchorShift  = "pending-anchor-shift"
	UnresolvedOpen         = "open-challenge" // a challenge still open when the deliberation ended
)

// Dismissed tags.
const (
	TagRejected       = "REJECTED"
	TagConceded       = "CONCEDED"
	TagUndefended     = "UNDEFENDED"
	TagOutOfScope     = "OUT-OF-SCOPE"
	TagPartialConcede = "PARTIAL-CONCEDE"
	TagStall          = "DIALECTICAL-STALL"
	TagUngrounded     = "UNGROUNDED"
)

// Next is the action the orchestrator takes next, with its prompt.
type Next struct {
	Action string `json:"action"`
	// Awaiting is what the engine waits for: a response to Prompt, an
	// evaluation of the recorded response, or nothing.
	Awaiting  string `json:"awaiting,omitempty"`
	Iteration int    `json:"iteration"`
	Prompt    string `json:"prompt,omitempty"`
	// Reason is the exit reason, or the message to show the user.
	Reason string `json:"reason,omitempty"`
	// For is the action a retry or a recover repeats (its answer is judged
	// as that action's answer).
	For string `json:"for,omitempty"`
	// Assigned lists the IDs the evaluation that led here assigned.
	Assigned *Assigned `json:"assigned,omitempty"`
	// Coverage is what the coverage check's NEW test found in the
	// evaluation that led here: the artifacts it counted as NEW, and the
	// others with their earlier citation.
	Coverage *CoverageResult `json:"coverage,omitempty"`
}

// pending is the action whose answer is awaited: the retried one for a
// retry.
func (s *State) pending() string {
	if (s.Next.Action == ActionRetry || s.Next.Action == ActionRecover) && s.Next.For != "" {
		return s.Next.For
	}
	return s.Next.Action
}

func (s *State) setNext(action, prompt string) {
	s.Next = &Next{Action: action, Awaiting: AwaitResponse, Iteration: s.Iteration, Prompt: prompt}
}

// challengeRef is compiled on first use, not at package initialisation.
var challengeRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bC([1-9][0-9]*)\b`) })

// references returns the challenge IDs text refers to ("C1", "Re C1",
// "Regarding C1", "C1:"), in order, each once.
func references(text string) []string {
	var out []string
	for _, m := range challengeRef().FindAllStringSubmatch(text, -1) {
		id := "C" + m[1]
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// Respond records the consultee's answer to the pending prompt. It fails
// when no answer is awaited (the deliberation is over, or the last answer
// still awaits its evaluation).
func (s *State) Respond(text string, now time.Time) error {
	if err := s.expect(AwaitResponse); err != nil {
		return err
	}
	if c := s.Consultation; c != nil {
		return problem.List{{Path: "consultation", Message: fmt.Sprintf("%s has been consulted on iteration %d since %s: wait for its answer, or cancel it first", c.Consultant, c.Iteration, c.StartedAt)}}
	}
	return s.respond(text, now)
}

// respond records an answer once the checks are done.
func (s *State) respond(text string, now time.Time) error {
	if strings.TrimSpace(text) == "" {
		return problem.List{{Path: "response", Message: "is empty"}}
	}
	if len(text) > MaxResponse {
		return problem.List{{Path: "response", Message: fmt.Sprintf("is %d bytes, over the cap of %d MiB for an answer (ask the consultee for a telegraphic answer; name files by path rather than pasting them)", len(text), MaxResponse>>20)}}
	}
	var bad problem.List
	if checkUTF8(&bad, "response", text); bad != nil {
		return bad
	}
	refs := references(text)
	if s.quick() {
		refs = nil // quick mode tracks challenges by content, not ID
	}
	s.logPhaseMismatch()
	s.Responses = append(s.Responses, Response{Iteration: s.Iteration, Action: s.pending(), Text: text, Refs: refs})
	s.Next.Awaiting = AwaitEvaluation
	s.Next.Assigned = nil // the evaluation that assigned them is told; the next one assigns anew
	s.Next.Coverage = nil
	s.FreshSession = false
	s.touch(now)
	return nil
}

func (s *State) expect(awaiting string) error {
	if !s.Active() {
		return problem.List{{Path: "status", Message: fmt.Sprintf("the deliberation is %s (%s); nothing more is accepted", s.Status, s.ExitReason)}}
	}
	if s.Next == nil {
		return problem.List{{Path: "next", Message: "no pending action; run recover to continue this state"}}
	}
	if s.Next.Awaiting != awaiting {
		return problem.List{{Path: "next.awaiting", Message: fmt.Sprintf("the deliberation awaits %s, not %s", article(s.Next.Awaiting), article(awaiting))}}
	}
	return nil
}

func article(s string) string {
	switch s {
	case "":
		return "nothing"
	case AwaitEvaluation:
		return "an evaluation"
	}
	return "a " + s
}

func (s *State) touch(now time.Time) {
	s.UpdatedAt = now.UTC().Format(time.RFC3339)
	s.Counters.Steps++
}

func (s *State) lastResponse() *Response {
	if len(s.Responses) == 0 {
		return nil
	}
	return &s.Responses[len(s.Responses)-1]
}

// Evaluate validates ev against the state, reporting every problem as a
// problem.List and leaving the state unchanged, or applies the rules and
// returns the next action (also in s.Next).
func (s *State) Evaluate(ev *Evaluation, now time.Time) (*Next, error) {
	if err := s.expect(AwaitEvaluation); err != nil {
		return nil, err
	}
	if ev == nil {
		return nil, problem.List{{Path: "evaluation", Message: "is nil: want the orchestrator's evaluation of the last response (an *Evaluation; EvaluateJSON takes its JSON document)"}}
	}
	if err := s.validateEvaluation(ev); err != nil {
		return nil, err
	}
	c := s.clone()
	c.assigned = &Assigned{}
	c.logPhaseMismatch()
	c.apply(ev)
	c.lastResponse().Evaluated = true
	c.touch(now)
	c.Next.Assigned = c.assigned.final(c)
	c.Next.Coverage = c.coverage
	*s = *c
	s.assigned, s.coverage = nil, nil
	return s.Next, nil
}

// phaseMismatch describes a stored phase that differs from the one derived
// from N (outside Extended CONSTRUCTIVE), or is "".
func (s *State) phaseMismatch() string {
	derived := phaseFor(s.Iteration)
	if s.Checks.Extended > 0 && s.Iteration <= 2+s.Checks.Extended {
		derived = Constructive
	}
	if s.quick() || !s.Phase.valid() || s.Phase == derived {
		return ""
	}
	return fmt.Sprintf("phase mismatch at iteration %d: stored %s, derived %s (the stored phase is used)", s.Iteration, s.Phase, derived)
}

// logPhaseMismatch logs a phase mismatch in the warnings, once: the seed's
// "Mismatch between derived and stored phase = trust file, log
// inconsistency". Status names it as a note while it lasts.
func (s *State) logPhaseMismatch() {
	if w := s.phaseMismatch(); w != "" && !slices.Contains(s.Warnings, w) {
		s.Warnings = append(s.Warnings, w)
	}
}

// abandon ends an active deliberation without a synthesis.
func (s *State) abandon(now time.Time) error {
	if !s.Active() {
		return problem.List{{Path: "status", Message: fmt.Sprintf("the deliberation is already %s", s.Status)}}
	}
	s.Status, s.ExitReason = StatusAbandoned, ExitAbandoned
	s.Consultation = nil // a consultation still running finds the deliberation over
	s.Next = &Next{Action: ActionExit, Iteration: s.Iteration, Reason: ExitAbandoned}
	s.touch(now)
	return nil
}

// apply runs the rules for a validated evaluation.
func (s *State) apply(ev *Evaluation) {
	if ev.SessionID != "" {
		id := ev.SessionID
		s.SessionID = &id
	}
	if ev.Response == ResponseDegraded {
		s.recoverDegraded(ev.Degraded)
		return
	}
	if ev.Response != ResponseValid {
		s.formatFailure(ev.Response)
		return
	}
	s.LastFailureType = failureNone
	if ev.Trivial != "" {
		s.Answer = ev.Trivial
		s.finish(ExitTrivial, "")
		return
	}
	s.addFacts(ev.Facts)
	s.SurfacedQuestions = append(s.SurfacedQuestions, ev.SurfacedQuestions...)
	if ev.RequireStressTest && s.Checks.StressTest == "" {
		s.Checks.StressTest = "required"
		if why := s.stressLimit(); why != "" {
			s.skipStress(why)
		}
	}
	if ev.RequestArbitration && s.Checks.Arbitration == "" {
		s.Checks.Arbitration = "requested"
	}
	switch s.pending() {
	case ActionCoverage:
		s.applyCoverage(ev)
	case ActionStress:
		s.applyStress(ev.StressTest)
	case ActionArbitrate:
		s.applyArbitration(ev.Arbitration)
		return
	default:
		s.applyExchange(ev)
	}
	if s.checkExits() {
		return
	}
	s.decide(s.scopeChanged)
}

// formatFailure handles an unusable response: N does not increment; a
// second consecutive failure exits (quality); quick mode allows one retry.
func (s *State) formatFailure(kind string) {
	failure := failureFormat
	if kind == ResponseQualityFailure {
		failure = failureQuality
	}
	switch {
	case s.quick() && s.Counters.Retries >= 1:
		s.finish(ExitQuickUnengaged, exitMsgQuickUnengage)
		return
	case s.LastFailureType == failureFormat || s.LastFailureType == failureQuality:
		s.finish(ExitQuality, exitMsgQuality)
		return
	}
	s.LastFailureType = failure
	s.Counters.Retries++
	retried, prompt := s.pending(), s.Next.Prompt
	s.setNext(ActionRetry, s.retryCall(retried, prompt))
	s.Next.For = retried
}

// recoverDegraded answers a degraded context (the answer ignores recent
// challenges, asks about settled facts or reverses positions without
// saying so): the pending step is sent again as the Recovery prompt, to a
// fresh session; N does not increment and no failure is counted.
func (s *State) recoverDegraded(signals []string) {
	s.Counters.Recoveries++
	s.Warnings = append(s.Warnings, fmt.Sprintf("Degraded context at iteration %d (%s): the step is sent again in a fresh session with the Recovery prompt.", s.Iteration, strings.Join(signals, ", ")))
	repeated := s.pending()
	s.FreshSession = true
	s.Next = &Next{Action: ActionRecover, For: repeated, Awaiting: AwaitResponse, Iteration: s.Iteration, Prompt: s.recovery(repeated)}
}

// applyExchange handles an ordinary response: defenses first, then drops,
// then the new points.
func (s *State) applyExchange(ev *Evaluation) {
	pendingBefore := slices.Clone(s.Pending)
	wasClarification := s.pending() == ActionClarify
	handled := map[string]bool{}
	for i, ce := range ev.Challenges {
		handled[ce.ID] = true
		s.evalPath = fmt.Sprintf("challenges[%d]", i)
		s.applyChallenge(ce)
	}
	if !wasClarification && !s.quick() {
		s.applyDrops(handled)
	}
	clarified := map[string]bool{}
	for i, p := range ev.Points {
		if p.Clarifies != "" {
			clarified[p.Clarifies] = true
		}
		s.applyPoint(fmt.Sprintf("points[%d]", i), p)
	}
	for _, id := range pendingBefore {
		if !clarified[id] && slices.Contains(s.Pending, id) {
			s.Pending = removeString(s.Pending, id)
			s.stall(id)
		}
	}
}

// checkExits ends the deliberation on the counted exits.
func (s *State) checkExits() bool {
	switch {
	case s.Counters.AnchorShifts >= maxAnchorShifts:
		s.finish(ExitAnchorShift, exitMsgAnchorShift)
	case s.Counters.IDRecoveries >= maxIDRecoveries:
		s.finish(ExitProtocol, exitMsgProtocol)
	case s.Counters.Stalls >= maxStalls:
		s.finish(ExitStalled, exitMsgStalled)
	default:
		return false
	}
	return true
}

// decide picks the next action after a valid exchange; newPoints says the
// exchange brought points into deliberation (scope not stable).
func (s *State) decide(newPoints bool) {
	n, limit := s.Iteration, MaxIterations
	if s.quick() {
		limit = QuickMaxIterations
	}
	switch {
	case len(s.Disputed) > 0 && n >= limit:
		s.capReached()
	case len(s.Disputed) > 0 || s.extend:
		s.advance(ActionCritique)
	case len(s.Pending) > 0:
		s.LastEvaluation = s.evaluationLine()
		s.setNext(ActionClarify, s.clarificationCall())
	case s.quick():
		s.finish(ExitConverged, "")
	case n < 2:
		s.advance(ActionCritique)
	case n == 2 && s.Checks.Coverage == "":
		s.Checks.Coverage = "asked"
		s.LastEvaluation = s.evaluationLine()
		s.setNext(ActionCoverage, s.coverageCall())
	case s.Checks.StressTest == "required" && s.stressAllowed():
		s.startStress()
	default:
		// From here on a required stress test can never run: N grows
		// past 3 or the deliberation ends.
		s.skipStress(s.stressBlocker())
		if newPoints && n > 2 && n < limit {
			s.advance(ActionCritique) // scope not stable: new points last exchange
			return
		}
		s.converge()
	}
}

// capReached ends a deliberation at the cap: remaining disputes go to
// Unresolved, and arbitration, when triggered, still comes first.
func (s *State) capReached() {
	s.unresolveDisputed()
	if s.arbitrationTriggered() {
		s.askArbitration(ExitCap)
		return
	}
	s.finish(ExitCap, "")
}

// unresolveDisputed writes the open challenges to Unresolved.
func (s *State) unresolveDisputed() {
	for _, id := range slices.Clone(s.Disputed) {
		c := s.Challenges[id]
		s.closeChallenge(id)
		s.unresolveBound(c, id+", open at the exit: "+c.Objection, UnresolvedOpen)
	}
}

// advance increments N (only after a valid response) and sends the
// Subsequent Call; phases derive from N unless an Extended CONSTRUCTIVE
// iteration set them.
func (s *State) advance(action string) {
	s.Iteration++
	s.Phase = phaseFor(s.Iteration)
	note := ""
	if s.Checks.Extended > 0 && s.Iteration <= 2+s.Checks.Extended {
		s.Phase = Constructive
	}
	if s.extend {
		note = extendedNote
	}
	if action == ActionCritique && s.onlyReminders() {
		action = ActionReminder
	}
	s.LastEvaluation = s.evaluationLine()
	s.setNext(action, s.subsequent("", note))
}

func (s *State) onlyReminders() bool {
	if len(s.Disputed) == 0 {
		return false
	}
	for _, id := range s.Disputed {
		if s.Challenges[id].Status != ChallengeDropped {
			return false
		}
	}
	return true
}

// converge ends a deliberation with no open challenges and stable scope,
// through arbitration when it is triggered.
func (s *State) converge() {
	if s.arbitrationTriggered() {
		s.askArbitration(ExitConverged)
		return
	}
	s.finish(ExitConverged, "")
}

// askArbitration sends the buckets to an arbiter before the exit.
func (s *State) askArbitration(exit string) {
	s.Checks.Arbitration = "asked"
	s.Checks.DeferredExit = exit
	s.setNext(ActionArbitrate, s.arbitrationCall())
}

func (s *State) arbitrationTriggered() bool {
	if s.quick() || s.Checks.Arbitration == "asked" || s.Checks.Arbitration == "done" {
		return false
	}
	return s.Checks.Arbitration == "requested" || len(s.Buckets.Unresolved) >= 2
}

// finish ends the deliberation with a reason that permits Synthesize:
// remaining disputes go to Unresolved, pending clarifications and
// unverified facts to Not evaluated.
func (s *State) finish(reason, message string) {
	s.unresolveDisputed()
	for _, id := range s.Pending {
		s.notEvaluated(id, s.pointText(id), "awaiting clarification when the deliberation ended")
	}
	s.Pending = nil
	s.skipStress(orDefault(s.stressBlocker(), "the deliberation ended ("+reason+") before it could run"))
	for _, f := range s.activeFacts() {
		if f.kind() == tagUnverified {
			s.NotEvaluated = append(s.NotEvaluated, NotEvaluated{ID: f.ID, Point: f.Raw, Reason: "codex-unverified fact, not verified by Synthesize"})
		}
	}
	s.Status, s.ExitReason = StatusFinished, reason
	action := ActionSynthesize
	if !synthesizable(reason) {
		action = ActionExit
	}
	if message == "" {
		message = reason
	}
	s.Next = &Next{Action: action, Iteration: s.Iteration, Reason: message}
}

func synthesizable(reason string) bool {
	switch reason {
	case ExitConverged, ExitCap, ExitTrivial, ExitQuality, ExitAnchorShift:
		return true
	}
	return false
}
