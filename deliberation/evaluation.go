package deliberation

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/internal/strictjson"
	"github.com/elicit/elicit/problem"
)

// Evaluation is the orchestrator's judgment of one consultee response: the
// decisions the protocol leaves to judgment. Everything mechanical (IDs,
// counts, phases, routing, reminders, exits) is the engine's.
type Evaluation struct {
	// Iteration must equal the state's iteration (a guard against an
	// evaluation meant for another step).
	Iteration int `json:"iteration"`
	// Response is valid, format_failure (no numbered points and cannot be
	// mapped to the disputes, or no evidence tags on verification claims),
	// quality_failure (structured but ignores the disputed points) or
	// degraded_context (the consultee's session has lost the thread: the
	// step goes again, as the Recovery prompt, to a fresh session).
	Response string `json:"response"`
	// Degraded are the signals of a degraded context: ignores_challenges
	// (ignores recent challenges), asks_settled (asks about established
	// facts), reverses_positions (contradicts its earlier positions
	// without saying so).
	Degraded []string `json:"degraded,omitempty"`
	// SessionID is the consultee's session ID, once known.
	SessionID string `json:"session_id,omitempty"`
	// Trivial, when set, is the direct answer: the question turned out
	// factual or trivial (allowed up to iteration 2).
	Trivial string `json:"trivial,omitempty"`
	// Points are the points of this response, canonicalized.
	Points []PointEval `json:"points,omitempty"`
	// Challenges judge the defenses of open challenges.
	Challenges []ChallengeEval `json:"challenges,omitempty"`
	// Facts are new ledger entries.
	Facts []FactEval `json:"facts,omitempty"`
	// RequireStressTest: all points agreed and the stakes, the uncertainty
	// or the speed of agreement call for a stress test.
	RequireStressTest bool `json:"require_stress_test,omitempty"`
	// RequestArbitration asks for arbitration before the synthesis (high
	// stakes, the user asked, early unanimity lacking evidence).
	RequestArbitration bool `json:"request_arbitration,omitempty"`
	// Coverage judges the answer to the coverage check.
	Coverage *CoverageEval `json:"coverage,omitempty"`
	// StressTest judges the answer to the stress test.
	StressTest *StressEval `json:"stress_test,omitempty"`
	// Arbitration records the arbiter's flags.
	Arbitration *ArbitrationEval `json:"arbitration,omitempty"`
	// SurfacedQuestions are empirical questions for the user.
	SurfacedQuestions []string `json:"surfaced_questions,omitempty"`
}

// Response kinds.
const (
	ResponseValid          = "valid"
	ResponseFormatFailure  = "format_failure"
	ResponseQualityFailure = "quality_failure"
	ResponseDegraded       = "degraded_context"
)

// The signals of a degraded context (the seed's detection heuristics).
const (
	DegradedIgnoresChallenges = "ignores_challenges"
	DegradedAsksSettled       = "asks_settled"
	DegradedReversesPositions = "reverses_positions"
)

