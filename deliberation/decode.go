package deliberation

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/elicit/elicit/internal/strictjson"
	"github.com/elicit/elicit/problem"
)

// requiredKeys are the top-level keys of the seed's schema version 1.
var requiredKeys = []string{
	"version", "session_id", "question_excerpt", "created_at", "updated_at",
	"iteration", "phase", "challenges", "ledger", "disputed", "ssm", "buckets",
	"last_failure_type",
}

// numberedID reports whether id is prefix and a number without leading
// zeros: `^C[1-9][0-9]*$` for challenges, `^P[1-9][0-9]*$` for points.
func numberedID(prefix byte, id string) bool {
	return len(id) >= 2 && id[0] == prefix && id[1] >= '1' && id[1] <= '9' && digits(id[2:])
}

// decodeState strictly decodes a state file: valid JSON, one object, every
// key of schema version 1 present, no unknown key, version 1, and a state
// that passes Validate. Every problem is reported, as a problem.List.
func decodeState(data []byte) (*State, error) {
	doc, fault := strictjson.Read(data, strictjson.Options{})
	if fault != nil {
		return nil, problem.List{{Message: "not a deliberation state file: " + fault.Error()}}
	}
	root := &doc.Root
	var probs problem.List
	for _, k := range requiredKeys {
		if root.Get(k) == nil {
			probs.Add(k, "missing (every key of the schema version 1 is required)")
		}
	}
	if v := root.Get("version"); v != nil && string(data[v.Offset:v.End]) != "1" {
		probs.Add("version", "is %s, want 1 (unknown schema version)", data[v.Offset:v.End])
	}
	if len(probs) > 0 {
		return nil, probs
	}
	d := strictjson.Decoder{Data: data, NullOK: true}
	var s State
	d.Decode("", root, &s)
	// The invariants are checked even after a decoding problem, so one
	// pass names every problem; a value that could not be decoded is
	// zero, and what the checks say about it is left out.
	var invalid problem.List
	if errors.As(s.validate(), &invalid) {
		for _, q := range invalid {
			if !d.Covers(q.Path) {
				d.Problems = append(d.Problems, q)
			}
		}
	}
	if err := d.Problems.Err(); err != nil {
		return nil, err
	}
	s.normalize()
	return &s, nil
}

