package mcpserver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/responselog"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestParseUsers(t *testing.T) {
	_, ana, _ := NewToken("ana")
	_, ben, _ := NewToken("ben")
	if u, err := ParseUsers("toks", []byte("# the team\n"+ana+"\n"+strings.TrimSuffix(ben, "\n")+"  # ben's laptop\n")); err != nil || len(u.byHash) != 2 {
		t.Errorf("a good file: %v, %v", u, err)
	}
	for _, tc := range []struct{ text, want string }{
		{"", "toks holds no token: add one with elicit token NAME --tokens-file toks"},
		{"ana\n", "toks:1: has 1 words, want NAME SHA256"},
		{"ana secret-token\n" + ana + "ana " + strings.Repeat("ab", 31) + "\n", `toks:1: "secret-token" is not a SHA-256 in hex`},
		{ana + "\n" + strings.Replace(ana, "ana", "bob", 1), "toks:3: the token of bob is ana's too"},
	} {
		if _, err := ParseUsers("toks", []byte(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
	if _, _, err := NewToken("a b"); err == nil {
		t.Error("a name of two words makes a token")
	}
}

// TestEachCallIsItsTokensPerson: with a tokens file, a request needs one
// of its tokens, the responses collected name the token's person whatever
// the protocol, and one person's session does not take another's token.
func TestEachCallIsItsTokensPerson(t *testing.T) {
	anaToken, anaLine, _ := NewToken("ana")
	benToken, benLine, _ := NewToken("ben")
	users, err := ParseUsers("toks", []byte(anaLine+benLine))
	if err != nil {
		t.Fatal(err)
	}
	logDir := t.TempDir()
	srv := httptest.NewServer(HTTPHandler(New(&Options{Version: "test", Project: t.TempDir(), ResponseLogDir: logDir}), &HTTPOptions{Users: users}))
	defer srv.Close()
	scope := readForm(t, "scope")
	for _, c := range []struct{ token, version string }{{anaToken, ""}, {benToken, "2025-11-25"}} {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: &http.Client{Transport: withBearer(c.token)}, MaxRetries: -1},
			&mcp.ClientSessionOptions{ProtocolVersion: c.version})
		if err != nil {
			t.Fatal(err)
		}
		if out, isErr := call(t, cs, "elicitation_collect_response", map[string]any{"form": scope, "answers": map[string]any{"goal": "Refactor", "focus": []any{"tests"}}}); isErr {
			t.Fatalf("collect: %v", out)
		}
		cs.Close()
	}
	s, err := responselog.Open(logDir).Read()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Decisions(responselog.DecisionFilter{})
	if err != nil || len(got) != 2 || got[0].User != "ben" || got[1].User != "ana" {
		t.Errorf("decisions by %v, %v; want ben's and ana's", got, err)
	}

	for _, tc := range []struct {
		name, token string
		want        int
	}{{"no token", "", 401}, {"a token not in the file", "nope", 401}, {"a person's token", anaToken, 200}} {
		req := mcpRequest(t, "POST", srv.URL+"/mcp", initializeBody)
		if tc.token != "" {
			req.Header.Set("Authorization", "Bearer "+tc.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d %s, want %d", tc.name, resp.StatusCode, body, tc.want)
		}
		if tc.want == 200 { // ana's session, asked with ben's token
			call := mcpRequest(t, "POST", srv.URL+"/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
			call.Header.Set("Mcp-Session-Id", resp.Header.Get("Mcp-Session-Id"))
			call.Header.Set("MCP-Protocol-Version", "2025-11-25")
			call.Header.Set("Authorization", "Bearer "+benToken)
			r, err := http.DefaultClient.Do(call)
			if err != nil {
				t.Fatal(err)
			}
			r.Body.Close()
			if r.StatusCode < 400 {
				t.Errorf("ana's session answered ben's token: %d", r.StatusCode)
			}
		}
	}
}

type withBearer string

func (b withBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}
