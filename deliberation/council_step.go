package deliberation

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/elicit/elicit/internal/strictjson"
	"github.com/elicit/elicit/problem"
)

// The actions of a council step.
const (
	CouncilSend       = "send"       // consult every member awaiting an answer (in parallel)
	CouncilEvaluate   = "evaluate"   // one council evaluation of the members' answers
	CouncilReview     = "review"     // send the anonymized cross-review
	CouncilSynthesize = "synthesize" // every member finished or failed
	CouncilExit       = "exit"       // no member is left to synthesize
)

// CouncilStep is where a council stands and what comes next.
type CouncilStep struct {
	ID     string `json:"id"`
	Action string `json:"action"`
	// Round is the council round the next evaluation judges.
	Round      int          `json:"round"`
	Reason     string       `json:"reason,omitempty"`
	Consultees []MemberView `json:"consultees"`
	// Review is the cross-review's status, when one was asked for.
	Review string `json:"review,omitempty"`
}

// MemberView is one member as a council step shows it.
type MemberView struct {
	Name       string `json:"name"`
	Consultant string `json:"consultant"`
	Stance     string `json:"stance,omitempty"`
	Model      string `json:"model,omitempty"`
	Effort     string `json:"effort,omitempty"`
	ID         string `json:"id"`
	// Status is the member deliberation's (active, finished, abandoned),
	// or failed.
	Status     string         `json:"status"`
	Iteration  int            `json:"iteration"`
	Phase      Phase          `json:"phase,omitempty"`
	ExitReason string         `json:"exit_reason,omitempty"`
	Failure    *MemberFailure `json:"failure,omitempty"`
	// Next is the member's next step, without its prompt (the member's
	// own status has it).
	Next       *Next           `json:"next,omitempty"`
	Challenges ChallengeCounts `json:"challenges"`
}

// ChallengeCounts are a member's challenges by what became of them, and
// its protocol counts: the rules hold per consultee.
type ChallengeCounts struct {
	Issued     int `json:"issued"`
	Open       int `json:"open"`
	Reminded   int `json:"reminded"`
	Undefended int `json:"undefended"`
	Conceded   int `json:"conceded"`
	// MissingID counts the missing-ID recoveries; two end the member's
	// deliberation (protocol integrity failure).
	MissingID int `json:"missing_id"`
}

// MemberStatusFailed is a MemberView's status once the member failed.
const MemberStatusFailed = "failed"

func counts(s *State) ChallengeCounts {
	c := ChallengeCounts{Issued: len(s.Challenges), Open: len(s.Disputed), MissingID: s.Counters.IDRecoveries}
	for _, ch := range s.Challenges {
		if ch.ReminderSent {
			c.Reminded++
		}
		switch ch.Status {
		case ChallengeUndefended:
			c.Undefended++
		case ChallengeConceded:
			c.Conceded++
		}
	}
	return c
}

func view(m Member, s *State) MemberView {
	v := MemberView{Name: m.Name, Consultant: m.Consultant, Stance: m.Stance, Model: m.Model, Effort: m.Effort, ID: m.ID, Status: string(orActive(s.Status)),
		Iteration: s.Iteration, ExitReason: s.ExitReason, Failure: m.Failure, Challenges: counts(s)}
	if !s.quick() {
		v.Phase = s.currentPhase()
	}
	if s.Next != nil {
		n := *s.Next
		n.Prompt = ""
		v.Next = &n
	}
	if m.Failure != nil {
		v.Status = MemberStatusFailed
	}
	return v
}

// live reports whether member m (state s) still takes part: not failed,
// not finished.
func live(m Member, s *State) bool { return m.Failure == nil && s.Active() }

// CouncilStep reports where the council of id stands.
func (st *Store) CouncilStep(id string) (*CouncilStep, error) {
	if st.sh != nil {
		return sharedCouncil(st, id, false, func(v *Store) (*CouncilStep, error) { return v.CouncilStep(id) })
	}
	c, states, err := st.councilStates(id)
	if err != nil {
		return nil, err
	}
	return c.step(states), nil
}

// StepOf reports where council c stands as the caller holds it (say with
// failures it found but did not record), reading its members' states and
// writing nothing.
func (st *Store) StepOf(c *Council) (*CouncilStep, error) {
	states, err := st.states(c)
	if err != nil {
		return nil, err
	}
	return c.step(states), nil
}

