package deliberation

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/elicit/elicit/problem"
)

func start(t *testing.T, opts *StartOptions) *State {
	t.Helper()
	s, err := New("Should the importer retry on HTTP 429?", opts, t0)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func respond(t *testing.T, s *State, text string) {
	t.Helper()
	if err := s.Respond(text, t0); err != nil {
		t.Fatalf("respond: %v", err)
	}
}

// step records a response and applies an evaluation given as JSON with
// the iteration filled in.
func step(t *testing.T, s *State, response, evaluation string) *Next {
	t.Helper()
	respond(t, s, response)
	next, err := evalJSON(s, evaluation)
	if err != nil {
		t.Fatalf("evaluate at iteration %d: %v", s.Iteration, err)
	}
	if err := s.validate(); err != nil {
		t.Fatalf("state invalid after evaluate: %v", err)
	}
	return next
}

func evalJSON(s *State, evaluation string) (*Next, error) {
	var m map[string]any
	if err := json.Unmarshal([]byte(evaluation), &m); err != nil {
		panic("test evaluation is not JSON: " + err.Error())
	}
	m["iteration"] = s.Iteration
	if m["response"] == nil {
		m["response"] = ResponseValid
	}
	js, _ := json.Marshal(m)
	ev, err := DecodeEvaluation(js)
	if err != nil {
		return nil, err
	}
	return s.Evaluate(ev, t0)
}

const (
	agreeP  = `{"text":"%s","triage":"in-scope","classification":"AGREE","claim_type":"value","reason":"ok"}`
	skeptP  = `{"text":"%s","triage":"in-scope","classification":"SKEPTICAL","flaw":"%s"}`
	rejectP = `{"text":"%s","triage":"in-scope","classification":"REJECT","flaw":"%s","claim_type":"empirical","evidence":"api.py:3","why_terminal":"contradicted by code"}`
)

func points(ps ...string) string { return `{"points":[` + strings.Join(ps, ",") + `]}` }

func agree(text string) string        { return fmt.Sprintf(agreeP, text) }
func skeptical(text, f string) string { return fmt.Sprintf(skeptP, text, f) }
func reject(text, f string) string    { return fmt.Sprintf(rejectP, text, f) }

func challengeEval(parts ...string) string {
	return `{"challenges":[` + strings.Join(parts, ",") + `]}`
}

func bucketOf(s *State, id string) string {
	at := s.placements()[id]
	if len(at) != 1 {
		return fmt.Sprintf("%v", at)
	}
	return at[0]
}

func reachArbitration(t *testing.T) *State {
	t.Helper()
	blocked := func(text string) string {
		return `{"text":"` + text + `","triage":"in-scope","classification":"BLOCKED","blocked":{"measurement":"m","threshold":"t","verdict_delta":"d"}}`
	}
	s := start(t, nil)
	step(t, s, "1. a 2. b 3. c", points(blocked("a"), blocked("b"), agree("c")))
	step(t, s, "nothing", `{}`)
	if next := step(t, s, "nothing", `{"coverage":{}}`); next.Action != ActionArbitrate {
		t.Fatalf("two unresolved: action %s", next.Action)
	}
	return s
}

// assertProblemsContain checks that err is a problem list holding every
// one of want (each a prefix of a problem, after the file's path).
func assertProblemsContain(t *testing.T, err error, want ...string) {
	t.Helper()
	var probs problem.List
	if !errors.As(err, &probs) {
		t.Fatalf("error = %v, want a problem.List", err)
	}
	got := strings.Join(probs.Strings(), "\n")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("no %q among:\n%s", w, got)
		}
	}
}

// started is a store with one deliberation started on question.
func started(t *testing.T, question string) (*Store, string) {
	t.Helper()
	st, _ := newTestStore(t)
	id, _, err := st.Start(question, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st, id
}
