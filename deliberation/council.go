package deliberation

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/internal/strictjson"
	"github.com/elicit/elicit/problem"
)

// A council is one deliberation with several consultees (2 to 5). Each
// member is a deliberation of its own, with its session, its challenges,
// its reminders, its missing-ID and protocol-integrity counts: the rules
// are enforced per consultee by the engine as it is. The council file ties
// them together: who the members are, which failed, which points they made
// independently (merged, sources kept) and what the cross-review found;
// the council synthesis measures agreement across them.

// CouncilMin and CouncilMax bound a council's size.
const (
	CouncilMin = 2
	CouncilMax = 5
)

const councilPrefix = "codex-ask-council-"

// memberNames name the members in order: short, and saying nothing about
// the consultant (the cross-review hides even these).
var memberNames = []string{"A", "B", "C", "D", "E"}

// MemberSpec is one consultee of a council as the caller names it.
type MemberSpec struct {
	// Consultant is the consultant's name ("codex", "command:claude -p");
	// the door checks it.
	Consultant string `json:"consultant"`
	// Stance is one of Stances, or empty.
	Stance string `json:"stance,omitempty"`
	// Model and Effort are the member's own (one of Efforts); empty is the
	// consultant's default. A send that gives its own overrides them for
	// that send (Member.Settings).
	Model  string `json:"model,omitempty"`
	Effort string `json:"effort,omitempty"`
}

// Efforts are the reasoning efforts a member may be given.
var Efforts = []string{"high", "xhigh"}

// ParseMemberSpec reads "[model=M,][effort=E,][STANCE=]CONSULTANT"
// ("against=command:claude -p", "model=gpt-5,effort=xhigh,codex"). The
// settings come first, each ended by a comma; then a word before the
// first "=" that is not a stance is reported; anything else is the
// consultant's name (an "=" or "," in a command's arguments is theirs).
func ParseMemberSpec(s string) (MemberSpec, error) {
	var m MemberSpec
	s = strings.TrimSpace(s)
	for {
		key, rest, _ := strings.Cut(s, "=")
		field := map[string]*string{"model": &m.Model, "effort": &m.Effort}[key]
		if field == nil {
			break
		}
		value, after, found := strings.Cut(rest, ",")
		value = strings.TrimSpace(value)
		switch {
		case !found:
			return MemberSpec{}, fmt.Errorf("%s=%s names no consultant (want %s=VALUE, a comma, then the consultant)", key, value, key)
		case value == "":
			return MemberSpec{}, fmt.Errorf("%s= has no value", key)
		case *field != "":
			return MemberSpec{}, fmt.Errorf("%s is given twice", key)
		}
		*field, s = value, strings.TrimSpace(after)
	}
	head, rest, found := strings.Cut(s, "=")
	if !found || strings.ContainsAny(head, ": \t") {
		m.Consultant = s
		return m, nil
	}
	if StanceText(head) == "" {
		return MemberSpec{}, fmt.Errorf("%q is not a stance (want one of %s, then = and the consultant)", head, strings.Join(Stances(), ", "))
	}
	if strings.TrimSpace(rest) == "" {
		return MemberSpec{}, fmt.Errorf("stance %s names no consultant (want %s=codex or %s=command:PROGRAM ARGS)", head, head, head)
	}
	m.Consultant, m.Stance = strings.TrimSpace(rest), head
	return m, nil
}

// Problems are every problem of m, each at path.
func (m MemberSpec) Problems(path string) problem.List {
	var p problem.List
	if strings.TrimSpace(m.Consultant) == "" {
		p.Add(path, "names no consultant")
	}
	if m.Stance != "" && StanceText(m.Stance) == "" {
		p.Add(path, "%q is not a stance (want one of %s)", m.Stance, strings.Join(Stances(), ", "))
	}
	if m.Effort != "" && !slices.Contains(Efforts, m.Effort) {
		p.Add(path, "effort %q is not one of %s", m.Effort, strings.Join(Efforts, ", "))
	}
	if m.Model != strings.TrimSpace(m.Model) || strings.ContainsAny(m.Model, ",\n") {
		p.Add(path, "model %q has a comma, a line break or spaces around it", m.Model)
	}
	return p
}

