package ask

import (
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/google/go-cmp/cmp"
)

// The small losses of issue 27 on AskUserQuestion, one test each.

// TestReportStyleNotNowSaysNothingBlocked: the second choice beside the
// only option of a report-style progress (a neutral digest: nothing is
// blocked) does not speak of leaving it blocked.
func TestReportStyleNotNowSaysNothingBlocked(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [{"id": "digest", "text": "Pull more on a topic?",
		"type": "progress", "progress_style": "report", "required": false, "options": ["Memory architecture"],
		"progress_items": [{"label": "Memory architecture", "status": "project context"}, {"label": "Old notes", "status": "archive"}]}]}`))
	opts := Render(f).AskUserQuestion[0].Questions[0].Options
	if len(opts) != 2 || opts[1].Label != "Not now" {
		t.Fatalf("options = %+v, want the topic and Not now", opts)
	}
	if d := opts[1].Description; strings.Contains(strings.ToLower(d), "blocked") || d == "" {
		t.Errorf("Not now is described %q, want words for going no deeper", d)
	}
}

// TestMultiSelectDefaultIsDescribed: a multi-select's default is told on
// AskUserQuestion (which preselects nothing) in its options' descriptions,
// as a single choice's default is badged.
func TestMultiSelectDefaultIsDescribed(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [{"id": "p", "text": "Which platforms ship?",
		"type": "multi_select", "options": ["linux", "macos", "windows"], "default": ["linux", "windows"]}]}`))
	opts := Render(f).AskUserQuestion[0].Questions[0].Options
	for _, o := range opts {
		inDefault := o.Label == "linux" || o.Label == "windows"
		if got := strings.Contains(o.Description, "Part of the default answer."); got != inDefault {
			t.Errorf("%s: description %q; in the default: %v", o.Label, o.Description, inDefault)
		}
	}
}

// TestLongLabelsAreCut: option labels over the host's 1-5 words (the
// " (Recommended)" badge counted) are cut to them, the whole text kept in
// the description; answers with the cut label, or the whole text, map back
// to the option. Cuts that would read alike fall back to their first and
// last words, else to the whole text.
func TestLongLabelsAreCut(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [{"id": "r", "text": "How should we retry?",
		"type": "single_select", "default": "Exponential backoff with jitter everywhere",
		"options": ["Exponential backoff with jitter everywhere", "Retry three times then give up on it",
			"Deploy to the staging cluster on Monday", "Deploy to the staging cluster on Friday", "Short one"]}]}`))
	r := Render(f)
	q := r.AskUserQuestion[0].Questions[0] // five options: the first tier
	var labels []string
	for _, g := range r.Followups[0].Groups {
		for _, o := range g.Question.Options {
			labels = append(labels, o.Label+" | "+o.Description)
		}
	}
	want := []string{
		"Exponential backoff with jitter… (Recommended) | Exponential backoff with jitter everywhere",
		"Retry three times then give… | Retry three times then give up on it",
		"Deploy to the staging… Monday | Deploy to the staging cluster on Monday",
		"Deploy to the staging… Friday | Deploy to the staging cluster on Friday",
		"Short one | ",
	}
	if diff := cmp.Diff(want, labels); diff != "" {
		t.Errorf("labels | descriptions (-want +got):\n%s", diff)
	}
	for _, o := range q.Options {
		if n := len(strings.Fields(o.Label)); n > 5 {
			t.Errorf("group label %q has %d words", o.Label, n)
		}
	}
	group := r.Followups[0].Groups[0]
	for answer, want := range map[string]string{
		"Exponential backoff with jitter… (Recommended)": "Exponential backoff with jitter everywhere",
		"Retry three times then give…":                   "Retry three times then give up on it",
		"Retry three times then give up on it":           "Retry three times then give up on it",
	} {
		got, err := Answers(f, map[string]any{q.Question: group.Label, group.Question.Question: answer})
		if err != nil || got["r"] != want {
			t.Errorf("answer %q: got %v, %v; want %q", answer, got, err, want)
		}
	}
}

// TestTwoTierGroupsAreNamed: the first tier of a two-tier picker names each
// group by its first and last options, within the label limit; an answer
// naming a group either way, or as "Group k" (as elicit named them
// before), reaches its follow-up.
func TestTwoTierGroupsAreNamed(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [
		{"id": "n", "text": "Which one?", "type": "single_select", "options": ["Alpha", "Bravo", "Charlie", "Delta", "Echo"]},
		{"id": "s", "text": "Which session?", "type": "single_select", "options": ["Build something new",
			"Fix what is broken", "Explore and learn", "Review and tidy", "Plan the next release"]}]}`))
	r := Render(f)
	var names []string
	for _, q := range r.AskUserQuestion[0].Questions {
		for _, o := range q.Options {
			names = append(names, o.Label)
		}
	}
	want := []string{"Alpha – Charlie", "Delta – Echo", "Build something new – Explore…", "Review and tidy – Plan…"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("group labels (-want +got):\n%s", diff)
	}
	q, second := r.AskUserQuestion[0].Questions[0].Question, r.Followups[0].Groups[1].Question.Question
	if second != "Which one? (Delta – Echo)" {
		t.Errorf("the second group's question is %q", second)
	}
	for _, first := range []string{"Delta – Echo", " delta – echo ", "Group 2"} {
		got, err := Answers(f, map[string]any{q: first, second: "Echo"})
		if err != nil || got["n"] != "Echo" {
			t.Errorf("first tier %q: got %v, %v", first, got, err)
		}
	}
	_, err := Answers(f, map[string]any{q: "Delta – Echo"})
	if err == nil || err.Error() != `answers.n: the first tier chose "Delta – Echo" but the follow-up question for it was not answered` {
		t.Errorf("a missing follow-up: %v", err)
	}
}

