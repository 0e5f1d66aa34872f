package mcpserver

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

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
		return "", fmt.Errorf("--http %s is not a loopback address: refusing to serve it without a token (--token-file, or ELICIT_TOKEN)", net.JoinHostPort(host, port))
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