func councilOrNot(id string, st *Store, err error) error {
	if err != nil {
		return err
	}
	return problem.List{{Path: "id", Message: fmt.Sprintf("%s is not a council in %s (a deliberation with one consultee)", id, st.dir)}}
}

func (c *Council) step(states []*State) *CouncilStep {
	out := &CouncilStep{ID: c.ID, Round: c.Round + 1}
	if c.Review != nil {
		out.Review = c.Review.Status
	}
	awaitAnswer, awaitEval, finished, available := false, false, false, 0
	for i, m := range c.Members {
		s := states[i]
		out.Consultees = append(out.Consultees, view(m, s))
		if m.Failure == nil {
			available++
		}
		if s.Status == StatusFinished && m.Failure == nil {
			finished = true
		}
		if !live(m, s) || s.Next == nil {
			continue
		}
		switch s.Next.Awaiting {
		case AwaitResponse:
			awaitAnswer = true
		case AwaitEvaluation:
			awaitEval = true
		}
	}
	switch {
	case c.reviewDue(states) && !awaitEval:
		out.Action, out.Reason = CouncilReview, "CONSTRUCTIVE is over for every consultee: the anonymized cross-review comes next"
	case c.Review != nil && c.Review.Status == ReviewSent && len(c.Review.Answers) < len(c.Review.Prompts):
		out.Action, out.Reason = CouncilSend, "the cross-review is out: wait for every reviewer's answer"
	case c.Review != nil && c.Review.Status == ReviewSent:
		out.Action, out.Reason = CouncilEvaluate, "judge the cross-review's answers (review) with the members' answers"
	case awaitEval:
		out.Action = CouncilEvaluate
	case awaitAnswer:
		out.Action = CouncilSend
	case finished:
		out.Action, out.Reason = CouncilSynthesize, "every consultee finished or failed"
	default:
		out.Action, out.Reason = CouncilExit, fmt.Sprintf("no consultee finished (%d of %d available): nothing to synthesize", available, len(c.Members))
	}
	return out
}

// reviewDue reports whether the cross-review is to be sent now: asked
// for, not yet sent, and every available member past CONSTRUCTIVE (or
// finished).
func (c *Council) reviewDue(states []*State) bool {
	if c.Review == nil || c.Review.Status != ReviewPending {
		return false
	}
	for i, m := range c.Members {
		s := states[i]
		if m.Failure != nil || !s.Active() {
			continue
		}
		if s.quick() || s.currentPhase() == Constructive {
			return false
		}
	}
	return true
}

// CouncilEvaluation is the orchestrator's one evaluation of a council
// round: each member's answer judged as a deliberation's evaluation
// document, the points several members made independently, and the
// judgments of the cross-review's answers.
type CouncilEvaluation struct {
	// Round is the council round judged (a guard against a stale
	// document).
	Round int `json:"round"`
	// Consultees are the members' evaluation documents, by member name.
	Consultees map[string]json.RawMessage `json:"consultees,omitempty"`
	// Same are groups of points made independently by several members:
	// each MEMBER:P#, or MEMBER:points[N] for a point of this round's
	// document.
	Same [][]string `json:"same,omitempty"`
	// Review judges the cross-review answers: by, point (the reviewer's
	// R#), verdict agree or challenge, flaw, evidence_type.
	Review []ReviewVerdict `json:"review,omitempty"`
}

