package deliberation

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/elicit/elicit/problem"
)

// SchemaVersion is the version of the seed's state file schema.
const SchemaVersion = 1

// MaxIterations is the iteration cap of a full deliberation;
// QuickMaxIterations the cap in quick mode.
const (
	MaxIterations      = 8
	QuickMaxIterations = 2
)

// Phase restricts what content an iteration may introduce.
type Phase string

// The three phases.
const (
	Constructive    Phase = "CONSTRUCTIVE"    // iterations 1-2: all arguable points are raised
	Development     Phase = "DEVELOPMENT"     // iterations 3-5: challenges and defenses only
	Crystallization Phase = "CRYSTALLIZATION" // iterations 6-8: only decisive evidence
)

// phaseFor is the default phase of iteration n: CONSTRUCTIVE (n≤2),
// DEVELOPMENT (3≤n≤5), CRYSTALLIZATION (n≥6).
func phaseFor(n int) Phase {
	switch {
	case n <= 2:
		return Constructive
	case n <= 5:
		return Development
	}
	return Crystallization
}

func (p Phase) valid() bool {
	return p == Constructive || p == Development || p == Crystallization
}

// Status is the lifecycle of a deliberation (an extension of the seed's
// schema, which cannot tell a finished run from an interrupted one).
type Status string

// The statuses.
const (
	StatusActive    Status = "active"
	StatusFinished  Status = "finished"
	StatusAbandoned Status = "abandoned"
)

// Mode is full (the default) or quick.
type Mode string

// The modes.
const (
	ModeFull  Mode = "full"
	ModeQuick Mode = "quick"
)

// ChallengeStatus tracks the consultee's behaviour, not the outcome: the
// bucket holds the outcome.
type ChallengeStatus string

// The challenge statuses of the seed.
const (
	ChallengeOpen       ChallengeStatus = "open"
	ChallengeDefended   ChallengeStatus = "defended"
	ChallengeDropped    ChallengeStatus = "dropped"
	ChallengeUndefended ChallengeStatus = "undefended"
	ChallengeConceded   ChallengeStatus = "conceded"
)

func (c ChallengeStatus) valid() bool {
	switch c {
	case ChallengeOpen, ChallengeDefended, ChallengeDropped, ChallengeUndefended, ChallengeConceded:
		return true
	}
	return false
}

