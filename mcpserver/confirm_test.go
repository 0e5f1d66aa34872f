package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOneTapConfirmOverMCP: an agent renders an all-guessed form, sends the
// one question it gets, and collects "Keep all" (as the tool output, and
// as the text Claude Code shows) into the guesses; "Change some" comes back
// with the questions to ask.
func TestOneTapConfirmOverMCP(t *testing.T) {
	cs := connect(t, protocols[0], nil)
	f := readForm(t, "guessed")
	r, isErr := call(t, cs, "elicitation_render_form", map[string]any{"form": f})
	calls, _ := r["ask_user_question"].([]any)
	if isErr || len(calls) != 1 || r["change_some"] == nil {
		t.Fatalf("render = %v", r)
	}
	qs := calls[0].(map[string]any)["questions"].([]any)
	if len(qs) != 1 {
		t.Fatalf("%d questions, want one", len(qs))
	}
	q := qs[0].(map[string]any)["question"].(string)
	want := map[string]any{"track": "stable", "platforms": []any{"linux", "macos"}, "owner": "platform team", "budget": 8.0}
	for name, args := range map[string]map[string]any{
		"tool output": {"answers": map[string]any{"questions": qs, "answers": map[string]any{q: "Keep all (Recommended)"}}},
		"result text": {"reply": `Your questions have been answered: "` + q + `"="Keep all (Recommended)". You can now continue with these answers in mind.`},
		"markdown":    {"reply": "yep, all good"},
	} {
		args["form"] = f
		got, isErr := call(t, cs, "elicitation_collect_response", args)
		if diff := cmp.Diff(want, got["responses"]); isErr || diff != "" {
			t.Errorf("%s: %v (-want +got):\n%s", name, got, diff)
		}
	}
	got, isErr := call(t, cs, "elicitation_collect_response", map[string]any{"form": f,
		"answers": map[string]any{"questions": qs, "answers": map[string]any{q: "Change some"}}})
	reask, _ := got["reask"].(map[string]any)
	asked, _ := json.Marshal(reask["ask_user_question"])
	if !isErr || reask == nil || reask["surface"] != "ask" || !strings.Contains(string(asked), "Which release track?") {
		t.Errorf("Change some: %v", got)
	}
}