// PointEval is one point of the response and its classification.
type PointEval struct {
	// Text is the point in the consultee's phrasing (about 50 words at
	// most: the core claim and its meaning-affecting qualifiers).
	Text string `json:"text"`
	// Triage is in-scope, out-of-scope or anchor-shift.
	Triage string `json:"triage"`
	// Drift marks the point against the Solution Space Mapping: tangent
	// (one of the likely tangents; triage out-of-scope) or drift (shows a
	// drift signal). Both are counted and named in the next prompt.
	Drift string `json:"drift,omitempty"`
	// ServesAnchor: an anchor-shift candidate serves the anchor better (it
	// is then treated as in-scope).
	ServesAnchor bool `json:"serves_anchor,omitempty"`
	// Kind is argument (the default) or evidence (per the Evidence
	// Definition: verifiable from shared artifacts without trusting the
	// consultee). Evidence is phase-exempt.
	Kind string `json:"kind,omitempty"`
	// Decisive: the evidence directly matches or contradicts the exact
	// predicate of a claim. When uncertain, leave false.
	Decisive bool `json:"decisive,omitempty"`
	// Confirms names the point (P#) whose exact predicate this decisive
	// evidence matches: it is Agreed at once, from wherever it stands.
	Confirms string `json:"confirms,omitempty"`
	// Refutes names the point (P#) whose exact predicate this decisive
	// evidence contradicts: it is Dismissed REJECTED with the evidence at
	// once, from wherever it stands (Agreed, disputed, Unresolved
	// blocked). The direction is the evaluation's to say: the old "flips"
	// guessed it from the point's bucket and is refused.
	Refutes string `json:"refutes,omitempty"`
	// Revises names an earlier point (P#) this one revises.
	Revises string `json:"revises,omitempty"`
	// SameCoreClaim: the revision addresses the same core claim (adds
	// specificity); otherwise, after iteration 2, it is a new argument.
	SameCoreClaim bool `json:"same_core_claim,omitempty"`
	// Clarifies names the ILL-FORMED point (P#) this sharpens.
	Clarifies string `json:"clarifies,omitempty"`
	// Group joins SKEPTICAL points that share one flaw into one challenge
	// with indexed bindings (C1 [P9, P10]); each binding is adjudicated
	// separately after the defense.
	Group string `json:"group,omitempty"`
	// Theme and Blocking group points when there are more than 7.
	Theme    string `json:"theme,omitempty"`
	Blocking bool   `json:"blocking,omitempty"`
	// Overflow: not deliberated for lack of budget (goes to Not evaluated).
	Overflow bool `json:"overflow,omitempty"`
	// Classification is AGREE, SKEPTICAL, REJECT, ILL-FORMED or BLOCKED.
	Classification string `json:"classification,omitempty"`
	// ClaimType is empirical or value.
	ClaimType string `json:"claim_type,omitempty"`
	// EvidenceType is execution, textual, claim or n/a.
	EvidenceType string `json:"evidence_type,omitempty"`
	// Evidence, Flaw, UpgradeIf, WhyTerminal, Clarify and Reason are the
	// classification output of the seed, tiered by stakes.
	Evidence    string `json:"evidence,omitempty"`
	Flaw        string `json:"flaw,omitempty"`
	UpgradeIf   string `json:"upgrade_if,omitempty"`
	WhyTerminal string `json:"why_terminal,omitempty"`
	Clarify     string `json:"clarify,omitempty"`
	Reason      string `json:"reason,omitempty"`
	// ReliesOn names the ledger entries (F#) an AGREE rests on.
	ReliesOn []string `json:"relies_on,omitempty"`
	// Blocked is the Blocked definition of a BLOCKED point.
	Blocked *Blocked `json:"blocked,omitempty"`
	// Ungrounded marks a SKEPTICAL value claim made without an observable
	// referent (preamble rule 10): it is challenged once with "Reframe with
	// observable referents or withdraw"; still ungrounded → UNGROUNDED.
	Ungrounded bool `json:"ungrounded,omitempty"`
	// Dependency marks a claim about dependencies, platform behaviour or
	// operational assumptions (the Dependency Gate).
	Dependency *Dependency `json:"dependency,omitempty"`
}

// Blocked is what makes an entry Blocked: the missing measurement, its
// threshold, and how the verdict changes.
type Blocked struct {
	Measurement  string `json:"measurement"`
	Threshold    string `json:"threshold"`
	VerdictDelta string `json:"verdict_delta"`
}

// Dependency is the Dependency Gate's view of a claim.
type Dependency struct {
	// Confidence is CERTAIN, LIKELY or GUESS.
	Confidence string `json:"confidence"`
	// Operation is the granular operation that fails without the
	// dependency (required for CERTAIN and LIKELY).
	Operation string `json:"operation,omitempty"`
	// Alternative is the simplest alternative (fewer dependencies), and
	// AlternativeConfidence its confidence.
	Alternative           string `json:"alternative,omitempty"`
	AlternativeConfidence string `json:"alternative_confidence,omitempty"`
}

// ChallengeEval judges the response to one open challenge.
type ChallengeEval struct {
	// ID is the challenge (C#).
	ID string `json:"id"`
	// Outcome is accepted, rejected, refuted, conceded, partial, corrected,
	// upgraded, evaluating, missing_id or adjudicated (grouped challenges).
	Outcome string `json:"outcome"`
	// EvidenceType backs an accepted point: execution, textual or n/a.
	EvidenceType string `json:"evidence_type,omitempty"`
	// ClaimType settles the claim type of the challenged point when it was
	// not given (a SKEPTICAL point needs none): accepting on n/a needs
	// value.
	ClaimType string `json:"claim_type,omitempty"`
	// Defense is the consultee's defense in a line, for the Recovery
	// prompt; by default the answer's lines that reference the challenge.
	Defense string `json:"defense,omitempty"`
	// Reason is a one-line reason for the outcome; Evidence is required to
	// refute.
	Reason   string `json:"reason,omitempty"`
	Evidence string `json:"evidence,omitempty"`
	// ConcededPart and Narrowed describe a partial defense; Narrowed is
	// also the corrected claim.
	ConcededPart string `json:"conceded_part,omitempty"`
	Narrowed     string `json:"narrowed,omitempty"`
	// Concession is required to accept a dependency claim.
	Concession *Concession `json:"concession,omitempty"`
	// Deadlock classifies a challenge open for 3+ iterations:
	// missing-data, definitional, criteria or terms-unclear.
	Deadlock string `json:"deadlock,omitempty"`
	Crux     string `json:"crux,omitempty"`
	// Blocked is required for a missing-data deadlock.
	Blocked *Blocked `json:"blocked,omitempty"`
	// Bindings judge each point of a grouped challenge (outcome
	// adjudicated).
	Bindings []BindingEval `json:"bindings,omitempty"`
}