// State is one deliberation: the seed's schema version 1, field for field,
// followed by elicit's extension fields. A file written by the original skill
// has none of the extensions and is read and continued as it is.
type State struct {
	Version         int                   `json:"version"`
	SessionID       *string               `json:"session_id"`
	QuestionExcerpt string                `json:"question_excerpt"`
	CreatedAt       string                `json:"created_at"`
	UpdatedAt       string                `json:"updated_at"`
	Iteration       int                   `json:"iteration"`
	Phase           Phase                 `json:"phase"`
	Challenges      map[string]*Challenge `json:"challenges"`
	Ledger          []string              `json:"ledger"`
	Disputed        []string              `json:"disputed"`
	SSM             SSM                   `json:"ssm"`
	Buckets         Buckets               `json:"buckets"`
	LastFailureType string                `json:"last_failure_type"`

	// Extensions (elicit). All optional when reading.

	// Status is active, finished or abandoned; empty reads as active.
	Status Status `json:"status,omitempty"`
	// Mode is full or quick; empty reads as full.
	Mode Mode `json:"mode,omitempty"`
	// Question is the user's question verbatim (the seed keeps only an
	// excerpt, which the Recovery prompt then has to use).
	Question string `json:"question,omitempty"`
	// Transcript is the file name of the JSON-lines transcript.
	Transcript string `json:"transcript,omitempty"`
	// TranscriptOffset is the transcript's size after the last record this
	// state includes: records beyond it (a crash between writing them and
	// the state) are applied on the next load.
	TranscriptOffset int64 `json:"transcript_offset,omitempty"`
	// ExitReason says why a finished deliberation stopped.
	ExitReason string `json:"exit_reason,omitempty"`
	// Interpretations are the two readings of a critical ambiguity (the
	// first is the default); Paths the absolute paths the consultee reads.
	Interpretations []string `json:"interpretations,omitempty"`
	Paths           []string `json:"paths,omitempty"`
	// LedgerBudget caps the characters of ledger shown in a prompt (0: no
	// cap); over it, prompts keep the user entries and those the open
	// disputes cite, and list the IDs left out.
	LedgerBudget int `json:"ledger_budget,omitempty"`
	// Answer is the direct answer of an early exit (trivial).
	Answer string `json:"answer,omitempty"`
	// Points registers every point by ID (P1, P2, ...); each is in exactly
	// one place: a bucket, not_evaluated, a disputed challenge or pending.
	Points map[string]*Point `json:"points,omitempty"`
	// NotEvaluated holds points outside the buckets (phase violations,
	// overflow, unverified facts at the end).
	NotEvaluated []NotEvaluated `json:"not_evaluated,omitempty"`
	// Pending lists ILL-FORMED points awaiting their one clarification.
	Pending []string `json:"pending_clarification,omitempty"`
	// SurfacedQuestions are empirical questions for the user.
	SurfacedQuestions []string `json:"surfaced_questions,omitempty"`
	// ArbitrationConcerns are the points an arbiter flagged.
	ArbitrationConcerns []Concern `json:"arbitration_concerns,omitempty"`
	// Warnings are notes for the synthesis ("undeliberated blocking claims
	// exist") and logged inconsistencies.
	Warnings []string `json:"warnings,omitempty"`
	// Checks records the coverage check, stress test and arbitration.
	Checks Checks `json:"checks"`
	// Counters holds the counts the exits depend on.
	Counters Counters `json:"counters"`
	// Responses are the consultee's answers, in order.
	Responses []Response `json:"responses,omitempty"`
	// Next is the pending action and its prompt.
	Next *Next `json:"next,omitempty"`
	// LastEvaluation is the Evaluation line of the last prompt that carried
	// one; a retry resends it and the Recovery prompt restates it.
	LastEvaluation string `json:"last_evaluation,omitempty"`
	// Consultant is the consultant whose session SessionID is ("codex",
	// "command:claude -p"); another consultant gets a fresh session.
	Consultant string `json:"consultant,omitempty"`
	// FreshSession: the next answer must come from a fresh consultant
	// session given the Recovery prompt (after recover, or a degraded
	// context).
	FreshSession bool `json:"fresh_session,omitempty"`
	// Consultation is the consultant call in flight, if any.
	Consultation *Consultation `json:"consultation,omitempty"`
	// Owner is the user who started the deliberation on a server that
	// knows its callers (a tokens file): only they read and change it.
	Owner string `json:"owner,omitempty"`

	// round collects this exchange's verdicts for the next prompt.
	round []verdict
	// incoming maps the IDs of facts being validated to their tags.
	incoming map[string]string
	// closing maps the challenges the evaluation being validated closes by
	// its points (a revision in place, decisive evidence) to the path of
	// the point that closes each.
	closing map[string]string
	// groups maps this exchange's challenge groups to their challenge.
	groups map[string]string
	// scopeChanged: this exchange brought new points into deliberation.
	scopeChanged bool
	// extend: a coverage check found NEW evidence that passes the ATTACK
	// test, so an Extended CONSTRUCTIVE iteration follows.
	extend bool
	// evalPath is the path of the challenge judgment being applied.
	evalPath string
	// drifted names this exchange's points marked tangent or drift.
	drifted []string
	// seqP and seqC are the highest point and challenge numbers in use,
	// found once per step (0: not yet).
	seqP, seqC int
	// lx is the parsed ledger, kept in step with Ledger.
	lx *ledgerIndex
	// assigned collects the IDs this evaluation assigned.
	assigned *Assigned
	// coverage is what this evaluation's coverage check found.
	coverage *CoverageResult
}

// Challenge is an objection to a point that must be defended by ID or
// conceded.
type Challenge struct {
	Point        string          `json:"point"`
	Objection    string          `json:"objection"`
	RaisedIter   int             `json:"raised_iter"`
	Status       ChallengeStatus `json:"status"`
	ReminderSent bool            `json:"reminder_sent"`

	// Extensions (elicit).

	// PointID is the challenged point (P#).
	PointID string `json:"point_id,omitempty"`
	// Bindings are the points of a grouped challenge (C1 [P9, P10]).
	Bindings []string `json:"bindings,omitempty"`
	// Kind is SKEPTICAL (the default) or REJECT (one defense round).
	Kind string `json:"kind,omitempty"`
	// UpgradeIf says what evidence would upgrade the point.
	UpgradeIf string `json:"upgrade_if,omitempty"`
	// Narrowed is the narrowed claim after a partial defense.
	Narrowed string `json:"narrowed,omitempty"`
	// AwaitingConfirmation: the narrowed claim was sent for confirmation.
	AwaitingConfirmation bool `json:"awaiting_confirmation,omitempty"`
	// Corrections counts corrections of the narrowed claim (at most one).
	Corrections int `json:"corrections,omitempty"`
	// IDRecovery: the one missing-ID recovery was used.
	IDRecovery bool `json:"id_recovery,omitempty"`
	// AwaitingID: the missing-ID confirmation was sent.
	AwaitingID bool `json:"awaiting_id,omitempty"`
	// DefinitionalRetry: the one definitional retry of a deadlock was used.
	DefinitionalRetry bool `json:"definitional_retry,omitempty"`
	// Defense is the consultee's last defense, in its words (the
	// evaluation's, or the answer's lines that reference the challenge).
	Defense string `json:"defense,omitempty"`
}

