package mcpserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEachResultIsSentOnce checks that a tool result carries its JSON once,
// as one text block without structured content, whether it succeeds or
// fails: Claude Code and codex show the model one part only, and Claude
// Code shows an error's structured content as "Unknown error" (e2e/hosts
// TestE2EHostsShowToolResults), so a second copy is bytes no model reads.
func TestEachResultIsSentOnce(t *testing.T) {
	cs := connect(t, protocols[0], nil)
	for _, tt := range []struct {
		name string
		args map[string]any
		err  bool
	}{
		{"success", map[string]any{"form": readForm(t, "six")}, false},
		{"problems", map[string]any{"form": map[string]any{"title": "x"}}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "elicitation_render_form", Arguments: tt.args})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tt.err {
				t.Errorf("isError %v, want %v", res.IsError, tt.err)
			}
			if res.StructuredContent != nil {
				t.Errorf("the result carries structured content beside its text: %v", res.StructuredContent)
			}
			if len(res.Content) != 1 {
				t.Fatalf("%d content blocks, want 1", len(res.Content))
			}
			text, ok := res.Content[0].(*mcp.TextContent)
			var out map[string]any
			if !ok || json.Unmarshal([]byte(text.Text), &out) != nil || out["success"] != !tt.err {
				t.Errorf("content %#v, want the result's JSON as text", res.Content[0])
			}
		})
	}
}

// TestCollectEchoesFormID checks that over MCP a form's form_id comes back
// in collect's result beside template_id, and that a path field's answer
// is checked for its kind.
func TestCollectEchoesFormID(t *testing.T) {
	cs := connect(t, protocols[0], nil)
	f := readForm(t, "paths")
	out, isErr := call(t, cs, "elicitation_collect_response", map[string]any{"form": f,
		"answers": map[string]any{"target": "src/app/main.go", "vendored": "No"}})
	if isErr || out["form_id"] != "audit-scope" || out["responses"].(map[string]any)["out"] != "reports/" {
		t.Errorf("collect = %v", out)
	}
	out, isErr = call(t, cs, "elicitation_collect_response", map[string]any{"form": f,
		"answers": map[string]any{"target": "src/app/", "vendored": "No"}})
	if probs, _ := out["problems"].([]any); !isErr || len(probs) != 1 || probs[0] != `answers.target: "src/app/" names a directory; give a file path` {
		t.Errorf("collect = %v", out)
	}
}