// Member is one consultee of a council.
type Member struct {
	// Name is the member's letter (A, B, ...): points are named by it
	// (A:P1).
	Name       string `json:"name"`
	Consultant string `json:"consultant"`
	Stance     string `json:"stance,omitempty"`
	// Model and Effort are the member's own; empty is the consultant's
	// default.
	Model  string `json:"model,omitempty"`
	Effort string `json:"effort,omitempty"`
	// ID is the member's deliberation.
	ID string `json:"id"`
	// Failure is why the member stopped answering; a failed member is
	// consulted no more, and the others go on.
	Failure *MemberFailure `json:"failure,omitempty"`
}

// MemberFailure is a member's failed consultation.
type MemberFailure struct {
	Iteration int    `json:"iteration"`
	Kind      string `json:"kind"`
	Message   string `json:"message"`
}

// Council is the council file: codex-ask-council-ID.json beside the
// members' state files, ID being the first member's.
type Council struct {
	Version int      `json:"version"`
	ID      string   `json:"id"`
	Members []Member `json:"members"`
	// Round counts the council evaluations applied.
	Round int `json:"round"`
	// Same are the groups of points several members made independently,
	// each point as MEMBER:P#.
	Same [][]string `json:"same,omitempty"`
	// Review is the anonymized cross-review; nil when not asked for.
	Review *Review `json:"review,omitempty"`
}

// Review is the cross-review after CONSTRUCTIVE: each member sees the
// others' points, without names, and may agree with or challenge each.
type Review struct {
	// Status is pending (not yet sent), sent (prompts out), or done.
	Status string `json:"status"`
	// Labels map, per reviewer, the anonymous labels of its prompt (R1,
	// R2, ...) to the points they stand for (MEMBER:P#).
	Labels map[string]map[string]string `json:"labels,omitempty"`
	// Prompts and Answers are each reviewer's review prompt and answer.
	Prompts map[string]string `json:"prompts,omitempty"`
	Answers map[string]string `json:"answers,omitempty"`
	// Failures are the reviewers whose consultant failed, with why.
	Failures map[string]string `json:"failures,omitempty"`
	// Reviewing are the reviews consulted by a process of their own (a
	// background worker of the command line), by reviewer, so that
	// status sees them run and cancel reaches them; an entry goes when
	// the answer or the failure is recorded.
	Reviewing map[string]*Consultation `json:"reviewing,omitempty"`
	// Verdicts are the orchestrator's judgments of the answers.
	Verdicts []ReviewVerdict `json:"verdicts,omitempty"`
}

// The review statuses.
const (
	ReviewPending = "pending"
	ReviewSent    = "sent"
	ReviewDone    = "done"
)

// ReviewVerdict is one reviewer's position on a peer's point, as the
// orchestrator judged its review answer.
type ReviewVerdict struct {
	By    string `json:"by"`
	Point string `json:"point"` // MEMBER:P#
	// Verdict is agree or challenge; a challenge states its flaw, and its
	// evidence type says whether it is evidence (execution, textual) or
	// only argument (claim, n/a).
	Verdict      string `json:"verdict"`
	Flaw         string `json:"flaw,omitempty"`
	EvidenceType string `json:"evidence_type,omitempty"`
	// Issued is the challenge a challenge became in the owner's ledger
	// (C#), or NotIssued says why it did not (the owner had finished, ...).
	Issued    string `json:"issued,omitempty"`
	NotIssued string `json:"not_issued,omitempty"`
}

// CouncilPath is the council file of id.
func (st *Store) CouncilPath(id string) string {
	return filepath.Join(st.dir, councilPrefix+id+".json")
}