// BindingEval judges one binding of a grouped challenge: sustained (the
// flaw holds: Dismissed) or withdrawn (the challenge is withdrawn for this
// point: Agreed, with its evidence type).
type BindingEval struct {
	ID           string `json:"id"`
	Outcome      string `json:"outcome"`
	EvidenceType string `json:"evidence_type,omitempty"`
	// ClaimType settles the point's claim type, as in ChallengeEval.
	ClaimType string `json:"claim_type,omitempty"`
	Reason    string `json:"reason,omitempty"`
	// Concession is required to agree to a dependency claim.
	Concession *Concession `json:"concession,omitempty"`
}

// Binding outcomes.
const (
	BindingSustained = "sustained"
	BindingWithdrawn = "withdrawn"
)

// Concession is the Dependency Gate's concession: the granular operation
// that fails in the simpler version and verifiable evidence.
type Concession struct {
	Operation string `json:"operation"`
	Evidence  string `json:"evidence"`
}

// FactEval is a new ledger entry.
type FactEval struct {
	// Tag is user, verified, codex-unverified or revision.
	Tag string `json:"tag"`
	// Ref is the reference of a verified fact (api.py:42).
	Ref  string `json:"ref,omitempty"`
	Text string `json:"text"`
	// Supersedes names the entry this one replaces (F#).
	Supersedes string `json:"supersedes,omitempty"`
}

// CoverageEval judges the answer to "What's missing from this analysis?".
type CoverageEval struct {
	// Artifacts are the facts, tests, code or outputs the answer cites;
	// the engine checks each against the earlier responses (NEW means not
	// cited before).
	Artifacts []string `json:"artifacts,omitempty"`
	// Attack: the evidence contradicts an item or reveals a gap that
	// invalidates current conclusions.
	Attack bool `json:"attack,omitempty"`
	// Contradicts names the Agreed point (P#) it contradicts.
	Contradicts string `json:"contradicts,omitempty"`
	// Summary is the gap in one line.
	Summary string `json:"summary,omitempty"`
}

// StressEval classifies the steelmanned objection.
type StressEval struct {
	// Objection is the objection in one line.
	Objection string `json:"objection"`
	// Classification is fatal, unresolved, mitigable, refuted or
	// inconclusive.
	Classification string `json:"classification"`
	// Impact is the set of Agreed points (P#) affected; empty means all.
	Impact []string `json:"impact,omitempty"`
	// Mitigation is the confirmed mitigation text (mitigable).
	Mitigation string `json:"mitigation,omitempty"`
	// Evidence is the orchestrator's evidence (refuted).
	Evidence string `json:"evidence,omitempty"`
	// TopLineAffected: the top-line recommendation is affected.
	TopLineAffected bool   `json:"top_line_affected,omitempty"`
	NextStep        string `json:"next_step,omitempty"`
}

// ArbitrationEval records an arbiter's flags.
type ArbitrationEval struct {
	Flagged []Concern `json:"flagged"`
}

// DecodeEvaluation strictly decodes an evaluation document: one JSON
// object, valid UTF-8, no unknown or duplicate key, every value of its JSON
// type. Every problem is reported, as a problem.List whose paths locate it
// (points[2].text). It does not validate the evaluation against a state;
// Evaluate does, and EvaluateJSON does both in one pass.
func DecodeEvaluation(data []byte) (*Evaluation, error) {
	ev, d, err := decodeEvaluation(data)
	if err != nil {
		return nil, err
	}
	if err := d.Problems.Err(); err != nil {
		return nil, err
	}
	return ev, nil
}

// decodeEvaluation decodes what it can of a document: the evaluation, with
// the fields that did not decode left zero, and the decoder's problems. An
// error means the document is not a JSON object at all.
func decodeEvaluation(data []byte) (*Evaluation, *strictjson.Decoder, error) {
	doc, fault := strictjson.Read(data, strictjson.Options{})
	if fault != nil {
		return nil, nil, problem.List{{Message: "evaluation is not valid: " + fault.Error()}}
	}
	d := &strictjson.Decoder{Data: doc.Data}
	retireFlips(d, &doc.Root, nil)
	var ev Evaluation
	d.Decode("", &doc.Root, &ev)
	requireText(d, &doc.Root, "points", "the point in the consultee's words")
	requireText(d, &doc.Root, "facts", "the fact itself")
	return &ev, d, nil
}

