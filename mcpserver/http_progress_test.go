package mcpserver

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestProgressReachesAStatelessClient: on protocol 2026-07-28 over HTTP
// (no session) a deliberation_wait still streams the consultation's
// progress to the client that asked for it, and a later call sees the
// consultation the earlier one started.
func TestProgressReachesAStatelessClient(t *testing.T) {
	b := newBlocking()
	old := sendConsultant
	sendConsultant = func(_ func(string) string, name string, _ *consult.CodexOptions) (consult.Consultant, error) {
		return b, nil
	}
	t.Cleanup(func() { sendConsultant = old })
	opts := &Options{Version: "test", Project: t.TempDir(), DeliberationDir: t.TempDir(), Background: NewBackground()}
	t.Cleanup(func() { opts.Background.Stop(10 * time.Second) })
	srv := httptest.NewServer(HTTPHandler(New(opts), &HTTPOptions{}))
	defer srv.Close()
	var mu sync.Mutex
	var notes []*mcp.ProgressNotificationParams
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		notes = append(notes, r.Params)
		mu.Unlock()
	}}).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("negotiated %s", v)
	}
	started, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?"})
	if got, isErr := call(t, cs, "deliberation_send", map[string]any{"id": started["id"]}); isErr || got["status"] != "running" {
		t.Fatalf("send: %v", got)
	}
	time.Sleep(100 * time.Millisecond) // the consultant reports an event every 20 ms
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "deliberation_wait", Arguments: map[string]any{"id": started["id"], "timeout_seconds": 1},
		Meta: mcp.Meta{"progressToken": "w1"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := resultJSON(t, "deliberation_wait", res); s["status"] != "running" {
		t.Errorf("a wait that runs out: %v", s)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notes) == 0 || notes[0].ProgressToken != "w1" || !strings.Contains(notes[0].Message, "codex consulted on iteration 1") {
		t.Errorf("%d progress notifications: %+v", len(notes), notes)
	}
	close(b.release)
}
