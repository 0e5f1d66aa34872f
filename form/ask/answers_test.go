package ask

import (
	"testing"

	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

func TestAnswersStripLabels(t *testing.T) {
	for _, tc := range []struct {
		form, question, answer, id, want string
	}{
		{"decision", "Building LLM features blind manufactures unverified work. How should we spend this session?", "Verifiable backlog loop (Recommended)", "approach", "Verifiable backlog loop"},
		{"pushback", "I'd push back: Fixed retries hammer a struggling service; backoff is gentler and avoids a thundering herd. How should we handle transient failures?", "Fixed 3x retry (your approach)", "retries", "Fixed 3x retry"},
	} {
		f := formtest.MustParse(t, formtest.Forms(t)[tc.form])
		got, err := Answers(f, map[string]any{tc.question: tc.answer})
		if err != nil || got[tc.id] != tc.want {
			t.Errorf("%s: got %v, %v; want %q", tc.form, got, err, tc.want)
		}
	}
}

func TestAnswersMultiTierFollowups(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["many"])
	_, err := Answers(f, map[string]any{
		"Which languages do you use? (choose a group first)": "Group 1, Group 2",
		"Which languages do you use? (Group 1)":              "Go",
	})
	if err == nil || err.Error() != `answers.langs: the first tier chose "TypeScript – C++" but the follow-up question for it was not answered` {
		t.Errorf("err = %v", err)
	}
}

func TestAnswersProblems(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["many"])
	_, err := Answers(f, map[string]any{
		"Which region should host it? (choose a group first)": "Group 1",
		"What is this?": "x",
	})
	want := []string{
		`answers["What is this?"]: no question of this form has this text`,
		`answers.region: the first tier chose "eu-central – eu-west" but the follow-up question for it was not answered`,
	}
	probs, _ := err.(problem.List)
	if diff := cmp.Diff(want, probs.Strings()); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
