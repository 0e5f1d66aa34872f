package surfaces

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/codex"
	"github.com/elicit/elicit/form/markdown"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/google/go-cmp/cmp"
)

// The one-tap confirm of an all-guessed form, end to end through Collect.

// guesses is what keeping every guess of the test form "guessed" gives.
var guesses = map[string]any{"track": "stable", "platforms": []string{"linux", "macos"}, "owner": "platform team", "budget": 8.0}

// TestOneTapConfirmShowsEveryGuess: on AskUserQuestion, request_user_input
// and markdown, an all-guessed form is one question whose text shows every
// guess (value and why), with Keep all first and Change some beside it, and
// the whole form one choice away.
func TestOneTapConfirmShowsEveryGuess(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["guessed"])
	a, c, md := ask.Render(f), codex.Render(f), markdown.Render(f, nil)
	if len(a.AskUserQuestion) != 1 || len(a.AskUserQuestion[0].Questions) != 1 || a.MarkdownFollowup != nil {
		t.Fatalf("AskUserQuestion: %d calls, follow-up %v; want one question", len(a.AskUserQuestion), a.MarkdownFollowup)
	}
	if len(c.RequestUserInput) != 1 || len(c.RequestUserInput[0].Questions) != 1 {
		t.Fatalf("request_user_input: %d calls; want one question", len(c.RequestUserInput))
	}
	aq, cq := a.AskUserQuestion[0].Questions[0], c.RequestUserInput[0].Questions[0]
	for _, o := range [][2]string{{aq.Options[0].Label, aq.Options[1].Label}, {cq.Options[0].Label, cq.Options[1].Label}} {
		if o != [2]string{"Keep all (Recommended)", "Change some"} {
			t.Errorf("options %q, want Keep all (Recommended) and Change some", o)
		}
	}
	for _, g := range f.Guesses() {
		for name, text := range map[string]string{"AskUserQuestion": aq.Question, "request_user_input": cq.Question, "markdown": md.Markdown} {
			if !strings.Contains(text, g.Value) || !strings.Contains(text, g.Field.InferredFrom) {
				t.Errorf("%s does not show the guess %s = %q (%s):\n%s", name, g.Field.ID, g.Value, g.Field.InferredFrom, text)
			}
		}
	}
	if a.ChangeSome == nil || len(a.ChangeSome.AskUserQuestion[0].Questions) != 3 || a.ChangeSome.MarkdownFollowup == nil {
		t.Errorf("AskUserQuestion's change_some = %+v, want the whole form", a.ChangeSome)
	}
	if c.ChangeSome == nil || len(c.ChangeSome.RequestUserInput) == 0 {
		t.Errorf("request_user_input's change_some = %+v, want the whole form", c.ChangeSome)
	}
}

// oneTapDocuments are the confirm of "guessed" answered label on each
// surface: AskUserQuestion's output and result text, request_user_input's
// result, a markdown reply.
func oneTapDocuments(t *testing.T, f *form.Form, label string) map[string]Document {
	t.Helper()
	q := ask.Render(f).AskUserQuestion[0].Questions[0].Question
	id := codex.Render(f).RequestUserInput[0].Questions[0].ID
	out, _ := json.Marshal(map[string]any{"questions": []any{}, "answers": map[string]any{q: label}})
	res, _ := json.Marshal(map[string]any{"answers": map[string]any{id: map[string]any{"answers": []any{label}}}})
	return map[string]Document{
		"AskUserQuestion output":      {Name: "answers", Data: out},
		"AskUserQuestion result text": {Name: "reply", Data: []byte(`Your questions have been answered: "` + q + `"="` + label + `". You can now continue with these answers in mind.`)},
		"request_user_input result":   {Name: "answers", Data: res},
		"markdown reply":              {Name: "reply", Format: FormatMarkdown, Data: []byte(label + "\n")},
	}
}

