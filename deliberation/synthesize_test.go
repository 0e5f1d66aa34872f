package deliberation

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAnchorShiftKeepsTheWork: two anchor shifts end the deliberation, but
// the agreed points and the suggested reframings are still synthesized.
func TestAnchorShiftKeepsTheWork(t *testing.T) {
	s := start(t, nil)
	next := step(t, s, "1. a 2. b 3. c", points(agree("honour Retry-After"),
		`{"text":"ask whether to import at all","triage":"anchor-shift"}`,
		`{"text":"reframe as a queue design","triage":"anchor-shift"}`))
	if next.Action != ActionSynthesize || s.ExitReason != ExitAnchorShift || next.Reason != exitMsgAnchorShift {
		t.Fatalf("two anchor shifts: action %s, exit %q, reason %q", next.Action, s.ExitReason, next.Reason)
	}
	y, err := synthesize(s, testAnswer)
	if err != nil {
		t.Fatalf("synthesize refused: %v", err)
	}
	md := y.Markdown()
	for _, want := range []string{"| P1 | honour Retry-After | n/a |", "Suggested reframings", "P2: ask whether to import at all", "P3: reframe as a queue design", exitMsgAnchorShift} {
		if !strings.Contains(md, want) {
			t.Errorf("synthesis lacks %q:\n%s", want, md)
		}
	}
	if y.PermittedBy == "" || y.Inconclusive {
		t.Errorf("permitted by %q, inconclusive %v", y.PermittedBy, y.Inconclusive)
	}
}

// testAnswer is the top-line answer the tests synthesize with.
const testAnswer = "Yes: honour Retry-After; no fixed retry cap."

// TestSynthesisOpensWithTheAnswer: Synthesize needs the orchestrator's
// top-line answer (Exit Validation: the output answers the question); the
// synthesis opens with it, in the markdown and in the JSON. Refused
// without one, every problem at once; after an early exit (trivial) the
// direct answer is the top line.
func TestSynthesisOpensWithTheAnswer(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. x", points(agree("honour Retry-After")))
	step(t, s, "nothing", `{}`)
	step(t, s, "nothing new", `{"coverage":{}}`)
	for _, answer := range []string{"", " \n\t"} {
		_, err := synthesize(s, answer)
		assertProblems(t, err, []string{`answer: is required: the top-line answer to the question ("Should the importer retry on HTTP 429?") in a sentence or two, as you would tell the user; the synthesis opens with it (Exit Validation: confirm the output answers the question)`})
	}
	_, err := synthesize(s, strings.Repeat("x", MaxAnswer+1))
	assertProblems(t, err, []string{"answer: is 2001 characters, over 2000: a top-line answer is a sentence or two (the buckets carry the detail)"})

	y, err := synthesize(s, "  Yes: honour\n\nRetry-After.  ")
	if err != nil {
		t.Fatal(err)
	}
	if md := y.Markdown(); !strings.HasPrefix(md, "**Answer:** Yes: honour Retry-After.\n\n> **Question:** Should the importer retry on HTTP 429?\n") {
		t.Errorf("the synthesis does not open with the answer:\n%s", md)
	}
	js, _ := json.Marshal(y)
	if !strings.HasPrefix(string(js), `{"answer":"Yes: honour\n\nRetry-After.","question":`) {
		t.Errorf("JSON does not open with the answer (verbatim): %s", js)
	}

	active := start(t, nil)
	step(t, active, "1. x", points(skeptical("x", "fx")))
	_, err = synthesize(active, "")
	assertProblems(t, err, []string{
		"status: the deliberation is still active (next action: critique; open challenges: C1): Synthesize is permitted only after convergence, the cap or an early exit",
		`answer: is required: the top-line answer to the question ("Should the importer retry on HTTP 429?") in a sentence or two, as you would tell the user; the synthesis opens with it (Exit Validation: confirm the output answers the question)`})

	trivial := start(t, nil)
	step(t, trivial, "It is a yes.", `{"trivial":"Yes: honour Retry-After."}`)
	y, err = synthesize(trivial, "")
	if err != nil || y.Answer != "Yes: honour Retry-After." {
		t.Fatalf("trivial: %v, %+v", err, y)
	}
	if y, _ = synthesize(trivial, "Yes."); y.Answer != "Yes." {
		t.Errorf("a stated answer replaces the direct one: %q", y.Answer)
	}
}

