package mcpserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestListenAddr(t *testing.T) {
	tests := []struct {
		addr, token, want, err string
	}{
		{"8765", "", "127.0.0.1:8765", ""},
		{":8765", "", "127.0.0.1:8765", ""},
		{"localhost:1", "", "localhost:1", ""},
		{"[::1]:2", "", "[::1]:2", ""},
		{"127.0.0.2:3", "", "127.0.0.2:3", ""},
		{"0.0.0.0:4", "", "", "--http 0.0.0.0:4 is not a loopback address: refusing to serve it without a token (--token-file, or ELICIT_TOKEN)"},
		{"192.0.2.1:5", "", "", "not a loopback address"},
		{"0.0.0.0:4", "t", "0.0.0.0:4", ""},
		{"a:b:c", "", "", "use PORT, HOST:PORT or [IPv6]:PORT"},
		{"0", "", "127.0.0.1:0", ""},
		{"65535", "", "127.0.0.1:65535", ""},
		{"abc", "", "", `--http "abc": the port "abc" is not a number from 0 to 65535 (use PORT, HOST:PORT or [IPv6]:PORT`},
		{"70000", "", "", `--http "70000": the port "70000" is not a number from 0 to 65535`},
		{"127.0.0.1:-1", "", "", `the port "-1" is not a number`},
		{"127.0.0.1:+80", "", "", `the port "+80" is not a number`},
		{"localhost:", "", "", `the port "" is not a number`},
		{"0.0.0.0:http", "t", "", `the port "http" is not a number`},
	}
	for _, tt := range tests {
		got, err := ListenAddr(tt.addr, tt.token)
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("ListenAddr(%q, %q) = %q, %v; want %q, %q", tt.addr, tt.token, got, err, tt.want, tt.err)
		}
	}
}

func TestHTTPHandlerGuards(t *testing.T) {
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	post := func(h http.Handler, host, auth string) int {
		req := httptest.NewRequest("POST", "http://"+host+"/mcp", strings.NewReader(initialize))
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	guarded := HTTPHandler(New(nil), &HTTPOptions{Token: "s3cret"})
	// The scheme is case-insensitive (RFC 7235); the token is not.
	for auth, want := range map[string]int{"": 401, "Bearer nope": 401, "s3cret": 401, "Bearer s3cret": 200,
		"bearer s3cret": 200, "BEARER s3cret": 200, "Bearer  s3cret": 200, "Bearer S3CRET": 401, "Bearers3cret": 401,
		"Basic s3cret": 401, "Bearer s3cret extra": 401, "Bearer": 401, "Bearer ": 401} {
		if code := post(guarded, "127.0.0.1:8765", auth); code != want {
			t.Errorf("Authorization %q: %d, want %d", auth, code, want)
		}
	}
}

// TestDNSRebindingProtection serves on a real loopback listener: a request
// whose Host header names another host is refused.
func TestDNSRebindingProtection(t *testing.T) {
	srv := httptest.NewServer(HTTPHandler(New(nil), nil))
	defer srv.Close()
	for host, want := range map[string]int{"": http.StatusOK, "evil.example": http.StatusForbidden} {
		req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`))
		if host != "" {
			req.Host = host
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %q: %d, want %d", host, resp.StatusCode, want)
		}
	}
}

func TestCheckOrigins(t *testing.T) {
	for _, ok := range []string{"https://app.example.com", "http://localhost:5173", "https://app.example/", "HTTPS://App.Example:8443"} {
		if err := CheckOrigins([]string{ok}); err != nil {
			t.Errorf("CheckOrigins(%q): %v", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"*":                        "any origin is not supported",
		"javascript:x":             "not an http or https origin",
		"file:///etc/passwd":       "not an http or https origin",
		"app.example.com":          "not an http or https origin",
		"null":                     "not an http or https origin",
		"https://":                 "no host",
		"http:opaque":              "no host",
		"https://u:p@app.example":  "no user name or password",
		"https://app.example/path": "no path, query or fragment",
		"https://app.example?q":    "no path, query or fragment",
		"https://app.example#f":    "no path, query or fragment",
		"https://app.example:x":    "not a URL",
	} {
		err := CheckOrigins([]string{"https://fine.example", bad})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), fmt.Sprintf("--allow-origin %q", bad)) || strings.Contains(err.Error(), "fine.example") {
			t.Errorf("CheckOrigins(%q) = %v, want %q naming it", bad, err, want)
		}
	}
	if err := CheckOrigins([]string{"*", "javascript:x"}); err == nil || !strings.HasPrefix(err.Error(), "2 problems:") {
		t.Errorf("two bad origins: %v, want both named", err)
	}
}
