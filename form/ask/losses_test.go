package ask

import (
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/formtest"
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