// TestOneTapKeepAll: "Keep all", and the ways people say it, read back as
// every guess on every surface; "yep, all good" no longer fails in
// markdown.
func TestOneTapKeepAll(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["guessed"])
	for _, label := range []string{"Keep all (Recommended)", "Keep all", "keep all", "yes", "ok", "looks good", "yep, all good", "Yes, keep them 👍", "LGTM."} {
		for name, d := range oneTapDocuments(t, f, label) {
			r, err := Collect(f, []Document{d}, nil)
			if err != nil {
				t.Errorf("%q on %s: %v", label, name, err)
				continue
			}
			if diff := cmp.Diff(guesses, r.Responses); diff != "" {
				t.Errorf("%q on %s (-want +got):\n%s", label, name, diff)
			}
		}
	}
}

// TestOneTapChangeSome: "Change some" (or no, or any other text) keeps no
// guess: collect asks every guessed question again, in the client's
// surface; their answers then complete the form.
func TestOneTapChangeSome(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["guessed"])
	for _, label := range []string{"Change some", "change some", "no", "let me change some", "the track should be beta"} {
		for name, d := range oneTapDocuments(t, f, label) {
			if label == "the track should be beta" && name == "markdown reply" {
				continue // in markdown, a line that answers nothing (reported as such)
			}
			_, err := Collect(f, []Document{d}, nil)
			var fail *Failure
			if !errors.As(err, &fail) || fail.Reask == nil {
				t.Errorf("%q on %s: %v, want a failure with a re-ask", label, name, err)
				continue
			}
			if diff := cmp.Diff([]string{"track", "platforms", "owner", "budget"}, fail.Reask.FieldIDs); diff != "" {
				t.Errorf("%q on %s: re-asks (-want +got):\n%s", label, name, diff)
			}
			if !strings.Contains(fail.Problems[0].Message, `(the guess was "stable")`) {
				t.Errorf("%q on %s: %v", label, name, fail.Problems)
			}
		}
	}
	// The whole form answered after Change some, in the same list of tool
	// outputs as the confirm: every answer is kept, nothing asked again.
	a := ask.Render(f)
	confirm := map[string]any{"answers": map[string]any{a.AskUserQuestion[0].Questions[0].Question: "Change some"}}
	qs := a.ChangeSome.AskUserQuestion[0].Questions
	answers := map[string]any{"answers": map[string]any{qs[0].Question: "beta", qs[1].Question: "linux", qs[2].Question: "release team"}}
	list, _ := json.Marshal([]any{confirm, answers})
	r, err := Collect(f, []Document{{Name: "answers", Data: list}, {Name: "reply", Data: []byte("budget: 12")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"track": "beta", "platforms": []string{"linux"}, "owner": "release team", "budget": 12.0}
	if diff := cmp.Diff(want, r.Responses); diff != "" {
		t.Errorf("after Change some (-want +got):\n%s", diff)
	}
}

// TestOneTapMarkdownLines: a markdown reply may change a guess or two with
// id lines; the others keep their guess (the person saw them all).
func TestOneTapMarkdownLines(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["guessed"])
	r, err := Collect(f, []Document{{Name: "reply", Data: []byte("track: beta\n")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"track": "beta", "platforms": []string{"linux", "macos"}, "owner": "platform team", "budget": 8.0}
	if diff := cmp.Diff(want, r.Responses); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestOneQuestionGuessIsItsOwnConfirm: a form of one guessed choice is
// asked as that question (its guess first and recommended is one tap
// already); in markdown "ok" to it keeps the guess, and a real answer is
// the answer.
func TestOneQuestionGuessIsItsOwnConfirm(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [{"id": "track", "text": "Which track?", "type": "single_select",
		"options": ["stable", "beta"], "default": "stable", "inferred_from": "the last release was stable"}]}`))
	if r := ask.Render(f); r.ChangeSome != nil || r.AskUserQuestion[0].Questions[0].Question != "Which track?" {
		t.Errorf("AskUserQuestion asks %+v", r.AskUserQuestion)
	}
	if r := codex.Render(f); r.ChangeSome != nil {
		t.Errorf("request_user_input asks a confirm")
	}
	for reply, want := range map[string]string{"ok": "stable", "looks good": "stable", "beta": "beta", "2": "beta"} {
		r, err := Collect(f, []Document{{Name: "reply", Format: FormatMarkdown, Data: []byte(reply)}}, nil)
		if err != nil || r.Responses["track"] != want {
			t.Errorf("reply %q: %v, %v; want %q", reply, r, err, want)
		}
	}
}
