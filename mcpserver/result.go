package mcpserver

import (
	"bytes"
	"encoding/json"

	"github.com/elicit/elicit/problem"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// result turns a value into a tool result: structured content plus the same
// JSON as text, for clients that read only text. The text is written as the
// CLI writes it (no HTML escaping).
func result(v any, isError bool) *mcp.CallToolResult {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		v = map[string]any{"success": false, "problems": []string{"internal error: result not encodable: " + err.Error()}}
		return result(v, true)
	}
	text := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(text)}},
		StructuredContent: v,
		IsError:           isError,
	}
}

// failure is the result of invalid arguments: every problem, as a tool error.
func failure(probs problem.List) *mcp.CallToolResult {
	return result(map[string]any{"success": false, "problems": probs.Strings()}, true)
}
