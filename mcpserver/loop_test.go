package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// loopForm is a two-tier select, a boolean and a number: AskUserQuestion
// carries the first two, a markdown follow-up the number.
var loopForm = map[string]any{"title": "Deploy", "fields": []any{
	map[string]any{"id": "region", "text": "Which region?", "type": "single_select",
		"options": []any{"eu-west", "eu-north", "us-east", "us-west", "ap-south"}},
	map[string]any{"id": "backups", "text": "Enable backups?", "type": "boolean"},
	map[string]any{"id": "replicas", "text": "How many replicas?", "type": "number", "minimum": 1},
}}

var claudeCode = &mcp.Implementation{Name: "claude-code", Version: "2.1.332"}
var codexCLI = &mcp.Implementation{Name: "codex-mcp-client", Version: "0.171.0"}

// questions are the questions of a render's (or re-ask's) tool inputs
// under key, with each one's followups' questions after it.
func questions(t *testing.T, r map[string]any, key string) []map[string]any {
	t.Helper()
	var out []map[string]any
	calls, _ := r[key].([]any)
	for _, c := range calls {
		for _, q := range c.(map[string]any)["questions"].([]any) {
			out = append(out, q.(map[string]any))
		}
	}
	return out
}

// followup is the second-tier question for the group labelled label.
func followup(t *testing.T, r map[string]any, label string) map[string]any {
	t.Helper()
	fus, _ := r["followups"].([]any)
	for _, fu := range fus {
		for _, g := range fu.(map[string]any)["groups"].([]any) {
			g := g.(map[string]any)
			if g["label"] == label {
				return g["question"].(map[string]any)
			}
		}
	}
	t.Fatalf("no follow-up for %q in %v", label, r["followups"])
	return nil
}

