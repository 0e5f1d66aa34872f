package deliberation

import (
	"testing"
)

// TestEvaluationChecksDoNotGoQuiet: each wrong part of an evaluation is
// reported, whatever else is wrong beside it.
func TestEvaluationChecksDoNotGoQuiet(t *testing.T) {
	disputed := func(t *testing.T) *State {
		s := start(t, nil)
		step(t, s, "1. retry 5 times", points(skeptical("retry 5 times", "arbitrary")))
		respond(t, s, "Re C1: I defend C1.")
		return s
	}
	t.Run("an unknown challenge's outcome is still checked", func(t *testing.T) {
		_, err := evalJSON(disputed(t), `{"challenges":[{"id":"C9","outcome":"won"}]}`)
		assertProblems(t, err, []string{
			`challenges[0].id: "C9" is not a challenge of this deliberation`,
			`challenges[0].outcome: is "won", want accepted, rejected, refuted, conceded, partial, corrected, upgraded, evaluating, missing_id or adjudicated`,
		})
	})
	t.Run("a missing challenge id is called missing", func(t *testing.T) {
		_, err := evalJSON(disputed(t), `{"challenges":[{"outcome":"conceded"}]}`)
		assertProblems(t, err, []string{
			"challenges[0].id: is missing: the ID of the challenge judged (C1 is disputed)",
		})
	})
	t.Run("a challenge no longer disputed still has its outcome checked", func(t *testing.T) {
		s := disputed(t)
		if _, err := evalJSON(s, challengeEval(`{"id":"C1","outcome":"conceded"}`)); err != nil {
			t.Fatal(err)
		}
		respond(t, s, "more")
		_, err := evalJSON(s, `{"challenges":[{"id":"C1","outcome":"won"}]}`)
		assertProblemsContain(t, err,
			"challenges[0].id: C1 is no longer disputed",
			`challenges[0].outcome: is "won", want accepted`)
	})
	t.Run("blocked on a point that is not BLOCKED", func(t *testing.T) {
		s := start(t, nil)
		respond(t, s, "1. a 2. b")
		_, err := evalJSON(s, points(
			`{"text":"a","triage":"in-scope","classification":"SKEPTICAL","flaw":"f","blocked":{}}`,
			`{"text":"b","triage":"out-of-scope","blocked":{"measurement":"m","threshold":"t","verdict_delta":"d"}}`))
		assertProblems(t, err, []string{
			"points[0].blocked: is given only with the classification BLOCKED (this point is SKEPTICAL)",
			`points[1].blocked: is given only with the classification BLOCKED (this point is "")`,
		})
	})
	t.Run("blocked on a challenge without a missing-data deadlock", func(t *testing.T) {
		_, err := evalJSON(disputed(t), `{"challenges":[{"id":"C1","outcome":"conceded","blocked":{}}]}`)
		assertProblems(t, err, []string{
			"challenges[0].blocked: is given only with the deadlock missing-data",
		})
	})
	t.Run("an unknown response does not hide the other problems", func(t *testing.T) {
		s := disputed(t)
		_, err := evalJSON(s, `{"response":"fine",
			"points":[{"text":"","triage":"sideways","classification":"MAYBE"}],
			"challenges":[{"id":"C1","outcome":"won"}],
			"surfaced_questions":[""]}`)
		assertProblems(t, err, []string{
			`response: is "fine", want valid, format_failure, quality_failure or degraded_context`,
			"points[0].text: is empty",
			`points[0].triage: is "sideways", want in-scope, out-of-scope or anchor-shift`,
			`points[0].classification: is "MAYBE", want AGREE, SKEPTICAL, REJECT, ILL-FORMED or BLOCKED`,
			`challenges[0].outcome: is "won", want accepted, rejected, refuted, conceded, partial, corrected, upgraded, evaluating, missing_id or adjudicated`,
			"surfaced_questions[0]: is empty",
		})
	})
	t.Run("an unknown response with nothing else is one problem", func(t *testing.T) {
		s := start(t, nil)
		respond(t, s, "1. a")
		_, err := evalJSON(s, `{"response":"format-failure"}`)
		assertProblems(t, err, []string{
			`response: is "format-failure", want valid, format_failure, quality_failure or degraded_context`,
		})
	})
}
