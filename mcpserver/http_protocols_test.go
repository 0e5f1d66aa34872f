package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

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

// replicaRoute sends a client's requests to replicas a and b: the first
// two (initialize and the event stream) to a, then by turns, and all to b
// once a is gone. It counts the event streams each replica was asked for.
type replicaRoute struct {
	a, b *httptest.Server
	mu   sync.Mutex
	n    int
	gone bool
	gets map[string]int
}

func (rr *replicaRoute) RoundTrip(r *http.Request) (*http.Response, error) {
	rr.mu.Lock()
	to := rr.b
	if !rr.gone && (rr.n < 2 || rr.n%2 == 0) {
		to = rr.a
	}
	rr.n++
	if r.Method == http.MethodGet {
		rr.gets[to.URL]++
	}
	rr.mu.Unlock()
	u, _ := url.Parse(to.URL)
	r = r.Clone(r.Context())
	r.URL.Host, r.Host = u.Host, u.Host
	return http.DefaultTransport.RoundTrip(r)
}

func (rr *replicaRoute) streams(s *httptest.Server) int {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	return rr.gets[s.URL]
}

// TestAnOlderClientMovesBetweenReplicas checks that a 2025-11-25 client
// behind a balancer with no affinity keeps working: a replica that does
// not hold its session answers its calls, and when the replica holding it
// goes, the client's event stream reconnects to another one, which offers
// a quiet stream (a 405 there would end go-sdk's whole connection).
func TestAnOlderClientMovesBetweenReplicas(t *testing.T) {
	replica := func() *httptest.Server {
		return httptest.NewServer(HTTPHandler(New(&Options{Version: "test", Project: t.TempDir()}), &HTTPOptions{Replicas: true}))
	}
	a, b := replica(), replica()
	defer b.Close()
	rr := &replicaRoute{a: a, b: b, gets: map[string]int{}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: a.URL + "/mcp", HTTPClient: &http.Client{Transport: rr}}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()
	render := func(when string) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "elicitation_render_form",
			Arguments: map[string]any{"template": "session-contract", "slots": map[string]any{"project": "demo"}}})
		if err != nil || res.IsError {
			t.Fatalf("render_form %s: %v %v", when, err, res)
		}
	}
	for i := range 4 {
		render(fmt.Sprint("call ", i, " by turns"))
	}
	waitFor(t, "the event stream on the replica holding the session", func() bool { return rr.streams(a) == 1 })
	rr.mu.Lock()
	rr.gone = true
	rr.mu.Unlock()
	a.CloseClientConnections()
	a.Close()
	waitFor(t, "the event stream reconnected to the other replica", func() bool { return rr.streams(b) >= 1 })
	time.Sleep(100 * time.Millisecond) // a refused stream fails the connection just after
	for i := range 3 {
		render(fmt.Sprint("call ", i, " after the replica went"))
	}
}