// TestSynthesisAgreedCarriesItsReason: AGREED has a Reason column, the
// orchestrator's reason for each point ("—" when it gave none).
func TestSynthesisAgreedCarriesItsReason(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. a 2. b", points(
		`{"text":"honour Retry-After","triage":"in-scope","classification":"AGREE","claim_type":"empirical","evidence_type":"textual","reason":"client.py:88 parses the header"}`,
		`{"text":"one retry policy","triage":"in-scope","classification":"AGREE","claim_type":"value","evidence_type":"n/a"}`))
	step(t, s, "nothing", `{}`)
	step(t, s, "nothing new", `{"coverage":{}}`)
	y, err := synthesize(s, testAnswer)
	if err != nil {
		t.Fatal(err)
	}
	md := y.Markdown()
	for _, want := range []string{"| # | Point | Evidence | Reason |\n", "| P1 | honour Retry-After | textual | client.py:88 parses the header |\n", "| P2 | one retry policy | n/a | — |\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in:\n%s", want, md)
		}
	}
}

// TestSynthesisMarksFlaggedPoints: a point the arbiter flagged is marked
// where it stands, in the markdown and in the JSON, besides the
// ARBITRATION CONCERNS section.
func TestSynthesisMarksFlaggedPoints(t *testing.T) {
	blocked := func(text string) string {
		return `{"text":"` + text + `","triage":"in-scope","classification":"BLOCKED","blocked":{"measurement":"m","threshold":"t","verdict_delta":"d"}}`
	}
	s := start(t, nil)
	step(t, s, "1. a 2. b 3. c 4. d 5. e", points(blocked("a"), blocked("b"), agree("c"), agree("d"), agree("e")))
	step(t, s, "nothing", `{}`)
	if next := step(t, s, "nothing", `{"coverage":{}}`); next.Action != ActionArbitrate {
		t.Fatalf("two unresolved: action %s", next.Action)
	}
	step(t, s, "P1 and P3 are weak", `{"arbitration":{"flagged":[{"id":"P3","reason":"agreed on a claim"},{"id":"P1","reason":"no measurement planned"}]}}`)
	y, err := synthesize(s, testAnswer)
	if err != nil {
		t.Fatal(err)
	}
	md := y.Markdown()
	for _, want := range []string{"| P3 | c (arbitration concern) | n/a | ok |\n", "| P4 | d | n/a | ok |\n", "| P1 | a (arbitration concern) | blocked |", "| P2 | b | blocked |"} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in:\n%s", want, md)
		}
	}
	if y.Agreed[0].ArbitrationConcern != "agreed on a claim" || y.Unresolved[0].ArbitrationConcern != "no measurement planned" || y.Unresolved[1].ArbitrationConcern != "" {
		t.Errorf("agreed %+v unresolved %+v", y.Agreed, y.Unresolved)
	}
	js, _ := json.Marshal(y.Agreed[0])
	if !strings.Contains(string(js), `"arbitration_concern":"agreed on a claim"`) {
		t.Errorf("JSON entry %s", js)
	}
}

// TestOpenChallengesAtExitAreNamedOpen: a challenge still open when the
// deliberation ends goes to Unresolved as an open challenge, naming it,
// not as a tradeoff (nobody weighed one).
func TestOpenChallengesAtExitAreNamedOpen(t *testing.T) {
	s := start(t, nil)
	step(t, s, "1. x", points(skeptical("retry 5 times", "5 is arbitrary"), agree("honour Retry-After")))
	step(t, s, "garbage", `{"response":"format_failure"}`)
	next := step(t, s, "garbage again", `{"response":"format_failure"}`)
	if next.Action != ActionSynthesize || s.ExitReason != ExitQuality {
		t.Fatalf("action %s exit %q", next.Action, s.ExitReason)
	}
	u := s.Buckets.Unresolved
	if len(u) != 1 || u[0].Status != UnresolvedOpen || u[0].Crux != "C1, open at the exit: 5 is arbitrary" {
		t.Fatalf("unresolved %+v", u)
	}
	y, err := synthesize(s, "Honour Retry-After; the retry cap is still disputed.")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "synthesis_open.md", y.Markdown())
}