func jsonError(err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("invalid JSON at byte %d: %s", syn.Offset, syn.Error())
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return fmt.Sprintf("%s: is a JSON %s, want %s", typ.Field, typ.Value, typ.Type)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// validate checks the invariants of a state and reports every violation:
// the schema's enumerations, challenge and point IDs, disputed challenges
// that exist, and every registered point in exactly one place.
func (s *State) validate() error {
	var p problem.List
	if s.Version != SchemaVersion {
		p.Add("version", "is %d, want %d", s.Version, SchemaVersion)
	}
	if s.Iteration < 1 || s.Iteration > MaxIterations {
		p.Add("iteration", "is %d, want 1 to %d", s.Iteration, MaxIterations)
	}
	if s.Phase != "" && !s.Phase.valid() {
		p.Add("phase", "is %q, want CONSTRUCTIVE, DEVELOPMENT or CRYSTALLIZATION", s.Phase)
	}
	switch s.LastFailureType {
	case "", failureNone, failureFormat, failureQuality:
	default:
		p.Add("last_failure_type", "is %q, want none, format or quality", s.LastFailureType)
	}
	switch s.Status {
	case "", StatusActive, StatusFinished, StatusAbandoned:
	default:
		p.Add("status", "is %q, want active, finished or abandoned", s.Status)
	}
	switch s.Mode {
	case "", ModeFull, ModeQuick:
	default:
		p.Add("mode", "is %q, want full or quick", s.Mode)
	}
	s.validateChallenges(&p)
	s.validateBuckets(&p)
	s.validatePlacement(&p)
	s.validateNext(&p)
	s.validateConsistency(&p)
	return p.Err()
}

// validateConsistency finds the contradictions a hand edit can make: a
// status that disagrees with its exit reason or its next step, an open
// challenge that is not disputed, a disputed one that was conceded, a
// consultation in a state that awaits none.
func (s *State) validateConsistency(p *problem.List) {
	active := s.Active()
	switch {
	case s.Status == StatusFinished && !knownExit(s.ExitReason):
		p.Add("exit_reason", "is %q, but the status is finished: want the reason it stopped (%s)", s.ExitReason, strings.Join(exitReasons, ", "))
	case s.Status == StatusAbandoned && s.ExitReason != ExitAbandoned:
		p.Add("exit_reason", "is %q, but the status is abandoned: want %q", s.ExitReason, ExitAbandoned)
	case active && s.ExitReason != "":
		p.Add("exit_reason", "is %q, but the status is active: a running deliberation has no exit reason", s.ExitReason)
	}
	if n := s.Next; n != nil {
		ended := n.Action == ActionSynthesize || n.Action == ActionExit
		switch {
		case active && ended:
			p.Add("next.action", "is %s, but the status is active: only a finished deliberation synthesizes or exits", n.Action)
		case !active && !ended:
			p.Add("next.action", "is %s, but the status is %s: want synthesize or exit", n.Action, s.Status)
		case s.Status == StatusFinished && ended && (n.Action == ActionSynthesize) != synthesizable(s.ExitReason):
			p.Add("next.action", "is %s, but the exit reason %q %s", n.Action, s.ExitReason, map[bool]string{true: "permits Synthesize", false: "does not permit Synthesize"}[synthesizable(s.ExitReason)])
		}
		if n.Awaiting == AwaitEvaluation && len(s.Responses) > 0 && s.Responses[len(s.Responses)-1].Evaluated {
			p.Add("next.awaiting", "awaits an evaluation, but the last response was evaluated already")
		}
	}
	if s.Status == StatusFinished && len(s.Disputed) > 0 {
		p.Add("disputed", "lists %s, but the deliberation is finished: the open challenges went to Unresolved", strings.Join(s.Disputed, ", "))
	}
	disputed := map[string]bool{}
	for _, id := range s.Disputed {
		disputed[id] = true
		if c := s.Challenges[id]; c != nil && (c.Status == ChallengeConceded || c.Status == ChallengeUndefended) {
			p.Add("challenges."+id+".status", "is %s, but %s is disputed: a conceded or undefended challenge is closed", c.Status, id)
		}
	}
	for _, id := range sortedKeys(s.Challenges) {
		c := s.Challenges[id]
		if c == nil {
			continue
		}
		if c.Status == ChallengeOpen && !disputed[id] {
			p.Add("challenges."+id+".status", "is open, but %s is not in disputed: list it there, or give the status it closed with", id)
		}
		// Against an iteration that is itself wrong (or could not be
		// read) the comparison would only repeat that problem.
		validIter := s.Iteration >= 1 && s.Iteration <= MaxIterations
		if c.RaisedIter < 1 || validIter && c.RaisedIter > s.Iteration {
			p.Add("challenges."+id+".raised_iter", "is %d, want 1 to the iteration (%d)", c.RaisedIter, s.Iteration)
		}
	}
	if s.quick() && s.Iteration > QuickMaxIterations && s.Iteration <= MaxIterations {
		p.Add("iteration", "is %d, but quick mode stops at %d", s.Iteration, QuickMaxIterations)
	}
	if s.Consultation != nil && (!active || s.Next == nil || s.Next.Awaiting != AwaitResponse) {
		p.Add("consultation", "names a consultation, but the deliberation awaits no answer")
	}
}

// exitReasons are the reasons a deliberation finishes with.
var exitReasons = []string{ExitConverged, ExitCap, ExitTrivial, ExitQuality, ExitAnchorShift, ExitProtocol, ExitStalled, ExitArbitration, ExitQuickUnengaged}

func knownExit(reason string) bool { return slices.Contains(exitReasons, reason) }

func (s *State) validateNext(p *problem.List) {
	if s.Next == nil {
		return
	}
	switch s.Next.Action {
	case ActionAsk, ActionCritique, ActionReminder, ActionRetry, ActionClarify, ActionCoverage,
		ActionStress, ActionArbitrate, ActionSynthesize, ActionExit, ActionRecover:
	default:
		p.Add("next.action", "is %q, not an action of the protocol", s.Next.Action)
	}
	switch s.Next.Awaiting {
	case "", AwaitResponse:
	case AwaitEvaluation:
		if len(s.Responses) == 0 {
			p.Add("next.awaiting", "awaits an evaluation but no response is recorded")
		}
	default:
		p.Add("next.awaiting", "is %q, want response, evaluation or nothing", s.Next.Awaiting)
	}
}

func (s *State) validateChallenges(p *problem.List) {
	for _, id := range sortedKeys(s.Challenges) {
		c := s.Challenges[id]
		path := "challenges." + id
		if !numberedID('C', id) {
			p.Add(path, "is not a challenge ID (C1, C2, ...)")
		}
		if c == nil {
			p.Add(path, "is null, want a challenge object")
			continue
		}
		if !c.Status.valid() {
			p.Add(path+".status", "is %q, want open, defended, dropped, undefended or conceded", c.Status)
		}
		switch c.Kind {
		case "", KindSkeptical, KindReject, KindUngrounded:
		default:
			p.Add(path+".kind", "is %q, want SKEPTICAL, REJECT or UNGROUNDED", c.Kind)
		}
	}
	seen := map[string]bool{}
	for i, id := range s.Disputed {
		path := fmt.Sprintf("disputed[%d]", i)
		if s.Challenges[id] == nil {
			p.Add(path, "%q is not a challenge of this state", id)
		}
		if seen[id] {
			p.Add(path, "%q is listed twice", id)
		}
		seen[id] = true
	}
}

func (s *State) validateBuckets(p *problem.List) {
	for i, a := range s.Buckets.Agreed {
		switch a.EvidenceType {
		case "execution", "textual", "n/a":
		default:
			p.Add(fmt.Sprintf("buckets.agreed[%d].evidence_type", i), "is %q, want execution, textual or n/a", a.EvidenceType)
		}
	}
	for i, u := range s.Buckets.Unresolved {
		switch u.Status {
		case UnresolvedBlocked, UnresolvedTradeoff, UnresolvedDefinitional, UnresolvedAnchorShift, UnresolvedOpen:
		default:
			p.Add(fmt.Sprintf("buckets.unresolved[%d].status", i), "is %q, want blocked, tradeoff, definitional, pending-anchor-shift or open-challenge", u.Status)
		}
	}
}

// placements lists where each point ID sits: bucket paths, disputed
// challenges and pending clarification.
func (s *State) placements() map[string][]string {
	at := map[string][]string{}
	add := func(id, where string) {
		if id != "" {
			at[id] = append(at[id], where)
		}
	}
	for i, a := range s.Buckets.Agreed {
		add(a.ID, fmt.Sprintf("buckets.agreed[%d]", i))
	}
	for i, d := range s.Buckets.Dismissed {
		add(d.ID, fmt.Sprintf("buckets.dismissed[%d]", i))
	}
	for i, u := range s.Buckets.Unresolved {
		add(u.ID, fmt.Sprintf("buckets.unresolved[%d]", i))
	}
	for i, n := range s.NotEvaluated {
		add(n.ID, fmt.Sprintf("not_evaluated[%d]", i))
	}
	for _, id := range s.Disputed {
		if c := s.Challenges[id]; c != nil {
			for _, pid := range c.bound() {
				add(pid, "disputed "+id)
			}
		}
	}
	for i, id := range s.Pending {
		add(id, fmt.Sprintf("pending_clarification[%d]", i))
	}
	return at
}

func (s *State) validatePlacement(p *problem.List) {
	at := s.placements()
	for _, id := range sortedKeys(at) {
		if len(at[id]) > 1 {
			p.Add(id, "is in more than one place: %s (want exactly one)", strings.Join(at[id], ", "))
		}
	}
	for _, id := range sortedKeys(s.Points) {
		if !numberedID('P', id) {
			p.Add("points."+id, "is not a point ID (P1, P2, ...)")
		}
		if len(at[id]) == 0 {
			p.Add("points."+id, "is in no bucket (want exactly one)")
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return idLess(keys[i], keys[j]) })
	return keys
}

// idLess orders IDs such as C2 before C10.
func idLess(a, b string) bool {
	na, nb := idNum(a), idNum(b)
	if na != nb && na > 0 && nb > 0 && a[:1] == b[:1] {
		return na < nb
	}
	return a < b
}

func idNum(id string) int {
	n := 0
	for _, r := range id[min(1, len(id)):] {
		if r < '0' || r > '9' {
			return 0
		}
		n = n*10 + int(r-'0')
	}
	return n
}

func removeString(list []string, v string) []string {
	return slices.DeleteFunc(list, func(x string) bool { return x == v })
}
