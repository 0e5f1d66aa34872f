package mcpserver

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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

// TestATokenReachesOnlyItsOwnDeliberations: ana's deliberation is listed
// to ana and refused to ben, whose list leaves it out and whose own
// deliberation ana cannot reach either.
func TestATokenReachesOnlyItsOwnDeliberations(t *testing.T) {
	anaToken, anaLine, _ := NewToken("ana")
	benToken, benLine, _ := NewToken("ben")
	users, err := ParseUsers("toks", []byte(anaLine+benLine))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(HTTPHandler(New(&Options{Version: "test", Project: t.TempDir(), ResponseLogDir: t.TempDir(), DeliberationDir: t.TempDir()}), &HTTPOptions{Users: users}))
	defer srv.Close()
	connect := func(token string) *mcp.ClientSession {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", HTTPClient: &http.Client{Transport: withBearer(token)}, MaxRetries: -1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	ana, ben := connect(anaToken), connect(benToken)
	start := func(cs *mcp.ClientSession) string {
		out, isErr := call(t, cs, "deliberation_start", map[string]any{"question": "Should the team server keep each person's deliberations apart from the others'?", "quick": true})
		if isErr {
			t.Fatalf("start: %v", out)
		}
		return out["id"].(string)
	}
	anas := start(ana)
	time.Sleep(1100 * time.Millisecond) // IDs are per second
	bens := start(ben)
	for _, tc := range []struct {
		who  *mcp.ClientSession
		tool string
		id   string
	}{{ben, "deliberation_status", anas}, {ben, "deliberation_send", anas}, {ben, "deliberation_recover", anas}, {ana, "deliberation_cancel", bens}} {
		out, isErr := call(t, tc.who, tc.tool, map[string]any{"id": tc.id})
		if !isErr || !strings.Contains(fmt.Sprint(out), "started by another user") {
			t.Errorf("%s on another user's deliberation: %v, want it refused", tc.tool, out)
		}
	}
	if out, isErr := call(t, ana, "deliberation_status", map[string]any{"id": anas}); isErr {
		t.Errorf("ana's own status: %v", out)
	}
	for who, want := range map[*mcp.ClientSession]string{ana: anas, ben: bens} {
		out, _ := call(t, who, "deliberation_list", map[string]any{})
		list := out["deliberations"].([]any)
		if len(list) != 1 || list[0].(map[string]any)["id"] != want {
			t.Errorf("list = %v, want only %s", list, want)
		}
	}
}
