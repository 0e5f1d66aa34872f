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

// TestLimitConnections: past the cap, Accept waits for a connection to
// close.
func TestLimitConnections(t *testing.T) {
	inner := &fakeListener{accepted: make(chan struct{}, 10)}
	ln := limitConnections(inner, 2)
	var conns []net.Conn
	for range 2 {
		c, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	third := make(chan net.Conn)
	go func() {
		c, _ := ln.Accept()
		third <- c
	}()
	<-inner.accepted
	<-inner.accepted
	select {
	case <-inner.accepted:
		t.Fatal("a third connection was accepted while two were open")
	case <-time.After(200 * time.Millisecond):
	}
	conns[0].Close()
	conns[0].Close() // closing twice frees one slot, not two
	c := <-third
	defer c.Close()
	<-inner.accepted
	// Open now: conns[1] and the third. A fourth waits...
	fourth := make(chan net.Conn)
	go func() {
		c, _ := ln.Accept()
		fourth <- c
	}()
	select {
	case <-inner.accepted:
		t.Fatal("a fourth connection was accepted while two were open: closing one twice freed two slots")
	case <-time.After(200 * time.Millisecond):
	}
	// ...until one of them closes.
	conns[1].Close()
	select {
	case <-inner.accepted:
	case <-time.After(10 * time.Second):
		t.Fatal("a closed connection did not free its slot")
	}
	(<-fourth).Close()
	if inner.maxOpen != 2 {
		t.Errorf("%d connections were open at once, want at most 2", inner.maxOpen)
	}
}