// SSM is the Solution Space Mapping.
type SSM struct {
	Shape        string `json:"shape,omitempty"`
	Tangents     string `json:"tangents,omitempty"`
	DriftSignals string `json:"drift_signals,omitempty"`
}

// Buckets hold the outcome of every evaluated point.
type Buckets struct {
	Agreed     []Agreed     `json:"agreed"`
	Dismissed  []Dismissed  `json:"dismissed"`
	Unresolved []Unresolved `json:"unresolved"`
}

// Agreed is a point accepted on its evidence.
type Agreed struct {
	Point        string `json:"point"`
	EvidenceType string `json:"evidence_type"`
	Reason       string `json:"reason"`
	ID           string `json:"id,omitempty"`
	// Mitigation makes the point conditional (stress test, mitigable).
	Mitigation string `json:"mitigation,omitempty"`
}

// Dismissed is a point not accepted; Tag says why.
type Dismissed struct {
	Point  string `json:"point"`
	Tag    string `json:"tag"`
	Reason string `json:"reason"`
	ID     string `json:"id,omitempty"`
}

// Unresolved is a point neither side could settle.
type Unresolved struct {
	Point  string `json:"point"`
	Crux   string `json:"crux"`
	Status string `json:"status"`
	ID     string `json:"id,omitempty"`
}

// Point is a registered point.
type Point struct {
	Text       string `json:"text"`
	RaisedIter int    `json:"raised_iter"`
	ClaimType  string `json:"claim_type,omitempty"`
	Theme      string `json:"theme,omitempty"`
	Blocking   bool   `json:"blocking,omitempty"`
	Dependency bool   `json:"dependency,omitempty"`
	// Issue and Clarify are an ILL-FORMED point's problem and question.
	Issue   string `json:"issue,omitempty"`
	Clarify string `json:"clarify,omitempty"`
	// Drift is tangent or drift when the evaluation marked the point
	// against the Solution Space Mapping.
	Drift string `json:"drift,omitempty"`
}

// NotEvaluated is content outside the buckets, with the reason.
type NotEvaluated struct {
	ID       string `json:"id,omitempty"`
	Point    string `json:"point"`
	Reason   string `json:"reason"`
	Blocking bool   `json:"blocking,omitempty"`
}

// Concern is a point flagged by arbitration.
type Concern struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// Checks records the one-off steps of the protocol.
type Checks struct {
	// Coverage is "", "asked" or "done".
	Coverage string `json:"coverage,omitempty"`
	// StressTest is "", "required", "asked", "done" or "skipped".
	StressTest string `json:"stress_test,omitempty"`
	// StressSkipped says why a required stress test was not run.
	StressSkipped string `json:"stress_test_skipped,omitempty"`
	// Extended counts Extended CONSTRUCTIVE iterations (at most 2).
	Extended int `json:"extended,omitempty"`
	// Arbitration is "", "requested", "asked" or "done".
	Arbitration string `json:"arbitration,omitempty"`
	// DeferredExit is the exit reason waiting for the arbitration.
	DeferredExit string `json:"deferred_exit,omitempty"`
}

// Counters hold the counts the exits depend on.
type Counters struct {
	AnchorShifts int `json:"anchor_shifts,omitempty"`
	IDRecoveries int `json:"id_recoveries,omitempty"`
	Stalls       int `json:"stalls,omitempty"`
	Retries      int `json:"retries,omitempty"`
	// Tangents and Drift count the points marked tangent or drift.
	Tangents int `json:"tangents,omitempty"`
	Drift    int `json:"drift,omitempty"`
	// Recoveries counts degraded contexts recovered in a fresh session.
	Recoveries int `json:"recoveries,omitempty"`
	// Steps counts accepted operations (respond, evaluate).
	Steps int `json:"steps,omitempty"`
}

