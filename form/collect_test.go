package form

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

// fixedCollectOptions makes response ids deterministic.
func fixedCollectOptions() *CollectOptions {
	return &CollectOptions{
		TemplateID: "tpl",
		Now:        func() time.Time { return time.Date(2026, 11, 30, 7, 8, 9, 0, time.UTC) },
		Random:     bytes.NewReader([]byte{0xde, 0xad, 0xbe, 0xef}),
	}
}

func TestCollectSuccess(t *testing.T) {
	f := mustParse(t, testForms(t)["six"])
	answers := map[string]any{
		"platforms": []any{"linux", "windows"},
		"budget":    float64(12),
		"ship_date": "2026-12-01",
		"notes":     "   ",
	}
	r, err := Collect(f, answers, fixedCollectOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := &Response{Success: true, ResponseID: "resp-20261130-070809-deadbeef", TemplateID: "tpl", Responses: map[string]any{
		"track":     "stable", // inferred default injected
		"platforms": []string{"linux", "windows"},
		"notify":    "Yes", // optional default injected
		"budget":    float64(12),
		"ship_date": "2026-12-01",
		// notes: white space only is no answer, optional, no default: left out
	}}
	if diff := cmp.Diff(want, r); diff != "" {
		t.Errorf("response (-want +got):\n%s", diff)
	}
}

func TestCollectProblems(t *testing.T) {
	f := mustParse(t, testForms(t)["six"])
	tests := []struct {
		name    string
		answers map[string]any
		want    []string
	}{
		{"everything wrong", map[string]any{
			"trak":      "stable",
			"zzz":       1,
			"track":     "alpha",
			"platforms": []any{"linux", "linux", "beos"},
			"notify":    "yes",
			"budget":    "12",
			"ship_date": "2026-1-5",
			"notes":     string(bytes.Repeat([]byte("é"), 501)),
		}, []string{
			"answers.trak: no field has this id (did you mean 'track'?)",
			`answers.zzz: no field has this id (fields: "track", "platforms", "notify", "budget", "ship_date", "notes")`,
			`answers.track: "alpha" is not one of the options ("stable", "beta", "nightly")`,
			`answers.platforms: "beos" not among the options ("linux", "macos", "windows", "freebsd"); "linux" chosen more than once`,
			`answers.notify: must be "Yes" or "No" (got string "yes")`,
			`answers.budget: must be a number (got string "12")`,
			`answers.ship_date: "2026-1-5" is not a date in the form YYYY-MM-DD (zero-padded, e.g. 2026-01-05)`,
			"answers.notes: is 501 characters, over max_length 500",
		}},
		{"missing required", map[string]any{"platforms": []any{}, "budget": nil}, []string{
			`answers.platforms: required, but not answered (a list of one or more of "linux", "macos", "windows", "freebsd")`,
			"answers.budget: required, but not answered (a number)",
			"answers.ship_date: required, but not answered (a date YYYY-MM-DD)",
		}},
		{"bounds and calendar", map[string]any{"platforms": "linux", "budget": 41.0, "ship_date": "2026-02-30"}, []string{
			`answers.platforms: must be a list of options (got string "linux")`,
			"answers.budget: 41 is above the maximum 40",
			`answers.ship_date: "2026-02-30" is not a real calendar date`,
		}},
		{"not finite", map[string]any{"platforms": []any{"linux"}, "budget": math.Inf(1), "ship_date": "2026-12-01"}, []string{
			"answers.budget: +Inf is not a finite number",
		}},
		{"below minimum", map[string]any{"platforms": []any{"linux"}, "budget": 0.5, "ship_date": "2026-12-01"}, []string{
			"answers.budget: 0.5 is below the minimum 1",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Collect(f, tt.answers, nil)
			probs, _ := err.(problem.List)
			if diff := cmp.Diff(tt.want, probs.Strings()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCollectDisplayOnlyProgress(t *testing.T) {
	f := mustParse(t, testForms(t)["status-only"])
	if r, err := Collect(f, map[string]any{}, nil); err != nil || len(r.Responses) != 0 {
		t.Fatalf("Collect = %+v, %v; want an empty success", r, err)
	}
	_, err := Collect(f, map[string]any{"status": "T1 model"}, nil)
	if err == nil || err.Error() != "answers.status: this progress report is display-only and takes no answer" {
		t.Errorf("err = %v", err)
	}
}

func TestCollectTextCountsCharacters(t *testing.T) {
	f := mustParse(t, []byte(field(`{"id": "c", "text": "C?", "type": "text_input", "max_length": 3}`)))
	if _, err := Collect(f, map[string]any{"c": "日本語"}, nil); err != nil {
		t.Errorf("3 characters (9 bytes) must fit max_length 3: %v", err)
	}
	if _, err := Collect(f, map[string]any{"c": "😀😀😀😀"}, nil); err == nil {
		t.Error("4 characters must not fit max_length 3")
	}
}

func TestParseAnswersShapes(t *testing.T) {
	f := mustParse(t, testForms(t)["scope"])
	tests := []struct {
		name, in string
		want     map[string]any
	}{
		{"by id", `{"goal": "Refactor", "focus": ["tests"]}`, map[string]any{"goal": "Refactor", "focus": []any{"tests"}}},
		{"widget postback", `{"__elicitation_response__": true, "title": "Scope this work", "answers": {"goal": "Refactor"}}`, map[string]any{"goal": "Refactor"}},
		{"tool output", `{"questions": [], "answers": {"What are you trying to accomplish?": "Refactor", "Which areas matter here?": "security, tests"}}`,
			map[string]any{"goal": "Refactor", "focus": []string{"security", "tests"}}},
		{"several tool outputs", `[{"answers": {"What are you trying to accomplish?": "Investigate"}}, {"answers": {"Which areas matter here?": "tests,correctness"}}]`,
			map[string]any{"goal": "Investigate", "focus": []string{"correctness", "tests"}}},
		{"other text", `{"questions": [], "answers": {"What are you trying to accomplish?": "Write docs"}}`, map[string]any{"goal": "Write docs"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAnswers(f, []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAskRoundTrip answers every rendered question the way the host would
// report it and checks collect gets the options back.
func TestAskRoundTrip(t *testing.T) {
	f := mustParse(t, testForms(t)["many"])
	out := map[string]any{
		"Which region should host it? (choose a group first)": "Group 2",
		"Which region should host it? (Group 2)":              "ap-northeast",
		"Which languages do you use? (choose a group first)":  "Group 1, Group 2",
		"Which languages do you use? (Group 1)":               "Rust, Go",
		"Which languages do you use? (Group 2)":               "C++",
		"Proceed with the migration?":                         "No",
		"Who owns the rollout?":                               "infra",
		"What codename should it have?":                       "bluebird",
		"Which build?":                                        "release",
		"Which combos?":                                       []any{"salt, pepper"},
	}
	data, _ := json.Marshal(map[string]any{"questions": []any{}, "answers": out})
	_, err := ParseAnswers(f, data)
	if err == nil || err.Error() != `answers["Which combos?"]: must be a string, as AskUserQuestion answers are (got a list)` {
		t.Fatalf("err = %v", err)
	}
	out["Which combos?"] = "oil"
	data, _ = json.Marshal(map[string]any{"questions": []any{}, "answers": out})
	answers, err := ParseAnswers(f, data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Collect(f, answers, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"region": "ap-northeast", "langs": []string{"Go", "Rust", "C++"}, "ok": "No",
		"owner": "infra", "codename": "bluebird", "only": "release", "combo": []string{"oil"}}
	if diff := cmp.Diff(want, r.Responses); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}

func TestAskAnswersStripLabels(t *testing.T) {
	for _, tc := range []struct {
		form, question, answer, id, want string
	}{
		{"decision", "Building LLM features blind manufactures unverified work. How should we spend this session?", "Verifiable backlog loop (Recommended)", "approach", "Verifiable backlog loop"},
		{"pushback", "I'd push back: Fixed retries hammer a struggling service; backoff is gentler and avoids a thundering herd. How should we handle transient failures?", "Fixed 3x retry (your approach)", "retries", "Fixed 3x retry"},
	} {
		f := mustParse(t, testForms(t)[tc.form])
		got, err := FromAskUserQuestion(f, map[string]any{tc.question: tc.answer})
		if err != nil || got[tc.id] != tc.want {
			t.Errorf("%s: got %v, %v; want %q", tc.form, got, err, tc.want)
		}
	}
}

func TestAskAnswersMultiTierFollowups(t *testing.T) {
	f := mustParse(t, testForms(t)["many"])
	_, err := FromAskUserQuestion(f, map[string]any{
		"Which languages do you use? (choose a group first)": "Group 1, Group 2",
		"Which languages do you use? (Group 1)":              "Go",
	})
	if err == nil || err.Error() != "answers.langs: the first tier chose Group 2 but the follow-up question for it was not answered" {
		t.Errorf("err = %v", err)
	}
}

func TestAskAnswersProblems(t *testing.T) {
	f := mustParse(t, testForms(t)["many"])
	_, err := FromAskUserQuestion(f, map[string]any{
		"Which region should host it? (choose a group first)": "Group 1",
		"What is this?": "x",
	})
	want := []string{
		`answers["What is this?"]: no question of this form has this text`,
		"answers.region: the first tier chose Group 1 but the follow-up question for it was not answered",
	}
	probs, _ := err.(problem.List)
	if diff := cmp.Diff(want, probs.Strings()); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

// FuzzCollect feeds arbitrary answer documents to every test form: no panic,
// and either a response or a problem list.
func FuzzCollect(f *testing.F) {
	forms := testForms(f)
	f.Add(`{"goal": "Refactor", "focus": ["tests"]}`)
	f.Add(`[{"answers": {"Which areas matter here?": "a,,b"}}]`)
	f.Add(`{"__elicitation_response__": true, "answers": {"budget": 1e999}}`)
	f.Add(`{"goal": "\ud800", "goal": "\\\udc00", "focus": [1, "\ud83d\ude00"], "x\udbff": -1e999}`)
	f.Fuzz(func(t *testing.T, doc string) {
		for _, data := range forms {
			form := mustParse(t, data)
			answers, err := ParseAnswers(form, []byte(doc))
			if err != nil {
				if _, ok := err.(problem.List); !ok {
					t.Fatalf("ParseAnswers error is %T", err)
				}
				continue
			}
			if _, err := Collect(form, answers, nil); err != nil {
				if _, ok := err.(problem.List); !ok {
					t.Fatalf("Collect error is %T", err)
				}
			}
		}
	})
}
