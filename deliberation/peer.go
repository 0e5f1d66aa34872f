package deliberation

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/elicit/elicit/problem"
)

// recordPeerChallenge is the transcript record of a challenge a council's
// cross-review issued: the replay applies it again.
const recordPeerChallenge = "peer_challenge"

// peerChallengeData is a peer_challenge record's data.
type peerChallengeData struct {
	Point     string `json:"point"`
	Objection string `json:"objection"`
}

// peerObjection marks a challenge's objection as a peer's.
const peerObjection = "a peer consultee's review: "

// PeerChallenge issues a challenge from a council's cross-review on the
// agreed point pointID of deliberation id, with the reviewer's flaw as
// its objection: a SKEPTICAL challenge under the ledger's rules (the
// consultee defends it by ID or concedes it; dropped, reminder,
// UNDEFENDED). It is issued only while the deliberation awaits the answer
// to a critique or a reminder, whose prompt it then rebuilds with the
// challenge open; it returns the challenge's ID.
func (st *Store) PeerChallenge(id, pointID, objection string) (string, error) {
	var cid string
	_, err := st.Update(id, func(s *State, _ time.Time) ([]Record, error) {
		var err error
		if cid, err = s.peerChallenge(pointID, objection); err != nil {
			return nil, err
		}
		return []Record{
			{Kind: recordPeerChallenge, Iteration: s.Iteration, Data: mustMarshal(peerChallengeData{Point: pointID, Objection: objection})},
			{Kind: "prompt", Iteration: s.Iteration, Text: s.Next.Prompt},
		}, nil
	})
	return cid, err
}

func (s *State) peerChallenge(pointID, objection string) (string, error) {
	objection = strings.TrimSpace(objection)
	i := slices.IndexFunc(s.Buckets.Agreed, func(a Agreed) bool { return a.ID == pointID })
	switch {
	case objection == "":
		return "", problem.List{{Path: "flaw", Message: "is required: a challenge states its flaw"}}
	case !s.Active() || s.Next == nil || s.Next.Awaiting != AwaitResponse || s.quick() ||
		s.Next.Action != ActionCritique && s.Next.Action != ActionReminder:
		return "", problem.List{{Path: "id", Message: "a peer's challenge is issued only while a full deliberation awaits the answer to a critique or a reminder"}}
	case s.Consultation != nil && s.Consultation.Alive():
		return "", problem.List{{Path: "consultation", Message: "the consultee is being consulted: its prompt can no longer change"}}
	case i < 0:
		return "", problem.List{{Path: "point", Message: fmt.Sprintf("%s is not agreed: a peer challenges an agreed point", pointID)}}
	}
	a := s.Buckets.Agreed[i]
	s.Buckets.Agreed = slices.Delete(s.Buckets.Agreed, i, i+1)
	id := s.newChallengeID()
	s.Challenges[id] = &Challenge{Point: a.Point, Objection: peerObjection + line(objection), RaisedIter: s.Iteration - 1,
		Status: ChallengeOpen, PointID: pointID, Kind: ClassSkeptical}
	s.Disputed = append(s.Disputed, id)
	note := fmt.Sprintf("A peer's review challenges %s (agreed until now): defend it by ID (Re %s) or concede it.", pointID, id)
	s.setNext(ActionCritique, s.subsequent("", note))
	return id, nil
}
