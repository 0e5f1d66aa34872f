// Package team holds the end-to-end test of elicit run for a team: three
// elicit serve --http replicas on one PostgreSQL team store behind nginx,
// with a tokens file, driven by go-sdk's client on protocol 2026-07-28
// (spread over the replicas, no session) and on 2025-11-25 (its session
// kept on one replica).
package team

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/elicit/elicit/internal/pgtest"
	"github.com/elicit/elicit/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// required says the test must run: make e2e sets ELICIT_E2E_TEAM=1.
func required() bool { return os.Getenv("ELICIT_E2E_TEAM") == "1" }

func need(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if required() {
		t.Fatalf("%s: %v", what, err)
	}
	t.Skipf("%s: %v (ELICIT_E2E_TEAM=1 makes this a failure)", what, err)
}

func elicitBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ELICIT_BIN"); p != "" {
		return p
	}
	bin := filepath.Join(t.TempDir(), "elicit")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "github.com/elicit/elicit/cmd/elicit")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

var served = regexp.MustCompile(`serving MCP at http://(\S+)/mcp`)

// process is a replica: its address and its process.
type process struct {
	addr string
	cmd  *exec.Cmd
}

// replica starts elicit serve --http in a checkout of its own of the
// team's repository, with args, and gives its address and process.
func replica(t *testing.T, bin string, env []string, checkout string, args ...string) process {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--http", "127.0.0.1:0", "--tokens-file", filepath.Join(filepath.Dir(checkout), "team.tokens")}, args...)...)
	cmd.Dir = checkout
	home := t.TempDir()
	cmd.Env = append(append(os.Environ(), "HOME="+home, "ELICIT_HOME="+home), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := served.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			} else if testing.Verbose() {
				t.Log("replica: " + sc.Text())
			}
		}
	}()
	select {
	case a := <-addr:
		return process{a, cmd}
	case <-time.After(20 * time.Second):
		t.Fatal("a replica did not start")
	}
	return process{}
}

// balancer starts nginx in front of the replicas, round-robin, with no
// session affinity: an older client's session lives on the replica that
// began it, and the others answer its calls without it. Its access log
// names the replica of each request.
func balancer(t *testing.T, replicas []process) (url, accessLog string) {
	t.Helper()
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if _, e := os.Stat("/usr/sbin/nginx"); e == nil {
			nginx, err = "/usr/sbin/nginx", nil
		}
	}
	need(t, "nginx (Debian's nginx package)", err)
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	var servers strings.Builder
	for _, r := range replicas {
		// a replica that refuses a connection is left out for a minute
		fmt.Fprintf(&servers, "server %s max_fails=1 fail_timeout=60s;\n", r.addr)
	}
	user := ""
	if os.Geteuid() == 0 {
		user = "user root root;"
	}
	accessLog = filepath.Join(dir, "access.log")
	conf := fmt.Sprintf(`%s
worker_processes 1;
pid %[2]s/nginx.pid;
error_log %[2]s/error.log;
events { worker_connections 4096; }
http {
	log_format upstream '$upstream_addr $http_mcp_protocol_version $status';
	access_log %[3]s upstream;
	client_body_temp_path %[2]s/body;
	proxy_temp_path %[2]s/proxy;
	fastcgi_temp_path %[2]s/fastcgi;
	uwsgi_temp_path %[2]s/uwsgi;
	scgi_temp_path %[2]s/scgi;
	upstream replicas { %[4]s keepalive 64; }
	server {
		listen 127.0.0.1:%[5]d;
		location / {
			proxy_pass http://replicas;
			proxy_http_version 1.1;
			proxy_set_header Connection "";
			proxy_set_header Host $http_host;
			proxy_buffering off;
			proxy_read_timeout 120s;
		}
	}
}
`, user, dir, accessLog, servers.String(), port)
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(nginx, "-p", dir, "-c", filepath.Join(dir, "nginx.conf"), "-g", "daemon off;")
	out, _ := os.Create(filepath.Join(dir, "nginx.out"))
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// SIGTERM, not a kill: nginx's master stops its workers as it goes.
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		if t.Failed() {
			msg, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			if len(msg) > 4000 {
				msg = msg[len(msg)-4000:]
			}
			t.Logf("nginx's error log ends:\n%s", msg)
		}
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			msg, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("nginx did not start: %s", msg)
		}
	}
	return "http://" + addr + "/mcp", accessLog
}

type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

// transport reaches url with token.
func transport(url, token string) mcp.Transport {
	return &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer(token)}, MaxRetries: -1}
}

func connect(t *testing.T, url, token, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "team-test", Version: "0"}, opts).Connect(context.Background(),
		transport(url, token), &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect (%s): %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	if version != "" && cs.InitializeResult().ProtocolVersion != version {
		t.Fatalf("negotiated %s, want %s", cs.InitializeResult().ProtocolVersion, version)
	}
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (map[string]any, error) {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if len(res.Content) != 1 {
		return nil, fmt.Errorf("%s: %d content blocks", name, len(res.Content))
	}
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		return nil, err
	}
	if res.IsError {
		return out, fmt.Errorf("%s: %v", name, out)
	}
	return out, nil
}

