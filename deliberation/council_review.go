package deliberation

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/elicit/elicit/problem"
)

// placed is a member's point where it stands: its bucket (agreed,
// dismissed, unresolved, disputed), the evidence an AGREE rests on, the
// tag of a dismissal.
type placed struct {
	id, text, bucket, evidence, tag string
}

// The places of a point, as the council reports them.
const (
	placeAgreed     = "agreed"
	placeDismissed  = "dismissed"
	placeUnresolved = "unresolved"
	placeDisputed   = "disputed"
)

// places are s's points in the buckets and the open disputes, by ID.
func places(s *State) []placed {
	var out []placed
	for _, a := range s.Buckets.Agreed {
		out = append(out, placed{id: a.ID, text: a.Point, bucket: placeAgreed, evidence: a.EvidenceType})
	}
	for _, d := range s.Buckets.Dismissed {
		out = append(out, placed{id: d.ID, text: d.Point, bucket: placeDismissed, tag: d.Tag})
	}
	for _, u := range s.Buckets.Unresolved {
		out = append(out, placed{id: u.ID, text: u.Point, bucket: placeUnresolved})
	}
	for _, cid := range s.Disputed {
		ch := s.Challenges[cid]
		if ch == nil {
			continue
		}
		ids := ch.Bindings
		if len(ids) == 0 && ch.PointID != "" {
			ids = []string{ch.PointID}
		}
		for _, pid := range ids {
			text := ch.Point
			if p := s.Points[pid]; p != nil {
				text = p.Text
			}
			out = append(out, placed{id: pid, text: text, bucket: placeDisputed})
		}
	}
	out = slices.DeleteFunc(out, func(p placed) bool { return p.id == "" })
	slices.SortStableFunc(out, func(a, b placed) int {
		if idLess(a.id, b.id) {
			return -1
		}
		if idLess(b.id, a.id) {
			return 1
		}
		return 0
	})
	return out
}

// BeginReview builds the cross-review's prompts, one per available member
// whose peers have points standing (agreed, unresolved, disputed), and
// marks the review sent; the prompts name no consultee, and a member never
// sees its own points. With fewer than two members to review, the review
// is skipped (done, no prompts).
func (st *Store) BeginReview(id string) (*Council, error) {
	if st.sh != nil {
		return sharedCouncil(st, id, true, func(v *Store) (*Council, error) { return v.BeginReview(id) })
	}
	c, states, err := st.councilStates(id)
	if err != nil {
		return nil, err
	}
	if !c.reviewDue(states) {
		return nil, problem.List{{Path: "id", Message: fmt.Sprintf("council %s has no cross-review due (%s)", id, c.step(states).Action)}}
	}
	return st.UpdateCouncil(id, func(c *Council) error {
		r := c.Review
		r.Labels, r.Prompts = map[string]map[string]string{}, map[string]string{}
		find := c.merged()
		for i, m := range c.Members {
			if m.Failure != nil {
				continue
			}
			// A point merged with one of the reviewer's own is its own.
			own := map[string]bool{}
			for _, p := range places(states[i]) {
				own[find(pointRef(m.Name, p.id))] = true
			}
			type peer struct{ ref, text string }
			var peers []peer
			for j, o := range c.Members {
				if j == i || o.Failure != nil {
					continue
				}
				for _, p := range places(states[j]) {
					ref := pointRef(o.Name, p.id)
					if p.bucket != placeDismissed && !own[find(ref)] {
						peers = append(peers, peer{ref, p.text})
					}
				}
			}
			if len(peers) == 0 {
				continue
			}
			// By text, so that the order says nothing about who made which.
			slices.SortStableFunc(peers, func(a, b peer) int { return cmp.Compare(a.text, b.text) })
			labels := map[string]string{}
			var lines []string
			for k, p := range peers {
				label := fmt.Sprintf("R%d", k+1)
				labels[label] = p.ref
				lines = append(lines, fmt.Sprintf("- %s: %s", label, line(p.text)))
			}
			r.Labels[m.Name] = labels
			r.Prompts[m.Name] = reviewPrompt(states[i], m.Stance, lines)
		}
		if len(r.Prompts) < 2 {
			r.Status, r.Labels, r.Prompts = ReviewDone, nil, nil
			return nil
		}
		r.Status = ReviewSent
		return nil
	})
}

