package markdown

import (
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/internal/golden"
	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

func TestRenderGolden(t *testing.T) {
	for name, f := range formtest.All(t) {
		t.Run(name, func(t *testing.T) {
			r := Render(f, nil)
			if len(r.FieldIDs)+len(r.Unsupported) != len(f.Fields) {
				t.Errorf("asks %v, unsupported %v", r.FieldIDs, r.Unsupported)
			}
			for _, u := range r.Unsupported {
				if Carries(f.Field(u.QuestionID)) {
					t.Errorf("%s: unsupported, but markdown carries it", u.QuestionID)
				}
			}
			golden.Check(t, name+".md", []byte(r.Markdown))
		})
	}
}

func TestRenderReask(t *testing.T) {
	f := formtest.SessionContract(t)
	r := Render(f, &Options{Only: []string{"done_when", "outcome"}, Lead: "Two answers need another look.",
		Problems: map[string][]string{"outcome": {"is 230 characters, over max_length 200"}}})
	if diff := cmp.Diff([]string{"outcome", "done_when"}, r.FieldIDs); diff != "" {
		t.Errorf("field ids (-want +got):\n%s", diff)
	}
	golden.Check(t, "reask.md", []byte(r.Markdown))
	if NewFollowup(f, nil, "") != nil {
		t.Error("a follow-up with no fields")
	}
}

// TestRoundTrip answers every test form the way a person types in a chat:
// ids in the wrong case or with spaces, option names in other case and
// spacing, numbers, yes/no words, dates as people write them. Collect must
// accept what Parse reads.
func TestRoundTrip(t *testing.T) {
	tests := []struct {
		form, reply string
		want        map[string]any
	}{
		{"scope", "GOAL:  fix A bug\nFocus : Security ,tests", map[string]any{"goal": "Fix a bug", "focus": []string{"security", "tests"}}},
		{"scope", "- **goal**: 3\n- `focus`: 1 4\n", map[string]any{"goal": "Refactor", "focus": []string{"correctness", "tests"}}},
		{"scope", "1. Investigate\n2) correctness, performance", map[string]any{"goal": "Investigate", "focus": []string{"correctness", "performance"}}},
		{"attune", "```\ngoal: learn What attune does\nscope:2\nconcerns: none\n```", map[string]any{"goal": "Learn what attune does", "scope": "tests/"}},
		{"attune", "goal = run a workflow\nscope: lib/ only", map[string]any{"goal": "Run a workflow", "scope": "lib/ only"}},
		{"six", "Track:\nplatforms: linux,MacOS\nnotify: nope\nbudget: 12.5\nship date: 2026-3-9\nnotes:\n- mention the new flag\n1. and the fix\n\n", map[string]any{
			"track": "stable", "platforms": []string{"linux", "macos"}, "notify": "No", "budget": 12.5,
			"ship_date": "2026-03-09", "notes": "- mention the new flag\n1. and the fix"}},
		{"six", "track: BETA\nplatforms: all\nnotify: y\nbudget: 40\nship_date: March 9, 2026", map[string]any{
			"track": "beta", "platforms": []string{"linux", "macos", "windows", "freebsd"}, "notify": "Yes", "budget": 40.0, "ship_date": "2026-03-09"}},
		{"decision", "approach: behind a verify-gate", map[string]any{"approach": "Behind a verify gate"}},
		{"decision", "approach: 1", map[string]any{"approach": "Verifiable backlog loop"}},
		{"pushback", "retries: fixed 3x retry (your approach)", map[string]any{"retries": "Fixed 3x retry"}},
		{"progress", "exec: t7 DOCS", map[string]any{"exec": "T7 docs"}},
		{"progress-single", "exec: 1", map[string]any{"exec": "T6 consumer wiring"}},
		{"digest", "digest: recall benchmarks", map[string]any{"digest": "Recall benchmarks"}},
		{"digest", "", map[string]any{}},
		{"status-only", "next: YES", map[string]any{"next": "Yes"}},
		{"confirm", "Drop: approve\ndeploy : 2", map[string]any{"drop": "Approve", "deploy": "Hold"}},
		{"deliberation", "engine:  sqlite", map[string]any{"engine": "SQLite"}},
		{"many", "region:\nlangs: go, c++ ,rust\nok: no\nowner:\ncodename: Bluebird\nonly: release\ncombo: salt,pepper", map[string]any{
			"region": "eu-central", "langs": []string{"Go", "Rust", "C++"}, "ok": "No", "owner": "platform team",
			"codename": "Bluebird", "only": "release", "combo": []string{"salt, pepper"}}},
	}
	forms := formtest.Forms(t)
	for _, tt := range tests {
		t.Run(tt.form, func(t *testing.T) {
			f := formtest.MustParse(t, forms[tt.form])
			answers, err := Parse(f, tt.reply, nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			r, err := form.Collect(f, answers, nil)
			if err != nil {
				t.Fatalf("Collect: %v", err)
			}
			if diff := cmp.Diff(tt.want, r.Responses); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRoundTripSessionContract(t *testing.T) {
	f := formtest.SessionContract(t)
	reply := "Mode: 2\noutcome :  a release checklist\ndone_when:\nmake test passes\n  and the README shows it\n\neffort cap: Half a day\n"
	answers, err := Parse(f, reply, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := form.Collect(f, answers, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"mode": "Fix what is broken", "outcome": "a release checklist",
		"done_when": "make test passes\n  and the README shows it", "effort_cap": "Half a day"}
	if diff := cmp.Diff(want, r.Responses); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParseProblems(t *testing.T) {
	tests := []struct {
		form, reply string
		opts        *ParseOptions
		want        []string
	}{
		{"scope", "goal: 7\nfocus: 1, nine\nwhatever this is\ngaol: 2", &ParseOptions{Name: "reply.md"}, []string{
			`answers.goal: reply.md line 1: "7" is not one of the option numbers (1-4)`,
			`answers.focus: reply.md line 2: "nine" is not one of the options (options: 1 "correctness", 2 "security", 3 "performance", 4 "tests")`,
			`reply.md: line 3: "whatever this is" answers no question (write id: answer, with one of the ids goal, focus)`,
			`reply.md: line 4: "gaol: 2" answers no question: no question has the id "gaol" (did you mean 'goal'?)`,
		}},
		{"scope", "goal: 1\nGoal: 2", nil, []string{
			"answers.goal: reply line 2: goal is answered again (first on line 1); answer each question once",
		}},
		{"six", "budget: lots\nship_date: 2026-02-30\nnotify: perhaps", nil, []string{
			`answers.budget: reply line 1: "lots" is not a number (write digits, e.g. 12 or 2.5)`,
			`answers.ship_date: reply line 2: "2026-02-30" is not a real calendar date`,
			`answers.notify: reply line 3: "perhaps" is not yes or no (answer yes or no)`,
		}},
		{"status-only", "status: looks good", nil, []string{
			"answers.status: reply line 1: status is a report with nothing to answer; leave it out",
		}},
	}
	forms := formtest.Forms(t)
	for _, tt := range tests {
		f := formtest.MustParse(t, forms[tt.form])
		_, err := Parse(f, tt.reply, tt.opts)
		probs, _ := err.(problem.List)
		if diff := cmp.Diff(tt.want, probs.Strings()); diff != "" {
			t.Errorf("%s %q (-want +got):\n%s", tt.form, tt.reply, diff)
		}
	}
}

// TestBare: a reply to a one-question form needs no id.
func TestBare(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["decision"])
	got, err := Parse(f, "Non-LLM backlog\n", &ParseOptions{Bare: "approach"})
	if err != nil || got["approach"] != "Non-LLM backlog" {
		t.Errorf("got %v, %v", got, err)
	}
	if _, err := Parse(f, "Non-LLM backlog\n", nil); err == nil || !strings.Contains(err.Error(), "answers no question") {
		t.Errorf("without Bare: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	forms := formtest.Forms(f)
	for _, s := range []string{"goal: 2\nfocus: 1, 3", "notes:\n1. a\n```\nx", "**1.** x\n2) y", "> goal = 3", "gaol: 1\n\n\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		for _, data := range forms {
			fm := formtest.MustParse(t, data)
			answers, err := Parse(fm, reply, &ParseOptions{Bare: fm.Fields[0].ID})
			if err != nil {
				if _, ok := err.(problem.List); !ok {
					t.Fatalf("error is %T", err)
				}
				continue
			}
			for id := range answers {
				if fm.Field(id) == nil {
					t.Fatalf("answer for unknown field %q", id)
				}
			}
			if _, err := form.Collect(fm, answers, nil); err != nil {
				if _, ok := err.(problem.List); !ok {
					t.Fatalf("Collect error is %T", err)
				}
			}
		}
	})
}