// TestE2ETeamBehindABalancer: two people, three replicas, one team
// database. Ana's calls on 2026-07-28 are spread over the replicas (her
// dialog's answer comes back to another replica than the one that asked);
// Ben, on 2025-11-25 in a session, recalls what she decided; 40 clients
// making 10 calls each at once get their own answers; a token not in the
// file is refused.
func TestE2ETeamBehindABalancer(t *testing.T) {
	tm := startTeam(t)
	url, accessLog, anaToken, benToken := tm.url, tm.accessLog, tm.ana, tm.ben
	storage := map[string]any{"title": "Storage", "fields": []any{map[string]any{"id": "db", "text": "Which database should the service use?", "type": "single_select", "options": []any{"PostgreSQL", "SQLite"}}}}
	six := map[string]any{"title": "Release", "fields": []any{
		map[string]any{"id": "track", "text": "Which track?", "type": "single_select", "options": []any{"stable", "beta"}},
		map[string]any{"id": "notify", "text": "Notify users?", "type": "boolean"}}}
	var asked int
	ana := connect(t, url, anaToken, "", &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked++
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"track": "beta", "notify": true}}, nil
	}})
	if v := ana.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		t.Fatalf("ana's client negotiated %s, want 2026-07-28", v)
	}
	if out, err := call(t, ana, "elicitation_collect_response", map[string]any{"form": storage, "answers": map[string]any{"db": "PostgreSQL"}}); err != nil || out["success"] != true {
		t.Fatalf("ana's collect: %v %v", out, err)
	}
	if out, err := call(t, ana, "elicitation_ask", map[string]any{"form": six}); err != nil || out["success"] != true || asked != 1 {
		t.Fatalf("ana's dialog, answered on another replica: %v %v (asked %d)", out, err, asked)
	}

	ben := connect(t, url, benToken, "2025-11-25", nil)
	got, err := call(t, ben, "elicitation_recall", map[string]any{"query": "database"})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(got)
	if !strings.Contains(string(raw), `"user":"ana"`) || !strings.Contains(string(raw), "PostgreSQL") {
		t.Errorf("ben does not find ana's decision: %s", raw)
	}

	// 40 clients × 10 calls at once, each answer its own.
	var wg sync.WaitGroup
	errs := make(chan error, 400)
	for c := range 40 {
		wg.Go(func() {
			cs := connect(t, url, anaToken, "", nil)
			for i := range 10 {
				slot := fmt.Sprintf("client-%d-call-%d", c, i)
				out, err := call(t, cs, "elicitation_render_form", map[string]any{"template": "session-contract", "slots": map[string]any{"project": slot}})
				if raw, _ := json.Marshal(out); err != nil || !strings.Contains(string(raw), slot) {
					errs <- fmt.Errorf("%s: %v %.200s", slot, err, raw)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2026-07-28")
	req.Header.Set("Authorization", "Bearer not-a-team-token")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 401 {
		t.Errorf("a token not in the file: %v %v, want 401", resp, err)
	} else {
		resp.Body.Close()
	}

	data, _ := os.ReadFile(accessLog)
	spread := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[1] == "2026-07-28" && f[2] == "200" {
			spread[f[0]] = true
		}
	}
	if len(spread) != 3 {
		t.Errorf("the 2026-07-28 calls reached %d replicas (%v), want all 3", len(spread), spread)
	}
}

// team is three replicas on one team database behind nginx, with ana's
// and ben's tokens.
type team struct {
	url, accessLog string
	ana, ben       string // tokens
	dir            string // the team's folder (checkouts, tokens file)
	dbURL          string
	replicas       []process
}

// startTeam starts PostgreSQL, three replicas and the balancer.
func startTeam(t *testing.T) *team { return startTeamWith(t, nil) }

// startTeamWith is startTeam with the replicas' arguments: prepare writes
// what they need in the team's folder and returns them.
func startTeamWith(t *testing.T, prepare func(dir string) []string) *team {
	t.Helper()
	srv, err := pgtest.Start()
	need(t, "PostgreSQL (Debian's postgresql package)", err)
	t.Cleanup(srv.Stop)
	dbURL, err := srv.Create()
	if err != nil {
		t.Fatal(err)
	}
	bin := elicitBin(t)
	dir := t.TempDir()
	anaToken, anaLine, _ := mcpserver.NewToken("ana")
	benToken, benLine, _ := mcpserver.NewToken("ben")
	if err := os.WriteFile(filepath.Join(dir, "team.tokens"), []byte(anaLine+benLine), 0o600); err != nil {
		t.Fatal(err)
	}
	var args []string
	if prepare != nil {
		args = prepare(dir)
	}
	env := []string{"ELICIT_DATABASE_URL=" + dbURL, "ELICIT_SERVER_KEY=the team's secret"}
	var replicas []process
	for i := range 3 { // each in a checkout of its own of one repository
		checkout := filepath.Join(dir, fmt.Sprintf("checkout-%d", i))
		if err := os.MkdirAll(filepath.Join(checkout, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(checkout, ".git", "config"), []byte("[remote \"origin\"]\n\turl = git@github.com:team/app.git\n"), 0o644)
		replicas = append(replicas, replica(t, bin, env, checkout, args...))
	}
	url, accessLog := balancer(t, replicas)
	return &team{url: url, accessLog: accessLog, ana: anaToken, ben: benToken, dir: dir, dbURL: dbURL, replicas: replicas}
}