// StartCouncil starts one deliberation per member on question with opts
// (each with its stance) and writes the council file; the first member's
// ID is the council's. review asks for the cross-review after
// CONSTRUCTIVE. Every problem of the members and the options is reported
// at once, each at its path (consultants[1]).
func (st *Store) StartCouncil(question string, opts *StartOptions, members []MemberSpec, review bool) (*Council, []*State, error) {
	if st.sh != nil {
		type started struct {
			c      *Council
			states []*State
		}
		out, err := sharedStart(st, func(v *Store) (started, []string, error) {
			c, states, err := v.StartCouncil(question, opts, members, review)
			var ids []string
			if c != nil {
				for _, m := range c.Members {
					ids = append(ids, m.ID)
				}
			}
			return started{c, states}, ids, err
		})
		return out.c, out.states, err
	}
	var p problem.List
	if n := len(members); n < CouncilMin || n > CouncilMax {
		p.Add("consultants", "%d given, want %d to %d for a council (one consultant: leave consultants out)", n, CouncilMin, CouncilMax)
	}
	for i, m := range members {
		p = append(p, m.Problems(fmt.Sprintf("consultants[%d]", i))...)
	}
	o := startOptions(opts)
	if err := CheckStart(question, &o); err != nil {
		var probs problem.List
		if !errors.As(err, &probs) {
			return nil, nil, err
		}
		p = append(p, probs...)
	}
	if err := p.Err(); err != nil {
		return nil, nil, err
	}
	c := &Council{Version: 1}
	var states []*State
	for i, m := range members {
		id, s, err := st.Start(question, &o)
		if err != nil {
			return nil, nil, err
		}
		if i == 0 {
			c.ID = id
		}
		c.Members = append(c.Members, Member{Name: memberNames[i], Consultant: strings.TrimSpace(m.Consultant), Stance: m.Stance,
			Model: m.Model, Effort: m.Effort, ID: id})
		states = append(states, s)
	}
	if review {
		c.Review = &Review{Status: ReviewPending}
	}
	if err := st.saveCouncil(c); err != nil {
		return nil, nil, err
	}
	return c, states, nil
}

// Council reads the council of id: nil, nil when id is not a council (a
// deliberation with one consultee, or a member's own ID).
func (st *Store) Council(id string) (*Council, error) {
	if !validID(id) {
		return nil, nil // Load names a bad ID
	}
	if st.sh != nil {
		return onShared(st, SharedQuery{IDs: []string{id}, Prefixes: []string{councilPrefix}}, func(v *Store) (*Council, []string, error) {
			c, err := v.Council(id)
			return c, nil, err
		})
	}
	data, err := infile.ReadFile(st.CouncilPath(id), stateInput)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("council %s: %w", id, err)
	}
	var c Council
	doc, fault := strictjson.Read(data, strictjson.Options{})
	if fault != nil {
		return nil, fmt.Errorf("council %s: %s is not a council file: %w", id, st.CouncilPath(id), fault)
	}
	d := strictjson.Decoder{Data: doc.Data, NullOK: true}
	d.Decode("", &doc.Root, &c)
	if err := d.Problems.Err(); err != nil {
		return nil, prefixed(st.CouncilPath(id), problemsOf(err))
	}
	if len(c.Members) < CouncilMin || c.ID != c.Members[0].ID {
		return nil, fmt.Errorf("council %s: the file %s names %d members, the first %q (want %d to %d, the first being %s)", id, st.CouncilPath(id), len(c.Members), firstID(c.Members), CouncilMin, CouncilMax, id)
	}
	return &c, nil
}

func firstID(ms []Member) string {
	if len(ms) == 0 {
		return ""
	}
	return ms[0].ID
}

func problemsOf(err error) problem.List {
	var p problem.List
	if errors.As(err, &p) {
		return p
	}
	return problem.List{{Message: err.Error()}}
}

