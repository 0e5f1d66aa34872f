package deliberation

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// applyCoverage judges the answer to the coverage check: only NEW evidence
// (an artifact not cited in the earlier responses) that passes the ATTACK
// test extends the deliberation, once.
func (s *State) applyCoverage(ev *Evaluation) {
	s.Checks.Coverage = "done"
	cov := ev.Coverage
	s.coverage = s.coverageNew(cov.Artifacts)
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
	return cov != nil && cov.Attack && len(s.coverageNew(cov.Artifacts).New) > 0
}

// CoverageResult is what the coverage check's NEW test found: the
// artifacts it counted as NEW and those cited before, with the earlier
// citation. Evaluate returns it (next.coverage).
type CoverageResult struct {
	New   []string        `json:"new"`
	Cited []CitedArtifact `json:"cited"`
}

// CitedArtifact is an artifact cited before: the earlier citation as it
// was written (store.go:42-43) and where ("iteration 1": an answer;
// "ledger F2").
type CitedArtifact struct {
	Artifact string `json:"artifact"`
	Earlier  string `json:"earlier"`
	Where    string `json:"where"`
}

// coverageNew is the seed's NEW test ("scan iter 1 and iter 2 responses
// for the cited artifact. If found → not NEW"), with references
// normalised: a file is the same file by path suffix
// (/abs/deliberation/store.go = deliberation/store.go = store.go), a line
// is cited by any earlier citation of its file whose lines overlap it
// (store.go:43 after store.go:42-43), and store.go line 42 is store.go:42.
// A whole-file artifact is cited by any earlier citation of the file; a
// line is not cited by the bare file name. An artifact that is not a file
// reference (a test name, a command) is cited when an earlier answer
// contains it as a whole (case-insensitive; no letter, digit or
// underscore right before or after it). The ledger counts as cited too.
func (s *State) coverageNew(artifacts []string) *CoverageResult {
	type source struct{ where, text string }
	var earlier []source
	for _, r := range s.Responses[:max(len(s.Responses)-1, 0)] {
		earlier = append(earlier, source{fmt.Sprintf("iteration %d", r.Iteration), r.Text})
	}
	for _, f := range s.activeFacts() {
		earlier = append(earlier, source{"ledger " + orDefault(f.ID, "entry"), f.Raw})
	}
	cites := make([][]cite, len(earlier))
	for i, e := range earlier {
		cites[i] = findCites(e.text)
	}
	out := &CoverageResult{New: []string{}, Cited: []CitedArtifact{}}
	for _, a := range artifacts {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		found := false
		if c, ok := parseCite(a); ok {
			for i := range earlier {
				if e, ok := c.citedBy(cites[i]); ok {
					out.Cited = append(out.Cited, CitedArtifact{Artifact: a, Earlier: e, Where: earlier[i].where})
					found = true
					break
				}
			}
		} else {
			lower := strings.ToLower(a)
			for _, e := range earlier {
				if citesArtifact(strings.ToLower(e.text), lower) {
					out.Cited = append(out.Cited, CitedArtifact{Artifact: a, Earlier: a, Where: e.where})
					found = true
					break
				}
			}
		}
		if !found {
			out.New = append(out.New, a)
		}
	}
	return out
}

// cite is a reference to a file: its path, cleaned, lower-cased and split
// into components, and the line ranges it names (none: the whole file).
type cite struct {
	text  string
	path  []string
	lines [][2]int
}

// citeRef matches a path and, optionally, its lines: store.go:42,
// store.go:42-43, store.go:42:7, store.go#L42-L43, store.go line 42,
// store.go, lines 42 to 43, store.go (line 42). Compiled on first use.
var citeRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)([\w~.+@/\\-]+)(?::l?(\d+)(?:\s*[-–—]\s*l?(\d+)|:\d+)?|#l(\d+)(?:-l?(\d+))?|,?\s+\(?(?:at\s+)?lines?\s+(\d+)(?:\s*(?:[-–—]|to)\s*(\d+))?\)?)?`)
})

// findCites finds the file references of a text.
func findCites(text string) []cite {
	var out []cite
	for _, m := range citeRef().FindAllStringSubmatchIndex(text, -1) {
		if c, ok := citeOf(text, m); ok {
			out = append(out, c)
		}
	}
	return out
}

// parseCite reads an artifact that starts with a file reference
// (store.go:42, or store.go:42 followed by its quote).
func parseCite(artifact string) (cite, bool) {
	a := strings.TrimLeft(artifact, "`'\"(")
	m := citeRef().FindStringSubmatchIndex(a)
	if m == nil || m[0] != 0 {
		return cite{}, false
	}
	return citeOf(a, m)
}

// citeOf makes a cite of a match of citeRef, or reports that the match is
// no file reference: a path needs a letter, and without lines a folder
// (a slash) or an extension with a letter in it.
func citeOf(text string, m []int) (cite, bool) {
	raw := strings.TrimRight(text[m[2]:m[3]], ".-")
	num := func(k int) int {
		if m[2*k] < 0 {
			return 0
		}
		n, _ := strconv.Atoi(text[m[2*k]:m[2*k+1]])
		return n
	}
	var lines [][2]int
	for _, k := range []int{2, 4, 6} {
		if from := num(k); from > 0 {
			to := max(num(k+1), from)
			lines = append(lines, [2]int{from, to})
		}
	}
	if !strings.ContainsFunc(raw, unicode.IsLetter) {
		return cite{}, false
	}
	if lines == nil {
		ext := raw[strings.LastIndexByte(raw, '.')+1:]
		if !strings.ContainsAny(raw, "/\\") && (!strings.Contains(raw, ".") || !strings.ContainsFunc(ext, unicode.IsLetter)) {
			return cite{}, false
		}
	}
	p := path.Clean("/" + strings.ToLower(strings.ReplaceAll(raw, "\\", "/")))
	var comps []string
	for c := range strings.SplitSeq(p, "/") {
		if c != "" {
			comps = append(comps, c)
		}
	}
	if len(comps) == 0 {
		return cite{}, false
	}
	return cite{text: strings.TrimSpace(text[m[0]:m[1]]), path: comps, lines: lines}, true
}

// citedBy returns the first of earlier that cites c: the same file (one
// path a suffix of the other, component by component) and, when c names
// lines, lines that overlap them.
func (c cite) citedBy(earlier []cite) (string, bool) {
	for _, e := range earlier {
		if !samePath(c.path, e.path) {
			continue
		}
		if c.lines == nil {
			return e.text, true
		}
		for _, a := range c.lines {
			for _, b := range e.lines {
				if a[0] <= b[1] && b[0] <= a[1] {
					return e.text, true
				}
			}
		}
	}
	return "", false
}

// samePath: one path is a suffix of the other, component by component
// (store.go is deliberation/store.go, xstore.go is not).
func samePath(a, b []string) bool {
	n := min(len(a), len(b))
	return n > 0 && slices.Equal(a[len(a)-n:], b[len(b)-n:])
}

// newArtifacts are the artifacts the NEW test counts as NEW.
func (s *State) newArtifacts(artifacts []string) []string {
	return s.coverageNew(artifacts).New
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
