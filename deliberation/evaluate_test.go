package deliberation

import (
	"encoding/json"
	"testing"
)

// TestEvaluationProblemsInOnePass: every problem of an evaluation document
// is reported in one pass.
func TestEvaluationProblemsInOnePass(t *testing.T) {
	s := start(t, nil)
	respond(t, s, "1. a")
	_, err := s.evaluateJSON([]byte(`{"iteration":1,"response":"valid","points":[
		{"text":"a","triage":"in-scope","clasification":"AGREE"},
		{"text":"b","triage":"sideways","classification":"SKEPTICAL"},
		{"text":"c","triage":"in-scope","classification":"AGREE","claim_type":7}],
		"surfaced_questions":[""]}`), t0)
	assertProblems(t, err, []string{
		`points[0].clasification: unknown key; did you mean "classification"?`,
		"points[2].claim_type: is a number (7), want a string",
		`points[1].triage: is "sideways", want in-scope, out-of-scope or anchor-shift`,
		"points[1].flaw: is required for SKEPTICAL (the flaw in one sentence; if you cannot state one, use ILL-FORMED)",
		"surfaced_questions[0]: is empty",
	})
}

func TestEvaluateReturnsAssignedIDs(t *testing.T) {
	s := start(t, &StartOptions{Facts: []string{"no new infrastructure"}})
	respond(t, s, "1. a 2. b 3. c")
	next, err := s.evaluateJSON([]byte(`{"iteration":1,"response":"valid",
		"facts":[{"tag":"verified","ref":"client.py:88","text":"429 carries Retry-After"}],
		"points":[`+agree("honour Retry-After")+`,`+skeptical("retry 5 times", "arbitrary")+`,{"text":"use gRPC","triage":"out-of-scope"}]}`), t0)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(next.Assigned)
	want := `{"points":[{"path":"points[0]","id":"P1","at":"agreed"},{"path":"points[1]","id":"P2","at":"disputed","challenge":"C1"},{"path":"points[2]","id":"P3","at":"dismissed"}],"challenges":[{"id":"C1","points":["P2"]}],"facts":[{"path":"facts[0]","id":"F2"}]}`
	if string(got) != want {
		t.Errorf("assigned:\n%s\nwant\n%s", got, want)
	}
	// The next answer's step (what respond and send print) assigned
	// nothing: the evaluation's IDs are not repeated there.
	respond(t, s, "Re C1: 3 retries")
	if s.Next.Assigned != nil {
		t.Errorf("after respond, next.assigned = %+v", s.Next.Assigned)
	}
}