// Response is one answer of the consultee.
type Response struct {
	Iteration int    `json:"iteration"`
	Action    string `json:"action"`
	Text      string `json:"text"`
	// Refs are the challenge IDs the text references (C1, Re C1, ...).
	Refs []string `json:"refs,omitempty"`
	// Evaluated is set once an evaluation consumed the response.
	Evaluated bool `json:"evaluated,omitempty"`
}

// excerptLen is the length of question_excerpt.
const excerptLen = 100

// StartOptions configure New. The zero value (or nil) is a full deliberation
// with an empty ledger.
type StartOptions struct {
	// Quick selects quick mode: at most 2 iterations, no phases, ledger or
	// challenge IDs.
	Quick bool `json:"quick,omitempty"`
	// Facts are user-provided ledger entries (F1 [user]: ...).
	Facts []string `json:"facts,omitempty"`
	// SSM is the Solution Space Mapping, kept for drift detection.
	SSM SSM `json:"ssm"`
	// Interpretations, when given, are exactly two readings of a critical
	// ambiguity; the first is the default ("No scope blockers." otherwise).
	Interpretations []string `json:"interpretations,omitempty"`
	// Paths are absolute paths of files the consultee should read.
	Paths []string `json:"paths,omitempty"`
	// LedgerBudget caps the characters of ledger per prompt (0: no cap).
	// When the user facts alone exceed it, the deliberation does not start.
	LedgerBudget int `json:"ledger_budget,omitempty"`
	// Owner is the user starting the deliberation (see State.Owner).
	Owner string `json:"owner,omitempty"`
}

func startOptions(opts *StartOptions) StartOptions {
	if opts == nil {
		return StartOptions{}
	}
	return *opts
}

// New starts a deliberation on question at time now and sets Next to the
// First Call prompt. It returns a problem.List when the question is missing
// (the invocation check: no substantive question, no deliberation).
func New(question string, opts *StartOptions, now time.Time) (*State, error) {
	var o StartOptions
	if opts != nil {
		o = *opts
	}
	if err := checkInvocation(question, o); err != nil {
		return nil, err
	}
	ts := now.UTC().Format(time.RFC3339)
	s := &State{
		Version:         SchemaVersion,
		QuestionExcerpt: excerpt(question),
		CreatedAt:       ts,
		UpdatedAt:       ts,
		Iteration:       1,
		Phase:           Constructive,
		Challenges:      map[string]*Challenge{},
		Ledger:          []string{},
		Disputed:        []string{},
		SSM:             o.SSM,
		LastFailureType: failureNone,
		Status:          StatusActive,
		Mode:            ModeFull,
		Question:        question,
		Points:          map[string]*Point{},
		Interpretations: o.Interpretations,
		Paths:           o.Paths,
		LedgerBudget:    o.LedgerBudget,
		Owner:           o.Owner,
	}
	if o.Quick {
		s.Mode = ModeQuick
	}
	for _, f := range o.Facts {
		s.addFact(tagUser, "", strings.TrimSpace(f), "")
	}
	s.setNext(ActionAsk, s.firstCall())
	return s, nil
}

func excerpt(q string) string {
	r := []rune(strings.TrimSpace(q))
	if len(r) > excerptLen {
		r = r[:excerptLen]
	}
	return string(r)
}

// quick reports whether s is a quick-mode deliberation.
func (s *State) quick() bool { return s.Mode == ModeQuick }

// Active reports whether s still accepts responses and evaluations.
func (s *State) Active() bool { return s.Status == "" || s.Status == StatusActive }

// questionText is the question verbatim, or the excerpt when the state was
// written by the original skill.
func (s *State) questionText() string {
	if s.Question != "" {
		return s.Question
	}
	return s.QuestionExcerpt
}

// clone returns a deep copy of s (through JSON: the state is plain data).
func (s *State) clone() *State {
	b, err := json.Marshal(s)
	if err != nil {
		panic("deliberation: state does not marshal: " + err.Error())
	}
	var c State
	if err := json.Unmarshal(b, &c); err != nil {
		panic("deliberation: state does not unmarshal: " + err.Error())
	}
	c.normalize()
	return &c
}

