package mcpserver

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves MCP over standard input and output until the client
// disconnects or ctx ends.
func ServeStdio(ctx context.Context, s *mcp.Server) error {
	return s.Run(ctx, &lineTransport{in: os.Stdin, out: nopCloser{os.Stdout}})
}

// nopCloser keeps standard output open when the session ends.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// ListenAddr resolves the address for Streamable HTTP: a bare port or an
// address without a host binds to loopback; any other host must be named
// explicitly, and a host that is not loopback needs a bearer token.
func ListenAddr(addr, token string) (string, error) {
	if !strings.Contains(addr, ":") {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--http %q: %v (use PORT, HOST:PORT or [IPv6]:PORT)", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !isLoopback(host) && token == "" {
		return "", fmt.Errorf("--http %s is not a loopback address: refusing to serve it without --token (or ELICIT_TOKEN)", net.JoinHostPort(host, port))
	}
	return net.JoinHostPort(host, port), nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// HTTPHandler serves MCP over Streamable HTTP at /mcp, with the SDK's
// DNS-rebinding protection, checking a bearer token on every request when
// token is set.
func HTTPHandler(s *mcp.Server, token string) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	if token == "" {
		return mux
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="elicit"`)
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// ServeHTTP listens on addr (already checked by ListenAddr) and serves until
// ctx ends. ready, if not nil, receives the bound address.
func ServeHTTP(ctx context.Context, s *mcp.Server, addr, token string, ready func(string)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: HTTPHandler(s, token), ReadHeaderTimeout: 10 * time.Second}
	if ready != nil {
		ready(ln.Addr().String())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return nil
	}
}
