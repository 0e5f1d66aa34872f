package mcpserver

import (
	"bytes"
	"encoding/json"

	"github.com/elicit/elicit/problem"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// result turns a value into a tool result: its JSON as one text block,
// written as the CLI writes it (no HTML escaping), and no structured
// content. Each byte goes out once. Measured (e2e/hosts
// TestE2EHostsShowToolResults), Claude Code and codex each show the model
// one part of a result, never both: the structured content when there is
// some, except that Claude Code shows an error's text, and "Unknown error"
// for an error with structured content only. A text block alone is shown
// whole by both, successes and errors, and by every client (the MCP App
// reads it too: form/widget/assets/app.js). No tool declares an output
// schema, so none owes structured content.
func result(v any, isError bool) *mcp.CallToolResult {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		v = map[string]any{"success": false, "problems": []string{"internal error: result not encodable: " + err.Error()}}
		return result(v, true)
	}
	text := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}, IsError: isError}
}

// failure is the result of invalid arguments: every problem, as a tool error.
func failure(probs problem.List) *mcp.CallToolResult {
	return result(map[string]any{"success": false, "problems": probs.Strings()}, true)
}
