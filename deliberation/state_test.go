package deliberation

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/problem"
)

var t0 = time.Date(2026, 1, 31, 17, 15, 0, 0, time.UTC)

func TestPhaseFor(t *testing.T) {
	want := map[int]Phase{1: Constructive, 2: Constructive, 3: Development, 5: Development, 6: Crystallization, 8: Crystallization}
	for n, p := range want {
		if got := phaseFor(n); got != p {
			t.Errorf("PhaseFor(%d) = %s, want %s", n, got, p)
		}
	}
}

func TestNewInitialState(t *testing.T) {
	s, err := New("Should we cache X?\nDetails follow.", &StartOptions{Facts: []string{"writes idempotent"}}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != 1 || s.Iteration != 1 || s.Phase != Constructive || s.SessionID != nil || s.LastFailureType != "none" {
		t.Errorf("initial state = %+v", s)
	}
	if s.CreatedAt != "2026-01-31T17:15:00Z" || s.UpdatedAt != s.CreatedAt {
		t.Errorf("timestamps = %s, %s", s.CreatedAt, s.UpdatedAt)
	}
	if len(s.Ledger) != 1 || s.Ledger[0] != "F1 [user]: writes idempotent" {
		t.Errorf("ledger = %q", s.Ledger)
	}
	if s.Next.Action != ActionAsk || s.Next.Awaiting != AwaitResponse || !strings.Contains(s.Next.Prompt, "Iteration 1/8.") {
		t.Errorf("next = %+v", s.Next)
	}
	if err := s.validate(); err != nil {
		t.Error(err)
	}
}

func TestNewExcerptIs100Runes(t *testing.T) {
	q := strings.Repeat("é", 150)
	s, err := New(q, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(s.QuestionExcerpt)); n != 100 {
		t.Errorf("excerpt has %d runes, want 100", n)
	}
	if s.Question != q {
		t.Error("question not kept verbatim")
	}
}

func TestNewInvocationCheck(t *testing.T) {
	tests := []struct {
		name     string
		question string
		opts     *StartOptions
		want     []string
	}{
		{"empty question", "  ", nil, []string{"question: is empty: skill not invoked: no substantive question"}},
		{"empty fact", "q", &StartOptions{Facts: []string{""}}, []string{"facts[0]: is empty"}},
		{"one interpretation", "q", &StartOptions{Interpretations: []string{"a"}}, []string{"interpretations: 1 given, want exactly 2 (A, the default, and B) or none"}},
		{"relative path", "q", &StartOptions{Paths: []string{"src/x.go"}}, []string{`paths[0]: "src/x.go" is not absolute (the consultee may run elsewhere)`}},
		{"quick with facts", "q", &StartOptions{Quick: true, Facts: []string{"x"}}, []string{"facts: quick mode keeps no ledger (it is for questions without constraints or non-goals; use full mode)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.question, tt.opts, t0)
			assertProblems(t, err, tt.want)
		})
	}
}

func assertProblems(t *testing.T, err error, want []string) {
	t.Helper()
	var probs problem.List
	if !errors.As(err, &probs) {
		t.Fatalf("error = %v, want a problem.List", err)
	}
	got := probs.Strings()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestDecodeSeedState(t *testing.T) {
	data, err := os.ReadFile("testdata/seed-state.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := decodeState(data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Iteration != 3 || s.Phase != Development || *s.SessionID != "019c1a2b-seed" {
		t.Errorf("decoded %+v", s)
	}
	if !s.Active() || s.questionText() != "Should the importer retry on 429?" {
		t.Errorf("an original file must read as active with the excerpt as question")
	}
	if got := s.activeLedger(); len(got) != 2 || got[1] != "F2 [verified: api.py:42]: rate=100/s" {
		t.Errorf("active ledger = %q", got)
	}
	// Every seed key survives a round trip.
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(out, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range requiredKeys {
		if _, ok := keys[k]; !ok {
			t.Errorf("key %s lost on re-encoding", k)
		}
	}
}

func TestDecodeStateProblems(t *testing.T) {
	seed, _ := os.ReadFile("testdata/seed-state.json")
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal(seed, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	tests := []struct {
		name, data string
		want       []string
	}{
		{"not JSON", "{not json", []string{"not a deliberation state file: invalid JSON at line 1, column 2: unexpected character 'n' (expected a string key)"}},
		{"foreign JSON", `{"name":"package.json"}`, nil},
		{"wrong version", edit(func(m map[string]any) { m["version"] = 2 }), []string{"version: is 2, want 1 (unknown schema version)"}},
		{"missing keys", edit(func(m map[string]any) { delete(m, "ledger"); delete(m, "ssm") }), []string{
			"ledger: missing (every key of the schema version 1 is required)",
			"ssm: missing (every key of the schema version 1 is required)"}},
		{"unknown key", edit(func(m map[string]any) { m["colour"] = "red" }), []string{"colour: unknown key; want one of: version, session_id, question_excerpt, created_at, updated_at, iteration, phase, challenges, ledger, disputed, ssm, buckets, last_failure_type, status, mode, question, transcript, transcript_offset, exit_reason, interpretations, paths, ledger_budget, answer, points, not_evaluated, pending_clarification, surfaced_questions, arbitration_concerns, warnings, checks, counters, responses, next, last_evaluation, consultant, fresh_session, consultation, owner"}},
		{"wrong type", edit(func(m map[string]any) { m["iteration"] = "three" }), []string{`iteration: is a string ("three"), want a whole number`}},
		{"bad enums", edit(func(m map[string]any) {
			m["phase"] = "DONE"
			m["disputed"] = []string{"C9"}
			m["challenges"].(map[string]any)["C1"].(map[string]any)["status"] = "won"
		}), []string{
			`phase: is "DONE", want CONSTRUCTIVE, DEVELOPMENT or CRYSTALLIZATION`,
			`challenges.C1.status: is "won", want open, defended, dropped, undefended or conceded`,
			`disputed[0]: "C9" is not a challenge of this state`,
			`challenges.C2.status: is open, but C2 is not in disputed: list it there, or give the status it closed with`}},
		{"every problem, with its path", edit(func(m map[string]any) {
			m["iteration"] = "3"
			m["ledger"] = []any{"F1", 2}
			m["challenges"].(map[string]any)["C1"].(map[string]any)["raised_iter"] = 1.5
			m["ssm"] = []any{}
			m["buckets"].(map[string]any)["agreed"].([]any)[0].(map[string]any)["evidnce_type"] = "textual"
		}), []string{
			// evidence_type is given too: no guess that would hide its problems.
			"buckets.agreed[0].evidnce_type: unknown key; want one of: point, evidence_type, reason, id, mitigation",
			"challenges.C1.raised_iter: is a number (1.5), want a whole number",
			`iteration: is a string ("3"), want a whole number`,
			"ledger[1]: is a number (2), want a string",
			"ssm: is an array, want an object"}},
		{"type errors and contradictions together", edit(func(m map[string]any) {
			m["iteration"] = 99
			m["phase"] = "FOO"
			m["ledger"] = []any{5}
			m["buckets"].(map[string]any)["agreed"] = []any{map[string]any{"point": "x", "evidence_type": "bogus"}}
		}), []string{
			"ledger[0]: is a number (5), want a string",
			"iteration: is 99, want 1 to 8",
			`phase: is "FOO", want CONSTRUCTIVE, DEVELOPMENT or CRYSTALLIZATION`,
			`buckets.agreed[0].evidence_type: is "bogus", want execution, textual or n/a`}},
		{"duplicate key", strings.Replace(string(seed), `"iteration": 3,`, `"iteration": 3, "iteration": 4,`, 1), []string{
			"iteration: duplicate key (each key may appear once)"}},
		{"empty", " \n", []string{"not a deliberation state file: the document is empty; want a JSON object"}},
		{"array", "[]", []string{"not a deliberation state file: the document is an array, want a JSON object"}},
		{"trailing data", string(seed) + "{}", []string{fmt.Sprintf("not a deliberation state file: invalid JSON at line %d, column 1: unexpected character '{' after the end of the value", strings.Count(string(seed), "\n")+1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decodeState([]byte(tt.data))
			if tt.want == nil {
				if err == nil {
					t.Fatal("foreign file accepted")
				}
				return
			}
			assertProblems(t, err, tt.want)
		})
	}
}

func TestValidatePointInTwoPlaces(t *testing.T) {
	s, _ := New("q", nil, t0)
	s.Points["P1"] = &Point{Text: "x"}
	s.Buckets.Agreed = append(s.Buckets.Agreed, Agreed{ID: "P1", Point: "x", EvidenceType: "n/a"})
	s.Buckets.Dismissed = append(s.Buckets.Dismissed, Dismissed{ID: "P1", Point: "x", Tag: TagRejected})
	s.Points["P2"] = &Point{Text: "y"}
	assertProblems(t, s.validate(), []string{
		"P1: is in more than one place: buckets.agreed[0], buckets.dismissed[0] (want exactly one)",
		"points.P2: is in no bucket (want exactly one)",
	})
}