// TestCollectLoopOverMCP: as an agent drives it, with only the tools:
// render, ask, collect; on problems ask only the re-ask (in the client's
// own surface) and continue with just the new answers. No answer the
// person gave is lost or asked again, and round N's result is the whole.
func TestCollectLoopOverMCP(t *testing.T) {
	want := map[string]any{"region": "us-east", "backups": "Yes", "replicas": 3.0}
	t.Run("AskUserQuestion: two tiers, then a wrong number re-asked", func(t *testing.T) {
		cs := dial(t, New(nil), protocols[0], nil, claudeCode)
		r, _ := call(t, cs, "elicitation_render_form", map[string]any{"form": loopForm})
		if r["surface"] != "ask" {
			t.Fatalf("render surface %v, want ask", r["surface"])
		}
		qs := questions(t, r, "ask_user_question")
		tier1, group := qs[0]["question"].(string), qs[0]["options"].([]any)[0].(map[string]any)["label"].(string)
		// Round 1: the first call (tier 1 and the boolean), with the
		// second tier not asked yet, and a wrong number in markdown.
		round1 := fmt.Sprintf("The user answered: %q=%q, %q=%q. You can now continue with the user's answers in mind.", tier1, group, "Enable backups?", "Yes")
		got, isErr := call(t, cs, "elicitation_collect_response", map[string]any{"form": loopForm,
			"reply": []any{round1, "replicas: zero"}})
		reask, _ := got["reask"].(map[string]any)
		if !isErr || reask == nil || got["collect_id"] == nil {
			t.Fatalf("round 1 = %v", got)
		}
		if diff := cmp.Diff([]any{"region", "replicas"}, reask["field_ids"]); diff != "" {
			t.Errorf("re-ask fields (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(map[string]any{"backups": "Yes"}, got["kept"]); diff != "" {
			t.Errorf("kept (-want +got):\n%s", diff)
		}
		if reask["surface"] != "ask" || reask["markdown"] != nil || reask["markdown_followup"] == nil {
			t.Errorf("re-ask is not AskUserQuestion with a markdown follow-up for the number: %v", reask)
		}
		for _, q := range questions(t, reask, "ask_user_question") {
			if q["question"] == "Enable backups?" {
				t.Errorf("the re-ask asks the answered backups again: %v", q)
			}
		}
		// The re-ask asks the chosen group's second tier itself, not the
		// first tier again.
		var tier2 string
		for _, q := range questions(t, reask, "ask_user_question") {
			if q["question"] == tier1 {
				t.Errorf("the re-ask asks the answered first tier again: %v", q)
			}
			if strings.HasPrefix(q["question"].(string), "Which region? (") {
				tier2 = q["question"].(string)
			}
		}
		if tier2 == "" || tier2 != followup(t, r, group)["question"] {
			t.Fatalf("the re-ask's second tier %q is not the render's follow-up for %q", tier2, group)
		}
		// Round 2: the second tier and the number, with continue.
		got, isErr = call(t, cs, "elicitation_collect_response", map[string]any{"continue": got["collect_id"],
			"reply": []any{fmt.Sprintf("Your questions have been answered: %q=%q.", tier2, "us-east"), "replicas: 3"}})
		if diff := cmp.Diff(want, got["responses"]); isErr || diff != "" {
			t.Errorf("round 2 = %v (-want +got):\n%s", got, diff)
		}
	})
	t.Run("Codex: the re-ask is request_user_input", func(t *testing.T) {
		cs := dial(t, New(nil), protocols[0], nil, codexCLI)
		r, _ := call(t, cs, "elicitation_render_form", map[string]any{"form": loopForm})
		if r["surface"] != "codex" || r["request_user_input"] == nil || r["ask_user_question"] != nil {
			t.Fatalf("a render without surface for Codex = %v", r)
		}
		got, isErr := call(t, cs, "elicitation_collect_response", map[string]any{"form": loopForm,
			"answers": map[string]any{"answers": map[string]any{
				"backups":     map[string]any{"answers": []any{"Yes"}},
				"regoin":      map[string]any{"answers": []any{"us-east"}},
				"notes_typed": map[string]any{"answers": []any{"x"}}}},
			"reply": "replicas: 3"})
		reask, _ := got["reask"].(map[string]any)
		if !isErr || reask == nil || reask["surface"] != "codex" || reask["request_user_input"] == nil || reask["ask_user_question"] != nil {
			t.Fatalf("round 1 = %v", got)
		}
		if !strings.Contains(fmt.Sprint(got["problems"]), `closest: "region"`) {
			t.Errorf("the unknown id does not name the closest question: %v", got["problems"])
		}
		if diff := cmp.Diff([]any{"region"}, reask["field_ids"]); diff != "" {
			t.Errorf("re-ask fields (-want +got):\n%s", diff)
		}
		// Round 2 passes the failed result itself.
		got, isErr = call(t, cs, "elicitation_collect_response", map[string]any{"form": loopForm, "continue": got,
			"answers": map[string]any{"answers": map[string]any{"region_group_1": map[string]any{"answers": []any{"us-east"}}}}})
		if diff := cmp.Diff(want, got["responses"]); isErr || diff != "" {
			t.Errorf("round 2 = %v (-want +got):\n%s", got, diff)
		}
	})
	t.Run("plain chat: markdown in, markdown re-ask", func(t *testing.T) {
		cs := dial(t, New(nil), protocols[0], nil)
		r, _ := call(t, cs, "elicitation_render_form", map[string]any{"form": loopForm, "surface": "markdown"})
		if r["surface"] != "markdown" || r["markdown"] == nil {
			t.Fatalf("render for markdown = %v", r)
		}
		got, isErr := call(t, cs, "elicitation_collect_response", map[string]any{"form": loopForm,
			"reply": "region: 3\nbackups: yes\nreplicas: -2"})
		reask, _ := got["reask"].(map[string]any)
		if !isErr || reask == nil || reask["surface"] != "markdown" || reask["markdown"] == nil || reask["ask_user_question"] != nil {
			t.Fatalf("round 1 = %v", got)
		}
		got, isErr = call(t, cs, "elicitation_collect_response", map[string]any{"continue": got["collect_id"], "reply": "replicas: 3"})
		if diff := cmp.Diff(want, got["responses"]); isErr || diff != "" {
			t.Errorf("round 2 = %v (-want +got):\n%s", got, diff)
		}
	})
	t.Run("mixed: several documents in one call", func(t *testing.T) {
		cs := dial(t, New(nil), protocols[0], nil, claudeCode)
		got, isErr := call(t, cs, "elicitation_collect_response", map[string]any{"form": loopForm,
			"answers": []any{map[string]any{"region": "us-east"}, map[string]any{"backups": "Yes"}, "replicas: 3"}})
		if diff := cmp.Diff(want, got["responses"]); isErr || diff != "" {
			t.Errorf("%v (-want +got):\n%s", got, diff)
		}
	})
	t.Run("an unknown collect_id is named", func(t *testing.T) {
		cs := dial(t, New(nil), protocols[0], nil)
		got, isErr := call(t, cs, "elicitation_collect_response", map[string]any{"continue": "c000000000000", "reply": "replicas: 3"})
		raw, _ := json.Marshal(got)
		if !isErr || !strings.Contains(string(raw), "no failed collect") {
			t.Errorf("%s", raw)
		}
	})
}

// TestCollectLoopBadInput: malformed lists and continues are problems
// naming the argument, never a panic or a silent drop.
func TestCollectLoopBadInput(t *testing.T) {
	cs := dial(t, New(nil), protocols[0], nil)
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"form": loopForm, "answers": []any{5.0}}, "answers[0]"},
		{map[string]any{"form": loopForm, "answers": []any{nil}}, "answers[0]"},
		{map[string]any{"form": loopForm, "reply": []any{1.0}}, "reply: must be a text or a list of texts"},
		{map[string]any{"form": loopForm, "reply": "x", "continue": 3.0}, `["continue: must be a failed collect's collect_id (a string), or its whole result (with kept)"]`}, // one problem, not also "no failed collect"
		{map[string]any{"form": loopForm, "reply": "x", "continue": map[string]any{"success": false}}, "continue: must be a failed collect's collect_id"},
	} {
		got, isErr := call(t, cs, "elicitation_collect_response", c.args)
		raw, _ := json.Marshal(got["problems"])
		if !isErr || !strings.Contains(string(raw), c.want) {
			t.Errorf("%v: %s, want a problem with %q", c.args, raw, c.want)
		}
	}
}
