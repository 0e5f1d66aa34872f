package deliberation

import (
	"slices"
	"strings"
	"testing"
)

// TestDecisiveEvidenceAgainstAClaimDismissesIt replays the issue's
// scenario: a BLOCKED point ("a 5-minute idle timeout is enough") and a
// measurement that contradicts it. Refuting it dismisses it REJECTED with
// the evidence and tells the consultee; it never lands in AGREED.
func TestDecisiveEvidenceAgainstAClaimDismissesIt(t *testing.T) {
	blocked := `{"text":"a 5-minute idle timeout is enough","triage":"in-scope","classification":"BLOCKED",
		"blocked":{"measurement":"longest gap between codex events","threshold":"5 min","verdict_delta":"over 5 min: REJECT"}}`
	measured := "measured: longest gap 11 min 40 s"
	s := start(t, nil)
	step(t, s, "1. a 5-minute idle timeout is enough 2. retries need a cap", points(blocked, skeptical("retries need a cap", "no cap named")))
	if bucketOf(s, "P1") != "buckets.unresolved[0]" {
		t.Fatalf("P1 at %s", bucketOf(s, "P1"))
	}
	next := step(t, s, "Re C1: cap at 5. Measured: longest gap 11 min 40 s.", `{"challenges":[{"id":"C1","outcome":"evaluating"}],"points":[`+decisive(measured, "refutes", "P1")+`]}`)
	d := s.Buckets.Dismissed
	if len(d) != 1 || d[0].ID != "P1" || d[0].Tag != TagRejected || d[0].Reason != "contradicted by decisive evidence: "+measured {
		t.Errorf("dismissed %+v", d)
	}
	if slices.ContainsFunc(s.Buckets.Agreed, func(a Agreed) bool { return a.ID == "P1" }) || len(s.Buckets.Unresolved) != 0 {
		t.Errorf("agreed %+v unresolved %+v", s.Buckets.Agreed, s.Buckets.Unresolved)
	}
	want := "REJECT [a 5-minute idle timeout is enough — REJECTED: contradicted by decisive evidence: " + measured + "]"
	if !strings.Contains(next.Prompt, want) {
		t.Errorf("the consultee is not told; want %q in:\n%s", want, next.Prompt)
	}

	t.Run("evidence that matches the claim agrees it", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. a 5-minute idle timeout is enough", points(blocked))
		step(t, s, "measured: longest gap 3 min", points(decisive("measured: longest gap 3 min", "confirms", "P1")))
		if a := s.Buckets.Agreed; len(a) != 2 || a[1].ID != "P1" || a[1].Reason != "confirmed by decisive evidence: measured: longest gap 3 min" {
			t.Errorf("agreed %+v", a)
		}
	})
	t.Run("the old flips is refused with the keys that replace it", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. a 5-minute idle timeout is enough", points(blocked))
		respond(t, s, measured)
		_, err := evalJSON(s, points(strings.Replace(decisive(measured, "refutes", "P1"), `"refutes"`, `"flips"`, 1)))
		assertProblems(t, err, []string{"points[0].flips: " + retiredFlips})
	})
	t.Run("a challenge the evidence closes is not also judged to move", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. x", points(skeptical("x", "fx")))
		respond(t, s, "Re C1: trace")
		_, err := evalJSON(s, `{"challenges":[{"id":"C1","outcome":"accepted","evidence_type":"execution"}],"points":[`+decisive("trace", "refutes", "P1")+`]}`)
		assertProblems(t, err, []string{"challenges[0].outcome: is accepted, but C1 closes with this evaluation (points[0].refutes moves its point): judge it evaluating, or leave it out"})
	})
	t.Run("one direction, and one that moves the point", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. x 2. y", points(agree("x"), reject("y", "wrong")))
		respond(t, s, "Re C1: y. trace")
		both := strings.Replace(decisive("trace", "refutes", "P2"), `}`, `,"confirms":"P2"}`, 1)
		_, err := evalJSON(s, `{"challenges":[{"id":"C1","outcome":"evaluating"}],"points":[`+both+`,`+decisive("trace 2", "confirms", "P1")+`]}`)
		assertProblems(t, err, []string{
			"points[0].refutes: confirms and refutes are exclusive: the evidence either matches the exact predicate of P2 (confirms) or contradicts it (refutes)",
			"points[1].confirms: P1 is already Agreed: confirms moves a point into Agreed (leave it out, or name the point the evidence bears on)",
		})
	})
}

