package deliberation

import (
	"fmt"
	"slices"
	"strings"
)

// applyCoverage judges the answer to the coverage check: only NEW evidence
// (an artifact not cited in the earlier responses) that passes the ATTACK
// test extends the deliberation, once.
func (s *State) applyCoverage(ev *Evaluation) {
	s.Checks.Coverage = "done"
	cov := ev.Coverage
	if !s.qualifyingCoverage(cov) {
		for i, p := range ev.Points {
			id := s.placePoint(fmt.Sprintf("points[%d]", i), p)
			s.notEvaluated(id, p.Text, "coverage check: no qualifying new evidence")
		}
		return
	}
	if cov.Contradicts != "" {
		for i, p := range ev.Points {
			id := s.placePoint(fmt.Sprintf("points[%d]", i), p)
			s.unresolve(id, p.Text, "conflicts with "+cov.Contradicts+" (Agreed)", UnresolvedTradeoff)
		}
		s.Warnings = append(s.Warnings, "coverage check: new evidence conflicts with "+cov.Contradicts)
		return
	}
	s.Checks.Extended++
	s.extend = true
	for i, p := range ev.Points {
		s.applyPoint(fmt.Sprintf("points[%d]", i), p)
	}
}

// qualifyingCoverage: the answer cites NEW evidence that passes the ATTACK
// test.
func (s *State) qualifyingCoverage(cov *CoverageEval) bool {
	return cov != nil && cov.Attack && len(s.newArtifacts(cov.Artifacts)) > 0
}

// newArtifacts are the artifacts absent from every earlier response (the
// seed's verification: scan iterations 1 and 2). An artifact counts as
// cited only as a whole: client.go:1 is not cited by client.go:12.
func (s *State) newArtifacts(artifacts []string) []string {
	earlier := s.Responses[:len(s.Responses)-1]
	var out []string
	for _, a := range artifacts {
		a = strings.ToLower(strings.TrimSpace(a))
		if a == "" {
			continue
		}
		cited := slices.ContainsFunc(earlier, func(r Response) bool {
			return citesArtifact(strings.ToLower(r.Text), a)
		})
		if !cited {
			out = append(out, a)
		}
	}
	return out
}

// citesArtifact reports whether text contains artifact with no letter,
// digit or underscore right before or after it.
func citesArtifact(text, artifact string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], artifact)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(artifact)
		before := at == 0 || !isWordByte(text[at-1]) || !isWordByte(artifact[0])
		after := end == len(text) || !isWordByte(text[end]) || !isWordByte(artifact[len(artifact)-1])
		if before && after {
			return true
		}
		i = at + 1
	}
}

// stressAllowed: the stress test needs early unanimity and must happen in
// CONSTRUCTIVE (at most one Extended CONSTRUCTIVE iteration each).
func (s *State) stressAllowed() bool {
	return s.stressBlocker() == ""
}

// stressBlocker says why the stress test cannot run now, or "".
func (s *State) stressBlocker() string {
	return orDefault(s.stressLimit(), s.stressDissent())
}

// stressLimit says why a stress test can no longer run at all (N only
// grows, and so do the Extended iterations), or "".
func (s *State) stressLimit() string {
	switch {
	case s.quick():
		return "a quick deliberation has no stress test"
	case s.Iteration > 3:
		return fmt.Sprintf("it must start by iteration 3 and the deliberation is at iteration %d", s.Iteration)
	case s.Checks.Extended >= 2:
		return "both Extended CONSTRUCTIVE iterations are used"
	}
	return ""
}

// stressDissent says why the deliberation is not unanimous, or "":
// unanimity is at least one Agreed point and nothing Dismissed or
// Unresolved, where a point triaged out of scope does not count (it was
// never evaluated; docs/decisions.md, "A point triaged out of scope does not
// break unanimity").
func (s *State) stressDissent() string {
	var against []string
	for i, d := range s.Buckets.Dismissed {
		if d.Tag != TagOutOfScope {
			against = append(against, rowID(d.ID, i)+" is Dismissed ("+d.Tag+")")
		}
	}
	for i, u := range s.Buckets.Unresolved {
		against = append(against, rowID(u.ID, i)+" is Unresolved")
	}
	switch {
	case len(against) > 0:
		return "it needs unanimity and " + strings.Join(against, ", ")
	case len(s.Buckets.Agreed) == 0:
		return "it needs unanimity and nothing is Agreed"
	}
	return ""
}

// skipStress records a required stress test that will not run, with its
// reason, as a warning the synthesis shows.
func (s *State) skipStress(why string) {
	if s.Checks.StressTest != "required" {
		return
	}
	s.Checks.StressTest = "skipped"
	s.Checks.StressSkipped = why
	s.Warnings = append(s.Warnings, "The requested stress test was not run: "+why+".")
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
		id := s.newPointID()
		s.assigned.point("stress_test.objection", id)
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
