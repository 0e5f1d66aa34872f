package deliberation

import (
	"slices"
	"strings"
)

// applyCoverage judges the answer to the coverage check: only NEW evidence
// (an artifact not cited in the earlier responses) that passes the ATTACK
// test extends the deliberation, once.
func (s *State) applyCoverage(ev *Evaluation) {
	s.Checks.Coverage = "done"
	cov := ev.Coverage
	if !s.newEvidence(cov.Artifacts) || !cov.Attack {
		for _, p := range ev.Points {
			id := s.placePoint(p)
			s.notEvaluated(id, p.Text, "coverage check: no qualifying new evidence")
		}
		return
	}
	if cov.Contradicts != "" {
		for _, p := range ev.Points {
			id := s.placePoint(p)
			s.unresolve(id, p.Text, "conflicts with "+cov.Contradicts+" (Agreed)", UnresolvedTradeoff)
		}
		s.Warnings = append(s.Warnings, "coverage check: new evidence conflicts with "+cov.Contradicts)
		return
	}
	s.Checks.Extended++
	for _, p := range ev.Points {
		s.applyPoint(p)
	}
}

// newEvidence reports whether any artifact is absent from every earlier
// response (the seed's verification: scan iterations 1 and 2).
func (s *State) newEvidence(artifacts []string) bool {
	earlier := s.Responses[:len(s.Responses)-1]
	for _, a := range artifacts {
		a = strings.ToLower(strings.TrimSpace(a))
		if a == "" {
			continue
		}
		cited := slices.ContainsFunc(earlier, func(r Response) bool {
			return strings.Contains(strings.ToLower(r.Text), a)
		})
		if !cited {
			return true
		}
	}
	return false
}

// stressAllowed: the stress test needs early unanimity and must happen in
// CONSTRUCTIVE (at most one Extended CONSTRUCTIVE iteration each).
func (s *State) stressAllowed() bool {
	unanimous := len(s.Buckets.Dismissed) == 0 && len(s.Buckets.Unresolved) == 0 && len(s.Buckets.Agreed) > 0
	return unanimous && s.Iteration <= 3 && s.Checks.Extended < 2
}

func (s *State) startStress() {
	s.Checks.StressTest = "asked"
	s.Checks.Extended++
	s.Iteration++
	s.Phase = Constructive
	s.setNext(ActionStress, s.stressCall())
}

// applyStress routes the stress test by the dual veto.
func (s *State) applyStress(se *StressEval) {
	s.Checks.StressTest = "done"
	impact := se.Impact
	if len(impact) == 0 {
		for _, a := range s.Buckets.Agreed {
			impact = append(impact, a.ID)
		}
	}
	switch se.Classification {
	case "mitigable":
		for i := range s.Buckets.Agreed {
			if slices.Contains(impact, s.Buckets.Agreed[i].ID) {
				s.Buckets.Agreed[i].Mitigation = se.Mitigation
			}
		}
	case "refuted":
		id := nextID("P", s.pointIDs())
		s.Points[id] = &Point{Text: se.Objection, RaisedIter: s.Iteration}
		s.dismiss(id, TagRejected, se.Evidence)
	default: // fatal, unresolved, inconclusive
		s.unagree(impact, "stress test ("+se.Classification+"): "+se.Objection)
		if se.TopLineAffected {
			s.Warnings = append(s.Warnings, "Do not proceed; next step: "+orDefault(se.NextStep, "resolve the stress-test objection"))
		}
	}
}

// unagree moves Agreed points to Unresolved.
func (s *State) unagree(ids []string, crux string) {
	var keep []Agreed
	for _, a := range s.Buckets.Agreed {
		if slices.Contains(ids, a.ID) {
			s.unresolve(a.ID, a.Point, crux, UnresolvedTradeoff)
			continue
		}
		keep = append(keep, a)
	}
	s.Buckets.Agreed = keep
}

// applyArbitration: flags reduce confidence only; at 60% or more of the
// evaluated points the deliberation ends without a synthesis.
func (s *State) applyArbitration(ae *ArbitrationEval) {
	s.Checks.Arbitration = "done"
	evaluated := len(s.Buckets.Agreed) + len(s.Buckets.Dismissed) + len(s.Buckets.Unresolved)
	if evaluated > 0 && float64(len(ae.Flagged)) >= arbitrationBar*float64(evaluated) {
		s.finish(ExitArbitration, exitMsgArbitration)
		return
	}
	s.ArbitrationConcerns = append(s.ArbitrationConcerns, ae.Flagged...)
	s.finish(orDefault(s.Checks.DeferredExit, ExitConverged), "")
}