// TestCoverageNewNormalisesReferences: after store.go:42 was cited, the
// same line by another path, inside a cited range or as "line N" is not
// NEW; the result names what it counted as new and what it did not, with
// the earlier citation.
func TestCoverageNewNormalisesReferences(t *testing.T) {
	reach := func(t *testing.T) *State {
		s := start(t, nil)
		step(t, s, "1. the lock is taken at store.go:42. EVIDENCE.", points(agree("the lock is taken first")))
		next := step(t, s, "1. fsync follows (see deliberation/journal.go:10-12 and retry_test.go)", points(agree("fsync follows")))
		if next.Action != ActionCoverage {
			t.Fatalf("action %s", next.Action)
		}
		return s
	}
	for _, tc := range []struct {
		artifact, earlier, where string // earlier "": NEW
	}{
		{"/abs/path/deliberation/store.go:42", "store.go:42", "iteration 1"},
		{"deliberation/store.go:42", "store.go:42", "iteration 1"},
		{"store.go line 42", "store.go:42", "iteration 1"},
		{"`store.go:42` mu.Lock()", "store.go:42", "iteration 1"},
		{"journal.go:11", "deliberation/journal.go:10-12", "iteration 2"},
		{"/srv/x/deliberation/journal.go#L12-L14", "deliberation/journal.go:10-12", "iteration 2"},
		{"journal.go, lines 9 to 10", "deliberation/journal.go:10-12", "iteration 2"},
		{"retry_test.go", "retry_test.go", "iteration 2"},
		{"store.go:43", "", ""},
		{"xstore.go:42", "", ""},
		{"other/journal.go:11", "", ""},
		{"retry_test.go:7", "", ""},
		{"TestCap", "", ""},
	} {
		t.Run(tc.artifact, func(t *testing.T) {
			s := reach(t)
			respond(t, s, tc.artifact+" shows a gap")
			next, err := evalJSON(s, `{"coverage":{"artifacts":[`+quote(tc.artifact)+`],"attack":true},"points":[`+skeptical("the gap", "unproven")+`]}`)
			if err != nil {
				t.Fatal(err)
			}
			got := next.Coverage
			switch {
			case tc.earlier == "":
				if !slices.Equal(got.New, []string{tc.artifact}) || len(got.Cited) != 0 || next.Action != ActionCritique || s.Checks.Extended != 1 {
					t.Errorf("want NEW and Extended CONSTRUCTIVE: coverage %+v, action %s", got, next.Action)
				}
			default:
				want := []CitedArtifact{{Artifact: tc.artifact, Earlier: tc.earlier, Where: tc.where}}
				if len(got.New) != 0 || !slices.Equal(got.Cited, want) || next.Action != ActionSynthesize || s.Checks.Extended != 0 {
					t.Errorf("want cited %+v, not Extended: coverage %+v, action %s", want, got, next.Action)
				}
			}
		})
	}
	t.Run("a ledger entry counts as cited", func(t *testing.T) {
		s := start(t, nil)
		step(t, s, "1. a", `{"facts":[{"tag":"verified","ref":"api.py:40-45","text":"rate=100/s"}],"points":[`+agree("a")+`]}`)
		step(t, s, "1. b", points(agree("b")))
		respond(t, s, "api.py:44 caps the rate")
		next, err := evalJSON(s, `{"coverage":{"artifacts":["api.py:44"],"attack":true}}`)
		if err != nil {
			t.Fatal(err)
		}
		if want := []CitedArtifact{{Artifact: "api.py:44", Earlier: "api.py:40-45", Where: "ledger F1"}}; !slices.Equal(next.Coverage.Cited, want) {
			t.Errorf("coverage %+v", next.Coverage)
		}
	})
}

func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