// unrecordedFlaw stands for the flaw of an ILL-FORMED point evaluated
// before the flaw was required.
const unrecordedFlaw = "the flaw was not recorded with this evaluation"

// retiredFlips is the problem of the retired key flips: it said which
// point decisive evidence bears on, not which way, and the engine guessed
// the direction from the point's bucket (anything not Agreed was Agreed,
// so evidence against a claim not yet agreed confirmed it).
const retiredFlips = "is replaced by confirms and refutes: give confirms: P# when the evidence matches the point's exact predicate (the point is Agreed), refutes: P# when it contradicts it (the point is Dismissed REJECTED with the evidence)"

// retireFlips takes the key flips out of every point before decoding and
// reports it with the keys that replace it (an unknown key would get a
// guess at a key it never meant). With legacy, which says which way the
// named point went when the evaluation was recorded, flips becomes that
// key instead: a transcript written before flips was retired replays.
func retireFlips(d *strictjson.Decoder, root *jsonnode.Node, legacy func(point string) string) {
	list := root.Get("points")
	if root.Kind != jsonnode.Object || list == nil || list.Kind != jsonnode.Array {
		return
	}
	for i := range list.Items {
		it := &list.Items[i]
		if it.Kind != jsonnode.Object {
			continue
		}
		it.Members = slices.DeleteFunc(it.Members, func(m jsonnode.Member) bool {
			if m.Key != "flips" {
				return false
			}
			if legacy != nil && m.Value.Kind == jsonnode.String {
				return false
			}
			d.Problems.Add(fmt.Sprintf("points[%d].flips", i), retiredFlips)
			return true
		})
		for j := range it.Members {
			if m := &it.Members[j]; m.Key == "flips" {
				m.Key = legacy(m.Value.Text)
			}
		}
	}
}

// decodeRecorded decodes an evaluation a transcript recorded, for replay
// onto s. It reads what elicit accepted before 2026-12-01: flips (which
// flipped its point: a point in Agreed went to Dismissed, any other to
// Agreed, as the engine did then) as refutes or confirms, and an
// ILL-FORMED point without its flaw as one whose flaw was not recorded.
func decodeRecorded(s *State, data []byte) (*Evaluation, error) {
	doc, fault := strictjson.Read(data, strictjson.Options{})
	if fault != nil {
		return nil, problem.List{{Message: "evaluation is not valid: " + fault.Error()}}
	}
	d := &strictjson.Decoder{Data: doc.Data}
	retireFlips(d, &doc.Root, func(point string) string {
		if slices.ContainsFunc(s.Buckets.Agreed, func(a Agreed) bool { return a.ID == point }) {
			return "refutes"
		}
		return "confirms"
	})
	var ev Evaluation
	d.Decode("", &doc.Root, &ev)
	if err := d.Problems.Err(); err != nil {
		return nil, err
	}
	if s.validateEvaluation(&ev) != nil {
		// Where the rules now ask for the flaw the recorded evaluation
		// did not give, it stands as not recorded.
		for i := range ev.Points {
			if pt := &ev.Points[i]; pt.Classification == ClassIllFormed && strings.TrimSpace(pt.Flaw) == "" {
				pt.Flaw = unrecordedFlaw
			}
		}
	}
	return &ev, nil
}

// requireText names an item of the list at key without a text key as
// missing it: decoded, it would only read as empty.
func requireText(d *strictjson.Decoder, root *jsonnode.Node, key, want string) {
	list := root.Get(key)
	if list == nil || list.Kind != jsonnode.Array {
		return
	}
	for i := range list.Items {
		path := fmt.Sprintf("%s[%d].text", key, i)
		if it := &list.Items[i]; it.Kind == jsonnode.Object && it.Get("text") == nil && !d.Covers(path) {
			d.Problems.Add(path, "is required (%s)", want)
		}
	}
}

// evaluateJSON decodes an evaluation document and applies it, reporting
// every problem in one pass: the document's own (unknown keys, wrong
// types) and those of its judgments against the state, without repeating
// a problem at a path the document already got wrong.
func (s *State) evaluateJSON(doc []byte, now time.Time) (*Next, error) {
	ev, d, err := decodeEvaluation(doc)
	if err != nil {
		return nil, err
	}
	if len(d.Problems) == 0 {
		return s.Evaluate(ev, now)
	}
	probs := d.Problems
	if err := s.expect(AwaitEvaluation); err != nil {
		return nil, err
	}
	var checked problem.List
	if err := s.validateEvaluation(ev); err != nil {
		checked, _ = err.(problem.List)
	}
	for _, p := range checked {
		if !d.Covers(p.Path) {
			probs = append(probs, p)
		}
	}
	return nil, probs
}
