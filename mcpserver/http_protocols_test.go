package mcpserver

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEveryProtocolOverHTTP drives serve --http's handler with go-sdk's
// client on each protocol: 2026-07-28 (no initialize, no session: served
// statelessly, native elicitation through a multi-round-trip result)
// and the older ones (a session, as before). Each lists the same tools,
// renders a template, asks through the client's own dialog and starts and
// reads a deliberation.
func TestEveryProtocolOverHTTP(t *testing.T) {
	six := readForm(t, "six")
	accept := map[string]any{"track": "beta", "platforms": []any{"linux"}, "notify": false, "budget": 8.0, "ship_date": "2026-12-01"}
	var lists []int
	for _, v := range protocols {
		t.Run(v, func(t *testing.T) {
			srv := httptest.NewServer(HTTPHandler(New(&Options{Version: "test", Project: t.TempDir()}), &HTTPOptions{}))
			defer srv.Close()
			var seen []*mcp.ElicitParams
			opts := &mcp.ClientSessionOptions{}
			if v != protocols[0] {
				opts.ProtocolVersion = v
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, elicitingClient(&mcp.ElicitResult{Action: "accept", Content: accept}, &seen)).
				Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", MaxRetries: -1}, opts)
			if err != nil {
				t.Fatalf("connect: %v", err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != v {
				t.Fatalf("negotiated %s, want %s", got, v)
			}
			tools, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			lists = append(lists, len(tools.Tools))
			if out, isErr := call(t, cs, "elicitation_render_form", map[string]any{"template": "session-contract", "slots": map[string]any{"project": "demo"}}); isErr || out["ask_user_question"] == nil {
				t.Errorf("render_form: %v", out)
			}
			out, isErr := call(t, cs, "elicitation_ask", map[string]any{"form": six})
			if isErr || out["success"] != true || len(seen) != 1 {
				t.Errorf("ask: %v (asked %d times)", out, len(seen))
			}
			started, isErr := call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?"})
			if isErr || started["id"] == nil {
				t.Fatalf("deliberation_start: %v", started)
			}
			if got, isErr := call(t, cs, "deliberation_status", map[string]any{"id": started["id"]}); isErr {
				t.Errorf("deliberation_status: %v", got)
			}
		})
	}
	for _, n := range lists[1:] {
		if n != lists[0] {
			t.Errorf("tools/list has %v tools by protocol: it must not vary by connection", lists)
		}
	}
}