// UpdateCouncil applies fn to the council of id under its lock and saves
// it when fn succeeds.
func (st *Store) UpdateCouncil(id string, fn func(c *Council) error) (*Council, error) {
	if st.sh != nil {
		return sharedWrite(st, id, func(v *Store) (*Council, error) { return v.UpdateCouncil(id, fn) })
	}
	f, err := os.OpenFile(filepath.Join(st.dir, "."+councilPrefix+id+".lock"), os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("deliberation store: %w", err)
	}
	defer f.Close()
	if err := lockFile(f); err != nil {
		return nil, err
	}
	c, err := st.Council(id)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, problem.List{{Path: "id", Message: fmt.Sprintf("no council %s in %s", id, st.dir)}}
	}
	if err := fn(c); err != nil {
		return nil, err
	}
	return c, st.saveCouncil(c)
}

func (st *Store) saveCouncil(c *Council) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("deliberation store: %w", err)
	}
	return st.writeAtomic(st.CouncilPath(c.ID), append(data, '\n'))
}

// Member returns the member called name, or nil.
func (c *Council) Member(name string) *Member {
	for i := range c.Members {
		if c.Members[i].Name == name {
			return &c.Members[i]
		}
	}
	return nil
}

// Settings are the model and effort member m is consulted with: a send's
// own when it gives them (each on its own), else the member's.
func (m Member) Settings(model, effort string) (string, string) {
	if model == "" {
		model = m.Model
	}
	if effort == "" {
		effort = m.Effort
	}
	return model, effort
}

// ForRole is the member that takes role (a stance: seed 000's red_team,
// failure or critic), one consultant per role: the member whose stance it
// is, else the first member without a stance. A failed member takes no
// role; the error says why no member does.
func (c *Council) ForRole(role string) (*Member, error) {
	var why []string
	for i, m := range c.Members {
		if m.Stance != role {
			continue
		}
		if m.Failure == nil {
			return &c.Members[i], nil
		}
		why = append(why, fmt.Sprintf("%s, whose stance it is, failed at iteration %d (%s)", m.Name, m.Failure.Iteration, m.Failure.Kind))
	}
	for i, m := range c.Members {
		if m.Stance == "" && m.Failure == nil {
			return &c.Members[i], nil
		}
	}
	if len(why) == 0 {
		why = append(why, "none has that stance")
	}
	return nil, fmt.Errorf("council %s has no member to take the %s role: %s, and every other has a stance of its own or failed", c.ID, role, strings.Join(why, "; "))
}

// Fail records that member name failed on iteration (a failure already
// recorded is kept).
func (c *Council) Fail(name string, iteration int, kind, message string) {
	if m := c.Member(name); m != nil && m.Failure == nil {
		m.Failure = &MemberFailure{Iteration: iteration, Kind: kind, Message: message}
	}
}

// Names are the members' names, in order.
func (c *Council) Names() []string {
	out := make([]string, len(c.Members))
	for i, m := range c.Members {
		out[i] = m.Name
	}
	return out
}

// councilStates loads the council of id and its members' states; an ID
// that is no council is a problem.
func (st *Store) councilStates(id string) (*Council, []*State, error) {
	c, err := st.Council(id)
	if err != nil || c == nil {
		return nil, nil, councilOrNot(id, st, err)
	}
	states, err := st.states(c)
	if err != nil {
		return nil, nil, err
	}
	return c, states, nil
}

// states loads every member's state, in order.
func (st *Store) states(c *Council) ([]*State, error) {
	out := make([]*State, len(c.Members))
	for i, m := range c.Members {
		s, err := st.Load(m.ID)
		if err != nil {
			return nil, fmt.Errorf("council %s, member %s (%s): %w", c.ID, m.Name, m.ID, err)
		}
		out[i] = s
	}
	return out, nil
}

// pointRef is a member's point as the council names it: A:P1.
func pointRef(member, id string) string { return member + ":" + id }

// splitRef splits A:P1 into its member and point.
func splitRef(ref string) (member, id string, ok bool) {
	member, id, ok = strings.Cut(ref, ":")
	return member, id, ok && member != "" && id != ""
}
