package mcpserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSchemasAgreeWithHandlers: a client that checks arguments against a
// tool's input schema sends what the server takes, and the server refuses
// what the schema refuses. (deliberation_wait listed timeout_seconds as
// required, collect's answers refused a list of tool outputs, render_form
// took surface "" that its enum forbids.)
func TestSchemasAgreeWithHandlers(t *testing.T) {
	scope := readForm(t, "scope")
	opts := &Options{Version: "test", DeliberationDir: t.TempDir()}
	cs := connectWith(t, opts)
	started, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Retry on 429?"})
	id := started["id"]
	output := map[string]any{"questions": []any{}, "answers": map[string]any{"What are you trying to accomplish?": "Refactor", "Which areas matter here?": "tests"}}
	tests := []struct {
		name, tool string
		args       map[string]any
		ok         bool
	}{
		{"wait without a timeout", "deliberation_wait", map[string]any{"id": id}, true},
		{"wait with a timeout", "deliberation_wait", map[string]any{"id": id, "timeout_seconds": 1}, true},
		{"wait for 0 s", "deliberation_wait", map[string]any{"id": id, "timeout_seconds": 0}, false},
		{"wait over 50 s", "deliberation_wait", map[string]any{"id": id, "timeout_seconds": 51}, false},
		{"collect an object", "elicitation_collect_response", map[string]any{"form": scope, "answers": output}, true},
		{"collect a list of outputs", "elicitation_collect_response", map[string]any{"form": scope, "answers": []any{output}}, true},
		{"collect a string", "elicitation_collect_response", map[string]any{"form": scope, "answers": "Refactor"}, false},
		{"render for ask", "elicitation_render_form", map[string]any{"form": scope, "surface": "ask"}, true},
		{"render without surface", "elicitation_render_form", map[string]any{"form": scope}, true},
		{"render for an empty surface", "elicitation_render_form", map[string]any{"form": scope, "surface": ""}, false},
		{"render an attune 0.17 form", "elicitation_render_form", map[string]any{"form": readForm(t, "paths")}, true},
		{"render a field of no type", "elicitation_render_form", map[string]any{"form": map[string]any{"title": "T",
			"fields": []any{map[string]any{"id": "a", "text": "Q", "type": "nope"}}}}, false},
		{"render options that are no list", "elicitation_render_form", map[string]any{"form": map[string]any{"title": "T",
			"fields": []any{map[string]any{"id": "a", "text": "Q", "type": "single_select", "options": "a, b"}}}}, false},
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*jsonschema.Resolved{}
	for _, tool := range res.Tools {
		raw, _ := json.Marshal(tool.InputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		if schemas[tool.Name], err = s.Resolve(nil); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The arguments as JSON decodes them, as a client checks them.
			raw, _ := json.Marshal(tt.args)
			var args map[string]any
			json.Unmarshal(raw, &args)
			schemaErr := schemas[tt.tool].Validate(args)
			if (schemaErr == nil) != tt.ok {
				t.Errorf("the schema says %v, want ok=%v", schemaErr, tt.ok)
			}
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.tool, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			if r.IsError == tt.ok {
				t.Errorf("the server says %v, want ok=%v", resultJSON(t, tt.tool, r), tt.ok)
			}
		})
	}
}
