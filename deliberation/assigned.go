package deliberation

import "strings"

// Assigned lists the IDs one evaluation assigned, so that later
// evaluations can cite them: each new point with where it went, each new
// challenge with its points, each new fact.
type Assigned struct {
	Points     []AssignedPoint     `json:"points,omitempty"`
	Challenges []AssignedChallenge `json:"challenges,omitempty"`
	Facts      []AssignedFact      `json:"facts,omitempty"`
}

// AssignedPoint is a point an evaluation placed.
type AssignedPoint struct {
	// Path is where the point came from: points[2], a partial defense's
	// challenges[0].conceded_part, or a refuted stress_test.objection.
	Path string `json:"path"`
	ID   string `json:"id"`
	// At is where it went: agreed, dismissed, unresolved, not_evaluated,
	// pending (awaiting clarification) or disputed.
	At string `json:"at"`
	// Challenge is the challenge that disputes it.
	Challenge string `json:"challenge,omitempty"`
}

// AssignedChallenge is a challenge an evaluation issued.
type AssignedChallenge struct {
	ID     string   `json:"id"`
	Points []string `json:"points"`
}

// AssignedFact is a ledger entry an evaluation added.
type AssignedFact struct {
	Path string `json:"path"`
	ID   string `json:"id"`
}

func (a *Assigned) point(path, id string) {
	if a == nil {
		return
	}
	for i := range a.Points {
		if a.Points[i].ID == id {
			a.Points[i].Path = path
			return
		}
	}
	a.Points = append(a.Points, AssignedPoint{Path: path, ID: id})
}

func (a *Assigned) bind(challenge, point string) {
	if a == nil {
		return
	}
	for i := range a.Challenges {
		if a.Challenges[i].ID == challenge {
			a.Challenges[i].Points = append(a.Challenges[i].Points, point)
			return
		}
	}
	a.Challenges = append(a.Challenges, AssignedChallenge{ID: challenge, Points: []string{point}})
}

func (a *Assigned) fact(path, id string) {
	if a != nil {
		a.Facts = append(a.Facts, AssignedFact{Path: path, ID: id})
	}
}

// final fills in where each point ended up once the rules ran, or returns
// nil when nothing was assigned.
func (a *Assigned) final(s *State) *Assigned {
	if a == nil || len(a.Points)+len(a.Challenges)+len(a.Facts) == 0 {
		return nil
	}
	at := s.placements()
	for i := range a.Points {
		p := &a.Points[i]
		where := ""
		if w := at[p.ID]; len(w) == 1 {
			where = w[0]
		}
		switch {
		case strings.HasPrefix(where, "disputed "):
			p.At, p.Challenge = "disputed", strings.TrimPrefix(where, "disputed ")
		case strings.HasPrefix(where, "buckets."):
			p.At, _, _ = strings.Cut(strings.TrimPrefix(where, "buckets."), "[")
		default:
			p.At, _, _ = strings.Cut(where, "[")
			if p.At == "pending_clarification" {
				p.At = "pending"
			}
		}
	}
	return a
}
