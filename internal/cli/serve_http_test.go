package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpServer is a real `elicit serve --http` process.
type httpServer struct {
	url, tokenFile, stderr string
}

// startServe runs `elicit serve --http 127.0.0.1:0 ARGS...` with home as
// ELICIT_HOME until the test ends, and reads from its stderr the URL and
// the file holding the generated token.
func startServe(t *testing.T, home string, args ...string) *httpServer {
	t.Helper()
	_, path := elicitOnPath(t)
	bin := strings.SplitN(strings.TrimPrefix(path, "PATH="), string(os.PathListSeparator), 2)[0]
	cmd := exec.Command(filepath.Join(bin, "elicit"), append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "ELICIT_HOME="+home, "HOME="+home, "ELICIT_TOKEN=", "ELICIT_LOG=off")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	s := &httpServer{}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	tokenFile := regexp.MustCompile(`clients must send (?:it|the one in (\S+)).*|generated one in (\S+) `)
	for s.url == "" {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("serve ended before serving: %s", s.stderr)
			}
			s.stderr += line + "\n"
			if m := tokenFile.FindStringSubmatch(line); m != nil {
				s.tokenFile = m[1] + m[2]
			}
			if u, ok := strings.CutPrefix(line, "elicit: serving MCP at "); ok {
				s.url = u
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("serve printed no address in 20 s: %s", s.stderr)
		}
	}
	go func() {
		for range lines {
		}
	}()
	return s
}

// bearer adds the token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func dialServe(t *testing.T, url, token string) (*mcp.ClientSession, error) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "other-user", Version: "0"}, nil).Connect(context.Background(), tr, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func callServe(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		t.Fatal(err)
	}
	return out, res.IsError
}

// TestServeHTTPNeedsTokenAndAllowedConsultant replays the attack of a
// local user on `elicit serve --http PORT` given no token (which used to
// serve anyone and run `command:sh -c ...` for them): the server makes a
// token only its user can read and says where it is, never what it is;
// requests without it or with another get 401; with it, a command
// consultant the operator did not allow is refused saying how to allow
// it, and nothing runs; the one allowed runs.
func TestServeHTTPNeedsTokenAndAllowedConsultant(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	dir := t.TempDir()
	owned, ran := filepath.Join(dir, "owned"), filepath.Join(dir, "ran")
	script := filepath.Join(dir, "consultant.sh")
	if err := os.WriteFile(script, []byte("cat >/dev/null\ntouch "+ran+"\necho '1. Honour Retry-After. EVIDENCE.'\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, home, "--allow-consultant", "command:sh "+script)
	if want := filepath.Join(home, "serve-token"); s.tokenFile != want {
		t.Fatalf("token file %q, want %q; stderr:\n%s", s.tokenFile, want, s.stderr)
	}
	fi, err := os.Stat(s.tokenFile)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v, %v; want mode 0600", fi, err)
	}
	data, _ := os.ReadFile(s.tokenFile)
	token := strings.TrimSpace(string(data))
	if len(token) < 32 || strings.Contains(s.stderr, token) {
		t.Fatalf("token %q: too short, or printed on stderr:\n%s", token, s.stderr)
	}

	for _, auth := range []string{"", "Bearer wrong", "Bearer " + token + "x"} {
		req, _ := http.NewRequest("POST", s.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("Authorization %q: %d, want 401", auth, resp.StatusCode)
		}
	}
	if _, err := dialServe(t, s.url, "wrong"); err == nil {
		t.Error("a client with the wrong token connected")
	}

	cs, err := dialServe(t, s.url, token)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := callServe(t, cs, "deliberation_start", map[string]any{"question": "Retry on 429?"})
	id, _ := r["id"].(string)
	if id == "" {
		t.Fatalf("deliberation_start: %v", r)
	}
	attack := "command:sh -c 'id > " + owned + "'"
	r, isErr := callServe(t, cs, "deliberation_send", map[string]any{"id": id, "consultant": attack})
	problems, _ := json.Marshal(r["problems"])
	if !isErr || !strings.Contains(string(problems), "not allowed on this server") || !strings.Contains(string(problems), "--allow-consultant") {
		t.Errorf("deliberation_send with %s: error %v, %s; want refused, saying how the operator allows it", attack, isErr, problems)
	}
	r, _ = callServe(t, cs, "deliberation_wait", map[string]any{"id": id, "timeout_seconds": 1})
	if _, err := os.Stat(owned); err == nil {
		t.Fatalf("the refused consultant ran: %s exists", owned)
	}
	if r["status"] == "done" || r["status"] == "running" {
		t.Errorf("after the refused send: %v, want no consultation", r)
	}

	r, isErr = callServe(t, cs, "deliberation_send", map[string]any{"id": id, "consultant": "command:sh " + script})
	if isErr {
		t.Fatalf("the allowed consultant: %v", r)
	}
	for deadline := time.Now().Add(20 * time.Second); r["status"] != "done" && time.Now().Before(deadline); {
		r, _ = callServe(t, cs, "deliberation_wait", map[string]any{"id": id, "timeout_seconds": 5})
	}
	if _, err := os.Stat(ran); err != nil || r["status"] != "done" {
		t.Errorf("the allowed consultant: %v, %v; want it run and done", r, err)
	}
}

// TestServeHTTPKeepsItsToken: a server started again without a token uses
// the one kept, so that configured clients go on working; a kept file
// that others could read is replaced by a new token.
func TestServeHTTPKeepsItsToken(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	first := startServe(t, home)
	before, _ := os.ReadFile(first.tokenFile)
	second := startServe(t, home)
	after, _ := os.ReadFile(second.tokenFile)
	if string(before) != string(after) || !strings.Contains(second.stderr, "kept from an earlier serve") {
		t.Errorf("second start: token changed or not said kept:\n%s", second.stderr)
	}
	if err := os.Chmod(first.tokenFile, 0o644); err != nil {
		t.Fatal(err)
	}
	third := startServe(t, home)
	fresh, _ := os.ReadFile(third.tokenFile)
	fi, _ := os.Stat(third.tokenFile)
	if string(fresh) == string(before) || fi.Mode().Perm() != 0o600 {
		t.Errorf("a kept token others could read was used again (mode %v)", fi.Mode().Perm())
	}
}
