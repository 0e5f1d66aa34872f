package ask

import (
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/google/go-cmp/cmp"
)

// textForm has a multi-select whose labels hold a quote, and a free text
// field answered with quotes and commas.
const textForm = `{"title": "T", "fields": [
	{"id": "goal", "text": "What are you trying to accomplish?", "type": "single_select", "options": ["Fix a bug", "Refactor", "Investigate"]},
	{"id": "focus", "text": "Which areas matter here?", "type": "multi_select", "options": ["correctness", "say \"hi\"", "tests"]},
	{"id": "name", "text": "What should it be called?", "type": "text_input", "options": ["bluebird", "kestrel"], "required": false}]}`

// readText reads text as elicit reads AskUserQuestion's result text.
func readText(f *form.Form, text string) (map[string]any, bool, error) {
	into := form.NewChatAnswers()
	found := NewReader(f).ReadText(into, text)
	answers, err := into.Result()
	return answers, found, err
}

// TestReadText reads the sentences claude-code 2.1.332 writes for the
// model after AskUserQuestion (mapToolResultToToolResultBlockParam).
func TestReadText(t *testing.T) {
	f := formtest.MustParse(t, []byte(textForm))
	tests := []struct {
		name, text string
		want       map[string]any
	}{
		{"answered", `Your questions have been answered: "What are you trying to accomplish?"="Refactor (Recommended)", "Which areas matter here?"="correctness, tests". You can now continue with these answers in mind.`,
			map[string]any{"goal": "Refactor", "focus": []string{"correctness", "tests"}}},
		{"free text with quotes and commas", `The user answered: "What are you trying to accomplish?"="Investigate", "What should it be called?"="the "quick", dirty one, v2". Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`,
			map[string]any{"goal": "Investigate", "name": `the "quick", dirty one, v2`}},
		{"a label with a quote, JSON-quoted", `Your questions have been answered: "Which areas matter here?"=""say \"hi\"", tests", "What are you trying to accomplish?"="Fix a bug". You can now continue with these answers in mind.`,
			map[string]any{"goal": "Fix a bug", "focus": []string{`say "hi"`, "tests"}}},
		{"labels joined by a host that sends a list", `Your questions have been answered: "Which areas matter here?"="correctness,tests". You can now continue with these answers in mind.`,
			map[string]any{"focus": []string{"correctness", "tests"}}},
		{"notes and a preview", "The user answered: \"What are you trying to accomplish?\"=\"Refactor\" selected preview:\n<b>\"x\"</b> notes: keep it small, \"Which areas matter here?\"=\"tests\" notes: only unit tests. Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.",
			map[string]any{"goal": "Refactor", "focus": []string{"tests"}}},
		{"notes only", `The user answered: "What are you trying to accomplish?"=(no option selected) notes: not sure yet, "Which areas matter here?"="tests". Read the answers carefully — they may request clarification, changes, or that you not proceed — and follow what they actually say.`,
			map[string]any{"focus": []string{"tests"}}},
		{"idle", "The user went idle.\n\nBefore going idle the user had selected: \"What are you trying to accomplish?\"=\"Investigate\".",
			map[string]any{"goal": "Investigate"}},
		{"follow-up", `The user wants to discuss before you proceed. So far they answered: "What are you trying to accomplish?"="Refactor". They also wrote: "what about "docs"?". Call AskUserQuestion again with follow-up questions that build on these answers (do not repeat these); do not start the task yet.`,
			map[string]any{"goal": "Refactor"}},
		{"the pairs alone", `"What are you trying to accomplish?"="Fix a bug", "Which areas matter here?"="tests"`,
			map[string]any{"goal": "Fix a bug", "focus": []string{"tests"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, found, err := readText(f, tt.text)
			if err != nil || !found {
				t.Fatalf("found %v, err %v", found, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadTextProblems(t *testing.T) {
	f := formtest.MustParse(t, []byte(textForm))
	tests := []struct{ name, text, want string }{
		{"answered twice", `The user answered: "What are you trying to accomplish?"="Refactor", "What are you trying to accomplish?"="Investigate".`,
			`answers["What are you trying to accomplish?"]: answered 2 different ways in the text ("Refactor", "Investigate"); give one answer`},
		{"answered many ways", strings.Repeat(`"What should it be called?"="x", "What should it be called?"="y", "What should it be called?"="z", "What should it be called?"="w", `, 1000),
			`answers["What should it be called?"]: answered 4 different ways in the text ("x", "y", "z" and 1 more); give one answer`},
		{"the same answer twice is one answer, and an unreadable one is a problem", `"What are you trying to accomplish?"="Refactor", "What are you trying to accomplish?"="Refactor", "What should it be called?"="`,
			`answers["What should it be called?"]: could not read the answer: want "ANSWER" after "What should it be called?"= (the text AskUserQuestion's result shows, unchanged)`},
		{"no answer after the question", `Your questions have been answered: "What are you trying to accomplish?"="`,
			`answers["What are you trying to accomplish?"]: could not read the answer: want "ANSWER" after "What are you trying to accomplish?"= (the text AskUserQuestion's result shows, unchanged)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, found, err := readText(f, tt.text)
			if !found || err == nil || err.Error() != tt.want {
				t.Errorf("found %v, err %v; want %s", found, err, tt.want)
			}
		})
	}
}

// TestReadTextNotAnswers: text without one of the form's questions as
// `"<question>"=` is not AskUserQuestion's (a markdown reply, say).
func TestReadTextNotAnswers(t *testing.T) {
	f := formtest.MustParse(t, []byte(textForm))
	for _, text := range []string{
		"goal: Refactor\nfocus: tests",
		`"Some other question?"="Refactor"`,
		`"What are you trying to accomplish?" = "Refactor"`,
		`x="y"`,
	} {
		if _, found, _ := readText(f, text); found {
			t.Errorf("%q read as AskUserQuestion's text", text)
		}
	}
}

// TestReadTextTwoTier reads both tiers of a two-tier picker from one text.
func TestReadTextTwoTier(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["many"])
	got, found, err := readText(f, `Your questions have been answered: "Which region should host it? (choose a group first)"="Group 2", "Which region should host it? (Group 2)"="ap-northeast". You can now continue with these answers in mind.`)
	if !found || err != nil || got["region"] != "ap-northeast" {
		t.Errorf("got %v, %v, %v", got, found, err)
	}
}

func FuzzReadText(f *testing.F) {
	f.Add(`Your questions have been answered: "What are you trying to accomplish?"="Refactor", "Which areas matter here?"="a, \"b\"". You can now continue with these answers in mind.`)
	f.Add(`"What are you trying to accomplish?"=(no option selected) notes: "x"="`)
	f.Add(`"Which areas matter here?"="\"unterminated, x"`)
	fm := formtest.MustParse(f, []byte(textForm))
	f.Fuzz(func(t *testing.T, text string) {
		answers, _, err := readText(fm, text)
		if err == nil && answers == nil {
			t.Fatal("no answers and no error")
		}
		if err != nil && !strings.Contains(err.Error(), ": ") {
			t.Fatalf("a problem without a path: %v", err)
		}
	})
}
