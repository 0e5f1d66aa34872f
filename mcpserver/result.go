package mcpserver

import (
	"bytes"
	"context"
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

// toolResult is the wire form of a finished tools/call result, field for
// field what the SDK writes for an *mcp.CallToolResult. The SDK marshals a
// CallToolResult through three nested MarshalJSON methods, and encoding/json
// re-scans each one's output, so a result's text is scanned three times and
// its structured content twice before the transport scans it all again.
// toolResult has no MarshalJSON: encoding/json writes it in one pass.
type toolResult struct {
	mcp.ResultBase
	Content           []textContent `json:"content"`
	StructuredContent any           `json:"structuredContent,omitempty"`
	IsError           bool          `json:"isError,omitempty"`
	ResultType        string        `json:"resultType,omitempty"`
}

type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// multiRoundTripVersion is the first protocol version whose results carry
// resultType; the SDK marks a finished call's result "complete" from then on.
const multiRoundTripVersion = "2026-07-28"

// encodeOnce is a receiving middleware that hands the SDK each finished tool
// result as a toolResult. Results it does not know field for field (input
// requests, request state, content other than plain text) pass through.
func encodeOnce(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := res.(*mcp.CallToolResult)
		if err != nil || !ok || r.InputRequests != nil || r.RequestState != "" || r.NeedsInput() {
			return res, err
		}
		out := &toolResult{Content: make([]textContent, 0, len(r.Content)), StructuredContent: r.StructuredContent, IsError: r.IsError}
		for _, c := range r.Content {
			t, ok := c.(*mcp.TextContent)
			if !ok || t.Meta != nil || t.Annotations != nil {
				return res, nil
			}
			out.Content = append(out.Content, textContent{Type: "text", Text: t.Text})
		}
		out.Meta = r.Meta
		if protocolVersion(req) >= multiRoundTripVersion {
			out.ResultType = "complete"
		}
		return out, nil
	}
}

// protocolVersion is the session's negotiated protocol version, the latest
// when the session has not said (as the SDK assumes).
func protocolVersion(req mcp.Request) string {
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		if p := ss.InitializeParams(); p != nil {
			return p.ProtocolVersion
		}
	}
	return multiRoundTripVersion
}