// normalize replaces nil collections with empty ones, so the file always
// carries every key of the seed's schema as {} or [].
func (s *State) normalize() {
	if s.Challenges == nil {
		s.Challenges = map[string]*Challenge{}
	}
	if s.Ledger == nil {
		s.Ledger = []string{}
	}
	if s.Disputed == nil {
		s.Disputed = []string{}
	}
	if s.Buckets.Agreed == nil {
		s.Buckets.Agreed = []Agreed{}
	}
	if s.Buckets.Dismissed == nil {
		s.Buckets.Dismissed = []Dismissed{}
	}
	if s.Buckets.Unresolved == nil {
		s.Buckets.Unresolved = []Unresolved{}
	}
	if s.LastFailureType == "" {
		s.LastFailureType = failureNone
	}
	if s.Points == nil {
		s.Points = map[string]*Point{}
	}
}

// CheckStart reports every problem of a start's question and options, as
// Start would, without starting anything.
func CheckStart(question string, opts *StartOptions) error {
	var o StartOptions
	if opts != nil {
		o = *opts
	}
	return checkInvocation(question, o)
}

// inFile is what to do with a start text over MaxQuestion.
const inFile = "keep it short and put longer material in a file the consultee reads (its absolute path in paths, --path)"

// capText adds a problem when a start input of n bytes is over MaxQuestion.
func capText(p *problem.List, path, what string, n int, fix string) {
	if n > MaxQuestion {
		p.Add(path, "is %d bytes, over the cap of %d KiB for %s (every prompt may carry it): %s", n, MaxQuestion>>10, what, fix)
	}
}

func totalLen(texts ...string) int {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return n
}

// checkInvocation is the invocation check: an explicit request (calling
// New is one) and a substantive question. The question must be non-empty;
// whether it needs several iterations is the caller's judgment (the
// trivial early exit catches the rest by iteration 2).
func checkInvocation(question string, o StartOptions) error {
	var p problem.List
	if strings.TrimSpace(question) == "" {
		p.Add("question", "is empty: skill not invoked: no substantive question")
	}
	checkUTF8(&p, "question", question)
	for i, f := range o.Facts {
		if strings.TrimSpace(f) == "" {
			p.Add(fmt.Sprintf("facts[%d]", i), "is empty")
		}
		checkUTF8(&p, fmt.Sprintf("facts[%d]", i), f)
	}
	checkUTF8(&p, "ssm.shape", o.SSM.Shape)
	checkUTF8(&p, "ssm.tangents", o.SSM.Tangents)
	checkUTF8(&p, "ssm.drift_signals", o.SSM.DriftSignals)
	if n := len(o.Interpretations); n != 0 && n != 2 {
		p.Add("interpretations", "%d given, want exactly 2 (A, the default, and B) or none", n)
	}
	for i, in := range o.Interpretations {
		checkUTF8(&p, fmt.Sprintf("interpretations[%d]", i), in)
	}
	for i, path := range o.Paths {
		if !filepath.IsAbs(path) {
			p.Add(fmt.Sprintf("paths[%d]", i), "%q is not absolute (the consultee may run elsewhere)", path)
		}
		checkUTF8(&p, fmt.Sprintf("paths[%d]", i), path)
	}
	capText(&p, "question", "a deliberation's question", len(question), inFile)
	capText(&p, "facts", "the user facts together", totalLen(o.Facts...), inFile)
	capText(&p, "interpretations", "the interpretations together", totalLen(o.Interpretations...), inFile)
	capText(&p, "ssm", "the Solution Space Mapping (shape, tangents, drift_signals together)", totalLen(o.SSM.Shape, o.SSM.Tangents, o.SSM.DriftSignals), inFile)
	capText(&p, "paths", "the paths together", totalLen(o.Paths...), "name fewer files, or a folder")
	if o.LedgerBudget < 0 {
		p.Add("ledger_budget", "is %d, want 0 (no cap) or more", o.LedgerBudget)
	}
	if n := userFactsSize(o.Facts); o.LedgerBudget > 0 && n > o.LedgerBudget {
		p.Add("facts", "the user facts need %d characters, over the ledger budget of %d: %s", n, o.LedgerBudget, overCapacity)
	}
	if o.Quick && len(o.Facts) > 0 {
		p.Add("facts", "quick mode keeps no ledger (it is for questions without constraints or non-goals; use full mode)")
	}
	return p.Err()
}
