package mcpserver

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestRequestStateIsSealedToTheCall(t *testing.T) {
	k := newRequestStates("team secret")
	args := json.RawMessage(`{"form": {"title": "T"}, "message": "m"}`)
	sent := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	state := k.seal("elicitation_ask", args, sent)
	tamper := func(s string) string { return strings.Replace(s, "v1.1", "v1.2", 1) }
	for _, tc := range []struct {
		name, state, tool string
		args              json.RawMessage
		keys              requestStates
		now               time.Time
		ok                bool
	}{
		{"as given", state, "elicitation_ask", args, k, sent.Add(time.Minute), true},
		{"its arguments in another order", state, "elicitation_ask", json.RawMessage(`{"message":"m","form":{"title":"T"}}`), k, sent.Add(time.Minute), true},
		{"another replica with the same secret", state, "elicitation_ask", args, newRequestStates("team secret"), sent.Add(time.Minute), true},
		{"another server's key", state, "elicitation_ask", args, newRequestStates(""), sent.Add(time.Minute), false},
		{"expired", state, "elicitation_ask", args, k, sent.Add(stateExpiry + time.Second), false},
		{"another form", state, "elicitation_ask", json.RawMessage(`{"form": {"title": "U"}, "message": "m"}`), k, sent, false},
		{"another tool", state, "elicitation_render_form", args, k, sent, false},
		{"its time changed", tamper(state), "elicitation_ask", args, k, sent, false},
		{"the old unsigned state", "sent=1764752400000", "elicitation_ask", args, k, sent, false},
		{"none", "", "elicitation_ask", args, k, sent, false},
	} {
		got, err := tc.keys.open(tc.state, tc.tool, tc.args, tc.now)
		if (err == nil) != tc.ok || (tc.ok && !got.Equal(sent)) {
			t.Errorf("%s: sent %v, %v; want ok %v", tc.name, got, err, tc.ok)
		}
	}
}

// roundRobin sends each request to the next of the servers, as a load
// balancer without session affinity does.
type roundRobin struct {
	servers []string
	n       atomic.Int64
}

func (rr *roundRobin) RoundTrip(r *http.Request) (*http.Response, error) {
	u, _ := url.Parse(rr.servers[int(rr.n.Add(1)-1)%len(rr.servers)])
	r = r.Clone(r.Context())
	r.URL.Host, r.Host = u.Host, u.Host
	return http.DefaultTransport.RoundTrip(r)
}

// TestAnswerComesBackToAnotherReplica asks through native elicitation on
// protocol 2026-07-28 behind a round-robin balancer: the question goes out
// from one replica and the answer comes back to the other, which takes it
// when the replicas share ELICIT_SERVER_KEY and refuses it otherwise.
func TestAnswerComesBackToAnotherReplica(t *testing.T) {
	six := readForm(t, "six")
	accept := map[string]any{"track": "beta", "platforms": []any{"linux"}, "notify": false, "budget": 8.0, "ship_date": "2026-12-01"}
	for _, tc := range []struct {
		name       string
		keyA, keyB string
		ok         bool
	}{{"shared key", "s3cret", "s3cret", true}, {"keys of their own", "", "", false}} {
		t.Run(tc.name, func(t *testing.T) {
			replica := func(key string) string {
				env := func(k string) string {
					if k == StateKeyEnv {
						return key
					}
					return ""
				}
				srv := httptest.NewServer(HTTPHandler(New(&Options{Version: "test", Project: t.TempDir(), Getenv: env}), &HTTPOptions{}))
				t.Cleanup(srv.Close)
				return srv.URL
			}
			rr := &roundRobin{servers: []string{replica(tc.keyA), replica(tc.keyB)}}
			var seen []*mcp.ElicitParams
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, elicitingClient(&mcp.ElicitResult{Action: "accept", Content: accept}, &seen)).
				Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: rr.servers[0] + "/mcp", HTTPClient: &http.Client{Transport: rr}, MaxRetries: -1}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			rr.n.Store(0) // the ask goes to the first replica, its answer to the second
			out, isErr := call(t, cs, "elicitation_ask", map[string]any{"form": six})
			if len(seen) != 1 || rr.n.Load() != 2 {
				t.Fatalf("asked %d times over %d requests, want once over two", len(seen), rr.n.Load())
			}
			if tc.ok && (isErr || out["success"] != true) {
				t.Errorf("the other replica refused the answer: %v", out)
			}
			if !tc.ok && (!isErr || !strings.Contains(strings.Join(problemsOf(out), " "), "request state this server did not give")) {
				t.Errorf("the other replica took an answer it cannot check: %v", out)
			}
		})
	}
}

func problemsOf(out map[string]any) []string {
	var s []string
	ps, _ := out["problems"].([]any)
	for _, p := range ps {
		b, _ := json.Marshal(p)
		s = append(s, string(b))
	}
	return s
}