// reviewPrompt is the cross-review prompt for the member whose state is
// s and whose stance is stance: the question, the stance, the peers'
// points by label only.
func reviewPrompt(s *State, stance string, lines []string) string {
	var b strings.Builder
	b.WriteString(wrapQuestion(s.questionText()) + "\n")
	if t := StanceText(stance); t != "" {
		b.WriteString(t + "\n\n")
	}
	b.WriteString("CROSS-REVIEW. Other consultees, unnamed, made the points below; you made none of them. Judge each on its merits, not on who might have made it.\n\n")
	b.WriteString(strings.Join(lines, "\n") + "\n\n")
	b.WriteString("For each point you can judge, one line: \"R#: AGREE\", or \"R#: CHALLENGE: the flaw in one sentence\" with EVIDENCE (execution output, path:line + verbatim quote) when you have it. A challenge without a stated flaw does not count; an uncited claim is argument, not evidence. Say nothing about a point you cannot judge.\n")
	return b.String()
}

// RecordReview records member name's answer to its review prompt.
func (st *Store) RecordReview(id, name, answer string) (*Council, error) {
	if st.sh != nil {
		return sharedCouncil(st, id, true, func(v *Store) (*Council, error) { return v.RecordReview(id, name, answer) })
	}
	return st.UpdateCouncil(id, func(c *Council) error {
		r := c.Review
		if r == nil || r.Status != ReviewSent {
			return problem.List{{Path: "id", Message: fmt.Sprintf("council %s has no cross-review out", id)}}
		}
		if _, asked := r.Prompts[name]; !asked {
			return problem.List{{Path: "consultee", Message: fmt.Sprintf("%s was sent no review prompt", name)}}
		}
		if strings.TrimSpace(answer) == "" {
			return problem.List{{Path: "answer", Message: fmt.Sprintf("%s's review answer is empty", name)}}
		}
		if r.Answers == nil {
			r.Answers = map[string]string{}
		}
		r.Answers[name] = answer
		r.ended(name)
		return nil
	})
}

// FailReview records that member name could not review (its consultant
// failed): the review goes on without it, and the failure is shown.
func (st *Store) FailReview(id, name, message string) (*Council, error) {
	if st.sh != nil {
		return sharedCouncil(st, id, true, func(v *Store) (*Council, error) { return v.FailReview(id, name, message) })
	}
	return st.UpdateCouncil(id, func(c *Council) error {
		r := c.Review
		if r == nil || r.Status != ReviewSent || r.Prompts[name] == "" {
			return problem.List{{Path: "consultee", Message: fmt.Sprintf("%s was sent no review prompt", name)}}
		}
		delete(r.Prompts, name)
		delete(r.Labels, name)
		if r.Failures == nil {
			r.Failures = map[string]string{}
		}
		r.Failures[name] = message
		r.ended(name)
		return nil
	})
}

// ended forgets the process that consulted reviewer name.
func (r *Review) ended(name string) {
	delete(r.Reviewing, name)
	if len(r.Reviewing) == 0 {
		r.Reviewing = nil
	}
}

// NoteReviewer notes that c, a process of its own, consults reviewer
// name's review of council id. It is refused when name was sent no review
// prompt, has answered, or is consulted by another process still running.
func (st *Store) NoteReviewer(id, name string, c Consultation) (*Council, error) {
	return st.UpdateCouncil(id, func(co *Council) error {
		r := co.Review
		switch {
		case r == nil || r.Status != ReviewSent || r.Prompts[name] == "":
			return problem.List{{Path: "consultee", Message: fmt.Sprintf("%s was sent no review prompt", name)}}
		case r.Answers[name] != "":
			return problem.List{{Path: "consultee", Message: fmt.Sprintf("%s has answered its review", name)}}
		case r.Running(name):
			o := r.Reviewing[name]
			return problem.List{{Path: "consultee", Message: fmt.Sprintf("%s's review has been consulted since %s by process %d", name, o.StartedAt, o.PID)}}
		}
		c.StartedAt = st.clock.Now().UTC().Format(time.RFC3339)
		if r.Reviewing == nil {
			r.Reviewing = map[string]*Consultation{}
		}
		r.Reviewing[name] = &c
		return nil
	})
}

// Running reports whether a process that still runs consults reviewer
// name's review (one NoteReviewer noted).
func (r *Review) Running(name string) bool {
	return r != nil && r.Reviewing[name].Alive()
}
