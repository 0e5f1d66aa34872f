package deliberation

import "testing"

// TestDecodeEvaluationProblems: a bad evaluation document is refused with
// every problem, each located by its JSON path (indexes included) and
// described in JSON terms, never in Go type names.
func TestDecodeEvaluationProblems(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"empty", "", []string{"evaluation is not valid: the document is empty; want a JSON object"}},
		{"blank", " \n\t", []string{"evaluation is not valid: the document is empty; want a JSON object"}},
		{"array", "[]", []string{"evaluation is not valid: the document is an array, want a JSON object"}},
		{"string", `"valid"`, []string{`evaluation is not valid: the document is a string ("valid"), want a JSON object`}},
		{"null", "null", []string{"evaluation is not valid: the document is null, want a JSON object"}},
		{"not JSON", `{"iteration":`, []string{"evaluation is not valid: invalid JSON at line 1, column 14: unexpected end of input (expected a value)"}},
		{"trailing data", `{"iteration":1,"response":"valid"} {}`, []string{"evaluation is not valid: invalid JSON at line 1, column 36: unexpected character '{' after the end of the value"}},
		{"not UTF-8", "{\"iteration\":1,\"response\":\"va\xfflid\"}", []string{"evaluation is not valid: the document is not valid UTF-8 (first bad byte at offset 29)"}},
		{"every type problem", `{"iteration":"1","response":5}`, []string{
			`iteration: is a string ("1"), want a whole number`,
			"response: is a number (5), want a string"}},
		{"indexed paths", `{"iteration":1,"response":"valid","points":[
			{"text":"a","triage":"in-scope"},
			{"text":"b","triage":"in-scope","relies_on":["F1",2]},
			{"text":3,"triage":"in-scope","blocked":{"measurement":[]}}]}`, []string{
			"points[1].relies_on[1]: is a number (2), want a string",
			"points[2].text: is a number (3), want a string",
			"points[2].blocked.measurement: is an array, want a string"}},
		{"a list in place of an object and back", `{"iteration":1,"response":"valid","points":{"text":"a"},"coverage":[],"facts":"F1"}`, []string{
			"points: is an object, want an array of objects",
			"coverage: is an array, want an object",
			`facts: is a string ("F1"), want an array of objects`}},
		{"fraction and booleans", `{"iteration":1.5,"response":"valid","require_stress_test":"yes","request_arbitration":null}`, []string{
			"iteration: is a number (1.5), want a whole number",
			`require_stress_test: is a string ("yes"), want a boolean (true or false)`,
			"request_arbitration: is null, want a boolean (true or false)"}},
		{"duplicate keys", `{"iteration":1,"response":"valid","iteration":2,"points":[{"text":"a","text":"b","triage":"in-scope"}]}`, []string{
			"iteration: duplicate key (each key may appear once)",
			"points[0].text: duplicate key (each key may appear once)"}},
		{"unknown keys", `{"iteration":1,"respnse":"valid","colour":"red","challenges":[{"id":"C1","outcome":"accepted","evidnce":"x"}]}`, []string{
			`respnse: unknown key; did you mean "response"?`,
			"colour: unknown key; want one of: iteration, response, degraded, session_id, trivial, points, challenges, facts, require_stress_test, request_arbitration, coverage, stress_test, arbitration, surfaced_questions",
			`challenges[0].evidnce: unknown key; did you mean "evidence"?`}},
		{"unknown key next to the key it resembles", `{"iteration":1,"response":"valid","pointz":[],"points":[{"text":3,"triage":"in-scope"},{"text":"b","triage":[]}]}`, []string{
			"pointz: unknown key; want one of: iteration, response, degraded, session_id, trivial, points, challenges, facts, require_stress_test, request_arbitration, coverage, stress_test, arbitration, surfaced_questions",
			"points[0].text: is a number (3), want a string",
			"points[1].triage: is an array, want a string"}},
		{"a missing text is required, not empty", `{"iteration":1,"response":"valid","points":[{"text":"a","triage":"in-scope"},{"triage":"in-scope"},{"txt":"c"}],"facts":[{"tag":"user"}]}`, []string{
			`points[2].txt: unknown key; did you mean "text"?`,
			"points[1].text: is required (the point in the consultee's words)",
			"facts[0].text: is required (the fact itself)"}},
		{"out of range", `{"iteration":99999999999999999999,"response":"valid"}`, []string{
			"iteration: is a number (99999999999999999999), want a whole number"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := DecodeEvaluation([]byte(tt.doc))
			if err == nil {
				t.Fatalf("accepted: %+v", ev)
			}
			assertProblems(t, err, tt.want)
		})
	}
}

// TestDecodeEvaluationAccepts: what encoding/json accepted still decodes
// to the same value (null for optional lists and objects included).
func TestDecodeEvaluationAccepts(t *testing.T) {
	ev, err := DecodeEvaluation([]byte(`{"iteration":2,"response":"valid","points":[{"text":"a","triage":"in-scope","relies_on":["F1"],"blocked":{"measurement":"m","threshold":"t","verdict_delta":"d"}}],"coverage":null,"facts":null,"arbitration":{"flagged":[]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Iteration != 2 || ev.Response != "valid" || len(ev.Points) != 1 || ev.Points[0].ReliesOn[0] != "F1" ||
		ev.Points[0].Blocked == nil || ev.Points[0].Blocked.VerdictDelta != "d" || ev.Coverage != nil || ev.Arbitration == nil {
		t.Errorf("decoded %+v", ev)
	}
}

// TestEvaluateJSONUnknownKeyHidesNothing: an unknown key that resembles a
// key the document also has is not taken for it, so that key's problems
// are all reported.
func TestEvaluateJSONUnknownKeyHidesNothing(t *testing.T) {
	s := start(t, nil)
	respond(t, s, "1. a")
	_, err := s.evaluateJSON([]byte(`{"iteration":1,"response":"valid","pointz":[],"points":[{"text":"a","triage":"in-scope","classification":"MAYBE"}]}`), t0)
	assertProblems(t, err, []string{
		"pointz: unknown key; want one of: iteration, response, degraded, session_id, trivial, points, challenges, facts, require_stress_test, request_arbitration, coverage, stress_test, arbitration, surfaced_questions",
		`points[0].classification: is "MAYBE", want AGREE, SKEPTICAL, REJECT, ILL-FORMED or BLOCKED`,
	})
}