// TestOptionalSelectCanBeSkipped: an optional question with no default
// offers Skip where the host's four options leave room (beside a two-tier
// picker's groups too), and choosing it is no answer; a required question,
// one with a default (leaving it keeps the default) or one without room
// gets none.
func TestOptionalSelectCanBeSkipped(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "T", "fields": [
		{"id": "three", "text": "Three?", "type": "single_select", "required": false, "options": ["a", "b", "c"]},
		{"id": "four", "text": "Four?", "type": "single_select", "required": false, "options": ["a", "b", "c", "d"]},
		{"id": "six", "text": "Six?", "type": "single_select", "required": false, "options": ["a", "b", "c", "d", "e", "f"]},
		{"id": "multi", "text": "Which?", "type": "multi_select", "required": false, "options": ["x", "y"]},
		{"id": "kept", "text": "Kept?", "type": "single_select", "required": false, "options": ["a", "b"], "default": "a"},
		{"id": "must", "text": "Must?", "type": "boolean"},
		{"id": "yes", "text": "Notify?", "type": "boolean", "required": false}]}`))
	r := Render(f)
	skips := map[string]bool{}
	for _, in := range r.AskUserQuestion {
		for _, q := range in.Questions {
			for _, o := range q.Options {
				if o.Label == "Skip" {
					skips[q.Question] = o.Description != ""
				}
			}
		}
	}
	want := map[string]bool{"Three?": true, "Six? (choose a group first)": true, "Which?": true, "Notify?": true}
	if diff := cmp.Diff(want, skips); diff != "" {
		t.Errorf("questions with Skip (-want +got):\n%s", diff)
	}
	got, err := Answers(f, map[string]any{"Three?": "Skip", "Six? (choose a group first)": "Skip", "Which?": "Skip",
		"Notify?": "skip", "Must?": "Yes"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := form.Collect(f, got, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"must": "Yes", "kept": "a"}, resp.Responses); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}
