package mcpserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`

// mcpRequest is a request as a Streamable HTTP client sends it.
func mcpRequest(t *testing.T, method, url, body string) *http.Request {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	return req
}

// initialize starts a session and returns its id.
func initialize(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(mcpRequest(t, "POST", url, initializeBody))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
}

// TestOriginValidation: a request from a browser page of a foreign origin
// is refused with 403 (the MCP specification's MUST; Origin:
// http://evil.example used to be served); no Origin, loopback origins and
// allowed ones are served.
func TestOriginValidation(t *testing.T) {
	h := HTTPHandler(New(nil), &HTTPOptions{AllowedOrigins: []string{"https://app.example:8443", "https://other.example/"}})
	tests := []struct {
		origin string
		want   int
	}{
		{"", http.StatusOK},
		{"http://localhost:6274", http.StatusOK},
		{"http://127.0.0.1", http.StatusOK},
		{"http://[::1]:3000", http.StatusOK},
		{"https://app.example:8443", http.StatusOK},
		{"https://APP.example:8443", http.StatusOK},
		{"https://other.example", http.StatusOK},
		{"http://evil.example", http.StatusForbidden},
		{"https://app.example", http.StatusForbidden},
		{"http://localhost.evil.example", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{"file://", http.StatusForbidden},
	}
	for _, tt := range tests {
		for _, method := range []string{"POST", "GET", "DELETE"} {
			req := httptest.NewRequest(method, "http://127.0.0.1:8765/mcp", strings.NewReader(initializeBody))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			forbidden := rec.Code == http.StatusForbidden
			if forbidden != (tt.want == http.StatusForbidden) || (method == "POST" && rec.Code != tt.want) {
				t.Errorf("%s with Origin %q: %d, want %d", method, tt.origin, rec.Code, tt.want)
			}
		}
	}
}

// TestSessionCap: past MaxSessions live sessions a new one is refused with
// 503; when one ends, a new one is served again.
func TestSessionCap(t *testing.T) {
	s := New(nil)
	srv := httptest.NewServer(HTTPHandler(s, &HTTPOptions{MaxSessions: 2}))
	defer srv.Close()
	url := srv.URL + "/mcp"
	var ids []string
	for i, want := range []int{200, 200, 503} {
		code, id := initialize(t, url)
		if code != want {
			t.Fatalf("session %d: %d, want %d", i+1, code, want)
		}
		ids = append(ids, id)
	}
	del := mcpRequest(t, "DELETE", url, "")
	del.Header.Set("Mcp-Session-Id", ids[0])
	resp, err := http.DefaultClient.Do(del)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if code, _ := initialize(t, url); code != 200 {
		t.Errorf("after one session ended: %d, want 200", code)
	}
}

// TestSessionCapHoldsUnderConcurrentInitializes: initializes that arrive
// together cannot take more sessions than the cap (1,007 of 1,000 used to
// get in: sessions were counted, then made, with nothing in between
// keeping others from counting the same number). The race is one of
// timing: each round is a new chance for it.
func TestSessionCapHoldsUnderConcurrentInitializes(t *testing.T) {
	const rounds, cap, clients = 10, 30, 300
	for round := range rounds {
		s := New(nil)
		srv := httptest.NewServer(HTTPHandler(s, &HTTPOptions{MaxSessions: cap}))
		codes := initializeAtOnce(t, strings.TrimPrefix(srv.URL, "http://"), clients)
		live := sessions(s)
		if codes[http.StatusOK] > cap || live > cap {
			t.Fatalf("round %d: responses %v, %d sessions live; want at most %d of %d admitted", round+1, codes, live, cap, clients)
		}
		// Initializes in flight hold their places; once they are done,
		// the sessions left to make are made, and no more.
		for range cap - live {
			if code, _ := initialize(t, srv.URL+"/mcp"); code != http.StatusOK {
				t.Fatalf("round %d: %d sessions live, the next initialize: %d, want 200", round+1, sessions(s), code)
			}
		}
		if code, _ := initialize(t, srv.URL+"/mcp"); code != http.StatusServiceUnavailable || sessions(s) != cap {
			t.Fatalf("round %d: at the cap, an initialize: %d with %d sessions live, want 503 and %d", round+1, code, sessions(s), cap)
		}
		srv.Close()
	}
}

// initializeAtOnce sends n initializes on n connections at once and
// counts the responses by status.
func initializeAtOnce(t *testing.T, addr string, n int) map[int]int {
	request := fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", addr, len(initializeBody), initializeBody)
	conns := make([]net.Conn, n)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i] = c
	}
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, c := range conns {
		wg.Go(func() {
			<-start
			io.WriteString(c, request)
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			mu.Lock()
			codes[resp.StatusCode]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return codes
}

// TestNullIDAnsweredOverHTTP: a POST holding a request with "id": null,
// alone or in a batch, gets 400 and a JSON-RPC error of id null (the SDK
// answered 202, or plain text, and never the request).
func TestNullIDAnsweredOverHTTP(t *testing.T) {
	srv := httptest.NewServer(HTTPHandler(New(nil), nil))
	defer srv.Close()
	url := srv.URL + "/mcp"
	_, id := initialize(t, url)
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":null,"method":"notifications/initialized"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":null,"method":"ping"}]`,
	} {
		req := mcpRequest(t, "POST", url, body)
		req.Header.Set("Mcp-Session-Id", id)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.HasPrefix(string(got), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the id is null`) {
			t.Errorf("%s: %d %s; want 400 and a JSON-RPC error of id null", body, resp.StatusCode, got)
		}
	}
	if code, _ := initialize(t, url); code != http.StatusOK {
		t.Errorf("an initialize after them: %d", code)
	}
}

// waitFor polls cond until it holds or ten seconds pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("still not %s after 10 s", what)
}

func sessions(s *mcp.Server) int {
	n := 0
	for range s.Sessions() {
		n++
	}
	return n
}

// TestSessionExpiry: a session without requests for SessionTimeout is
// closed and its memory freed (sessions used to live until the server
// stopped: 30,000 initializes held 399 MB).
func TestSessionExpiry(t *testing.T) {
	s := New(nil)
	srv := httptest.NewServer(HTTPHandler(s, &HTTPOptions{SessionTimeout: 100 * time.Millisecond}))
	defer srv.Close()
	if code, _ := initialize(t, srv.URL+"/mcp"); code != 200 || sessions(s) != 1 {
		t.Fatalf("initialize: %d, %d sessions", code, sessions(s))
	}
	waitFor(t, "expired", func() bool { return sessions(s) == 0 })
}

// startHTTP runs ServeHTTP on a loopback port until the test ends.
func startHTTP(t *testing.T, s *mcp.Server, opts *HTTPOptions) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- ServeHTTP(ctx, s, "127.0.0.1:0", opts, func(a string) { addr <- a }) }()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case a := <-addr:
		return a
	case err := <-done:
		t.Fatal(err)
	}
	return ""
}

// TestTricklingBodyCut: a client that sends a body slower than
// BodyTimeout loses its connection (1,100 such connections used to hold
// every file descriptor for good).
func TestTricklingBodyCut(t *testing.T) {
	addr := startHTTP(t, New(nil), &HTTPOptions{BodyTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\"", addr)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err = io.Copy(io.Discard, conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the server still held the connection after 10 s")
	}
}

// TestStreamOutlivesTimeouts: a session's event stream stays open, idle,
// far past the body, write and idle timeouts, and still carries events.
func TestStreamOutlivesTimeouts(t *testing.T) {
	s := New(nil)
	short := 100 * time.Millisecond
	addr := startHTTP(t, s, &HTTPOptions{BodyTimeout: short, WriteTimeout: short, IdleTimeout: short, HeaderTimeout: short})
	url := "http://" + addr + "/mcp"
	_, id := initialize(t, url)
	for _, body := range []string{`{"jsonrpc":"2.0","method":"notifications/initialized"}`} {
		req := mcpRequest(t, "POST", url, body)
		req.Header.Set("Mcp-Session-Id", id)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	get := mcpRequest(t, "GET", url, "")
	get.Header.Set("Mcp-Session-Id", id)
	get.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(get)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET: %v, %v", resp, err)
	}
	defer resp.Body.Close()
	time.Sleep(10 * short) // idle, past every timeout
	s.AddTool(&mcp.Tool{Name: "late", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("the event stream was closed")
			}
			if strings.Contains(line, "notifications/tools/list_changed") {
				return
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no event in 10 s")
		}
	}
}

// fakeListener hands out pipe connections and records how many are open.
type fakeListener struct {
	mu            sync.Mutex
	open, maxOpen int
	accepted      chan struct{}
}

func (l *fakeListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	l.open++
	l.maxOpen = max(l.maxOpen, l.open)
	l.mu.Unlock()
	l.accepted <- struct{}{}
	c, _ := net.Pipe()
	return &countedConn{Conn: c, l: l}, nil
}

func (l *fakeListener) Close() error   { return nil }
func (l *fakeListener) Addr() net.Addr { return &net.TCPAddr{} }

type countedConn struct {
	net.Conn
	l    *fakeListener
	once sync.Once
}

// Close counts a connection closed once, however often it is closed.
func (c *countedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.open--
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

// acceptAll accepts n connections from the guard, failing the test when
// one takes more than a second.
func acceptAll(t *testing.T, g *connGuard, n int) []*guardedConn {
	t.Helper()
	var out []*guardedConn
	for range n {
		c, ok := acceptWithin(g, time.Second)
		if !ok {
			t.Fatalf("accept %d of %d waited", len(out)+1, n)
		}
		out = append(out, c)
	}
	return out
}

// acceptWithin accepts one connection, or reports false after d (the
// Accept then goes on in the background).
func acceptWithin(g *connGuard, d time.Duration) (*guardedConn, bool) {
	got := make(chan *guardedConn, 1)
	go func() {
		c, err := g.Accept()
		if err == nil {
			got <- c.(*guardedConn)
		}
	}()
	select {
	case c := <-got:
		return c, true
	case <-time.After(d):
		return nil, false
	}
}

func isOpen(c *guardedConn) bool {
	c.g.mu.Lock()
	defer c.g.mu.Unlock()
	_, ok := c.g.open[c]
	return ok
}

// TestConnectionSlots: past the cap a new connection closes the oldest one
// that has not authenticated, else the authenticated one idle the longest;
// it waits only while every other is authenticated and in a request, and a
// connection closed twice frees one slot. One client holds at most
// perClient unauthenticated connections.
func TestConnectionSlots(t *testing.T) {
	t.Run("unauthenticated are shed, oldest first", func(t *testing.T) {
		g := guardConnections(&fakeListener{accepted: make(chan struct{}, 10)}, 3, 10, time.Hour)
		cs := acceptAll(t, g, 3)
		cs[1].authenticate()
		more := acceptAll(t, g, 2)
		if isOpen(cs[0]) || !isOpen(cs[1]) || isOpen(cs[2]) || !isOpen(more[0]) || !isOpen(more[1]) {
			t.Errorf("open: %v %v %v, new %v %v; want the two unauthenticated closed", isOpen(cs[0]), isOpen(cs[1]), isOpen(cs[2]), isOpen(more[0]), isOpen(more[1]))
		}
	})
	t.Run("authenticated idle are shed, then newcomers wait", func(t *testing.T) {
		g := guardConnections(&fakeListener{accepted: make(chan struct{}, 10)}, 2, 10, time.Hour)
		cs := acceptAll(t, g, 2)
		for _, c := range cs {
			c.authenticate()
			g.connState(c, http.StateActive)
		}
		g.connState(cs[1], http.StateIdle)
		third := acceptAll(t, g, 1)[0]
		third.authenticate()
		g.connState(third, http.StateActive)
		if !isOpen(cs[0]) || isOpen(cs[1]) {
			t.Fatal("the idle authenticated connection was not the one closed")
		}
		waiting := make(chan *guardedConn)
		go func() {
			c, _ := g.Accept()
			waiting <- c.(*guardedConn)
		}()
		select {
		case <-waiting:
			t.Fatal("a connection was accepted while every other was authenticated and busy")
		case <-time.After(200 * time.Millisecond):
		}
		cs[0].Close()
		cs[0].Close() // closing twice frees one slot, not two
		fourth := <-waiting
		fourth.authenticate()
		g.connState(fourth, http.StateActive)
		if _, ok := acceptWithin(g, 200*time.Millisecond); ok {
			t.Fatal("closing one connection twice freed two slots")
		}
		third.Close()
	})
	t.Run("one client holds at most perClient unauthenticated", func(t *testing.T) {
		g := guardConnections(&fakeListener{accepted: make(chan struct{}, 10)}, 10, 2, time.Hour)
		cs := acceptAll(t, g, 3)
		if isOpen(cs[0]) || !isOpen(cs[1]) || !isOpen(cs[2]) {
			t.Error("the client's oldest unauthenticated connection was not closed at the third")
		}
	})
	t.Run("a connection that does not authenticate in time is closed", func(t *testing.T) {
		g := guardConnections(&fakeListener{accepted: make(chan struct{}, 10)}, 10, 10, 100*time.Millisecond)
		cs := acceptAll(t, g, 2)
		cs[1].authenticate()
		waitFor(t, "closed", func() bool { return !isOpen(cs[0]) })
		time.Sleep(100 * time.Millisecond)
		if !isOpen(cs[1]) {
			t.Error("an authenticated connection was closed by the window")
		}
	})
}

// TestUnauthenticatedCannotLockOut replays the lock-out attacks on a real
// server with the default caps: more connections than it has slots, each
// silent, trickling its headers, refused with 401 and then idle, or (with
// the token) holding an event stream, are held open; a client with the
// token is still served within two seconds (it used to wait 10 s for the
// silent ones, 122 s after the 401s, as long as the sessions lived for the
// streams).
func TestUnauthenticatedCannotLockOut(t *testing.T) {
	const token = "s3cret"
	n := defaultMaxConnections + 44
	attacks := []struct {
		name string
		hold func(t *testing.T, addr string) io.Closer
	}{
		{"silent", func(t *testing.T, addr string) io.Closer { return dialAndSend(t, addr, "") }},
		{"trickling headers", func(t *testing.T, addr string) io.Closer {
			return dialAndSend(t, addr, "POST /mcp HTTP/1.1\r\nHost: "+addr+"\r\nX-Slow: 1")
		}},
		{"401 then idle", func(t *testing.T, addr string) io.Closer {
			c := dialAndSend(t, addr, fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", addr, len(initializeBody), initializeBody))
			if c == nil {
				return nil
			}
			c.SetReadDeadline(time.Now().Add(3 * time.Second)) // a server holding every slot never answers
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				return c // closed by the server: fine
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("without the token: %d, want 401", resp.StatusCode)
			}
			return c
		}},
		{"event streams", func(t *testing.T, addr string) io.Closer {
			url := "http://" + addr + "/mcp"
			client := &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: 3 * time.Second}}
			req := mcpRequest(t, "POST", url, initializeBody)
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := client.Do(req)
			if err != nil {
				return io.NopCloser(nil)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			get := mcpRequest(t, "GET", url, "")
			get.Header.Set("Authorization", "Bearer "+token)
			get.Header.Set("Mcp-Session-Id", resp.Header.Get("Mcp-Session-Id"))
			get.Header.Set("Accept", "text/event-stream")
			stream, err := client.Do(get)
			if err != nil {
				return io.NopCloser(nil)
			}
			return stream.Body
		}},
	}
	for _, tt := range attacks {
		t.Run(tt.name, func(t *testing.T) {
			addr := startHTTP(t, New(nil), &HTTPOptions{Token: token})
			held := make([]io.Closer, n)
			var wg sync.WaitGroup
			for i := range held {
				wg.Go(func() { held[i] = tt.hold(t, addr) })
			}
			wg.Wait()
			defer func() {
				for _, c := range held {
					if c != nil {
						c.Close()
					}
				}
			}()
			start := time.Now()
			req := mcpRequest(t, "POST", "http://"+addr+"/mcp", initializeBody)
			req.Header.Set("Authorization", "Bearer "+token)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			resp, err := (&http.Client{Transport: &http.Transport{}}).Do(req.WithContext(ctx))
			took := time.Since(start)
			if err != nil {
				t.Fatalf("with %d %s connections held, the client with the token: %v after %v", n, tt.name, err, took.Round(time.Millisecond))
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || took > 2*time.Second {
				t.Errorf("with %d %s connections held, the client with the token: %d after %v, want 200 within 2 s", n, tt.name, resp.StatusCode, took.Round(time.Millisecond))
			}
		})
	}
}

// dialAndSend opens a TCP connection and writes text on it.
func dialAndSend(t *testing.T, addr, text string) net.Conn {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Errorf("dial: %v", err)
		return nil
	}
	if text != "" {
		io.WriteString(c, text)
	}
	return c
}
