package plugins

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
)

// TestFormsSkillCoversEveryStep holds the forms skill to what an agent that
// reads only it and tools/list must do: name every field type and every
// key a field may have (the constructs' rows included), and every step of
// the loop: render, the second tier of a two-tier picker (followups), the
// markdown follow-up, the one-tap confirm of guesses, collect with every
// document, the re-ask and its merge, the summary.
func TestFormsSkillCoversEveryStep(t *testing.T) {
	s, err := LoadSkill("forms")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Defs struct {
			Field struct {
				Properties map[string]any `json:"properties"`
			} `json:"field"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(form.Schema(), &schema); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, typ := range form.Types() {
		want = append(want, "`"+string(typ)+"`")
	}
	for key := range schema.Defs.Field.Properties {
		if key != "label" { // the alias of text
			want = append(want, key)
		}
	}
	want = append(want, "form_id", "label", "status", "severity", "source", // the rows' keys
		"elicitation_render_form", "ask_user_question", "`followups`", "`after`", "markdown_followup",
		"request_user_input", "elicitation_ask", "elicitation_render_widget", "keep all",
		"elicitation_collect_response", "`answers`", "`reply`", "`reask`", "continue", "collect_id", "elicitation_form_summary")
	for _, w := range want {
		if !strings.Contains(s.Body, w) {
			t.Errorf("the forms skill does not name %s", w)
		}
	}
}