// EvaluateCouncil checks the council evaluation doc as a whole (every
// member's document, the merges, the review judgments: every problem at
// once, each at its path) and only then applies it.
func (st *Store) EvaluateCouncil(id string, doc []byte) (*CouncilStep, error) {
	if st.sh != nil {
		return sharedCouncil(st, id, true, func(v *Store) (*CouncilStep, error) { return v.EvaluateCouncil(id, doc) })
	}
	c, states, err := st.councilStates(id)
	if err != nil {
		return nil, err
	}
	ev, probs := decodeCouncilEvaluation(doc)
	if ev == nil {
		return nil, probs
	}
	if ev.Round != c.Round+1 {
		probs.Add("round", "is %d, want %d (the council's round awaiting its evaluation)", ev.Round, c.Round+1)
	}
	for i, m := range c.Members {
		s, path := states[i], "consultees."+m.Name
		raw, given := ev.Consultees[m.Name]
		awaits := live(m, s) && s.Next != nil && s.Next.Awaiting == AwaitEvaluation
		switch {
		case given && !awaits:
			probs.Add(path, "%s has no answer awaiting evaluation (%s)", m.Name, memberWhy(m, s))
		case !given && awaits:
			probs.Add(path, "missing: %s's answer to iteration %d awaits your evaluation", m.Name, s.Iteration)
		case given:
			if err := st.CheckEvaluation(m.ID, raw); err != nil {
				for _, p := range problemsOf(err) {
					probs.Add(joinPath(path, p.Path), "%s", p.Message)
				}
			}
		}
	}
	for _, name := range sortedKeys(ev.Consultees) {
		if c.Member(name) == nil {
			probs.Add("consultees."+name, "is not a member of this council (its members: %s)", strings.Join(c.Names(), ", "))
		}
	}
	probs = append(probs, c.checkReview(ev.Review)...)
	probs = append(probs, c.checkSame(ev, states)...)
	if err := probs.Err(); err != nil {
		return nil, err
	}
	assigned := map[string]string{} // A:points[0] -> A:P3
	for _, m := range c.Members {
		raw, given := ev.Consultees[m.Name]
		if !given {
			continue
		}
		s, err := st.Evaluate(m.ID, raw)
		if err != nil {
			return nil, fmt.Errorf("council %s, member %s: %w", id, m.Name, err)
		}
		if s.Next != nil && s.Next.Assigned != nil {
			for _, p := range s.Next.Assigned.Points {
				assigned[pointRef(m.Name, p.Path)] = pointRef(m.Name, p.ID)
			}
		}
	}
	_, err = st.UpdateCouncil(id, func(c *Council) error {
		c.Round++
		for _, group := range ev.Same {
			var g []string
			for _, ref := range group {
				if to, ok := assigned[ref]; ok {
					ref = to
				}
				g = append(g, ref)
			}
			c.Same = append(c.Same, g)
		}
		if c.Review != nil && c.Review.Status == ReviewSent {
			for _, v := range ev.Review {
				v.Point = c.Review.Labels[v.By][v.Point]
				v.Issued, v.NotIssued = "", ""
				if v.Verdict == "challenge" {
					if v.EvidenceType == "" {
						v.EvidenceType = "claim"
					}
					st.issue(c, &v)
				}
				c.Review.Verdicts = append(c.Review.Verdicts, v)
			}
			c.Review.Status = ReviewDone
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return st.CouncilStep(id)
}

// issue makes a review's challenge a challenge in the ledger of the
// point's owner, under the ledger's rules, when the owner is still
// deliberating and awaits the answer to a critique or a reminder;
// otherwise it stays the reviewer's recorded disagreement, and NotIssued
// says why.
func (st *Store) issue(c *Council, v *ReviewVerdict) {
	member, pid, _ := splitRef(v.Point)
	m := c.Member(member)
	if m == nil || m.Failure != nil {
		v.NotIssued = "its consultee failed"
		return
	}
	cid, err := st.PeerChallenge(m.ID, pid, v.Flaw)
	if err != nil {
		var p problem.List
		if errors.As(err, &p) && len(p) > 0 {
			v.NotIssued = p[0].Message
		} else {
			v.NotIssued = err.Error()
		}
		return
	}
	v.Issued = cid
}

func joinPath(prefix, path string) string {
	switch {
	case path == "":
		return prefix
	case strings.HasPrefix(path, "["):
		return prefix + path
	}
	return prefix + "." + path
}

// memberWhy says why a member has no answer to evaluate.
func memberWhy(m Member, s *State) string {
	switch {
	case m.Failure != nil:
		return fmt.Sprintf("it failed at iteration %d: %s", m.Failure.Iteration, m.Failure.Message)
	case !s.Active():
		return fmt.Sprintf("its deliberation is %s: %s", s.Status, s.ExitReason)
	case s.Next != nil && s.Next.Awaiting == AwaitResponse:
		return fmt.Sprintf("iteration %d awaits its answer: send first", s.Iteration)
	}
	return "nothing is pending"
}

func decodeCouncilEvaluation(data []byte) (*CouncilEvaluation, problem.List) {
	doc, fault := strictjson.Read(data, strictjson.Options{})
	if fault != nil {
		return nil, problem.List{{Message: "council evaluation is not valid: " + fault.Error()}}
	}
	var ev CouncilEvaluation
	d := &strictjson.Decoder{Data: doc.Data}
	d.Decode("", &doc.Root, &ev)
	probs := d.Problems
	if doc.Root.Get("round") == nil {
		probs.Add("round", "is required: the council round this evaluation judges")
	}
	return &ev, probs
}

// checkSame checks the merged points: each group two or more points of
// different members, each point registered (or, as MEMBER:points[N], in
// this round's document of that member).
func (c *Council) checkSame(ev *CouncilEvaluation, states []*State) problem.List {
	var p problem.List
	for g, group := range ev.Same {
		path := fmt.Sprintf("same[%d]", g)
		if len(group) < 2 {
			p.Add(path, "has %d point, want 2 or more (points of different consultees made independently)", len(group))
		}
		seen := map[string]bool{}
		for i, ref := range group {
			at := fmt.Sprintf("%s[%d]", path, i)
			member, pid, ok := splitRef(ref)
			m := c.Member(member)
			if !ok || m == nil {
				p.Add(at, "%q is not MEMBER:P# (members %s)", ref, strings.Join(c.Names(), ", "))
				continue
			}
			if seen[member] {
				p.Add(at, "is a second point of %s: a group merges points of different consultees", member)
			}
			seen[member] = true
			s := states[slices.IndexFunc(c.Members, func(x Member) bool { return x.Name == member })]
			if idx, isPath := strings.CutPrefix(pid, "points["); isPath {
				if !pointInDoc(ev.Consultees[member], strings.TrimSuffix(idx, "]")) {
					p.Add(at, "%q: %s's document this round has no such point", ref, member)
				}
				continue
			}
			if s.Points[pid] == nil {
				p.Add(at, "%q: %s has no point %s", ref, member, pid)
			}
		}
	}
	return p
}

// pointInDoc reports whether a member's evaluation document has points[idx].
func pointInDoc(raw json.RawMessage, idx string) bool {
	var doc struct {
		Points []json.RawMessage `json:"points"`
	}
	if raw == nil || json.Unmarshal(raw, &doc) != nil {
		return false
	}
	var n int
	if _, err := fmt.Sscanf(idx, "%d", &n); err != nil || fmt.Sprint(n) != idx {
		return false
	}
	return n >= 0 && n < len(doc.Points)
}

// checkReview checks the review judgments: only while the review is out
// and answered, each by a reviewer on one of its labels, a challenge
// with its flaw.
func (c *Council) checkReview(vs []ReviewVerdict) problem.List {
	var p problem.List
	r := c.Review
	if len(vs) > 0 && (r == nil || r.Status != ReviewSent) {
		p.Add("review", "no cross-review is awaiting judgment")
		return p
	}
	for i, v := range vs {
		path := fmt.Sprintf("review[%d]", i)
		if _, answered := r.Answers[v.By]; !answered {
			p.Add(path+".by", "%q has no review answer (reviewers: %s)", v.By, strings.Join(sortedKeys(r.Answers), ", "))
		} else if _, ok := r.Labels[v.By][v.Point]; !ok {
			p.Add(path+".point", "%q is not one of the labels %s was shown (%s)", v.Point, v.By, strings.Join(sortedKeys(r.Labels[v.By]), ", "))
		}
		switch v.Verdict {
		case "agree":
			if v.Flaw != "" {
				p.Add(path+".flaw", "is for a challenge: an agreement states no flaw")
			}
		case "challenge":
			if strings.TrimSpace(v.Flaw) == "" {
				p.Add(path+".flaw", "is required for a challenge: the flaw in one sentence (a challenge without one does not count)")
			}
		default:
			p.Add(path+".verdict", "is %q, want agree or challenge", v.Verdict)
		}
		switch v.EvidenceType {
		case "", "execution", "textual", "claim", "n/a":
		default:
			p.Add(path+".evidence_type", "is %q, want execution, textual, claim or n/a", v.EvidenceType)
		}
	}
	return p
}
