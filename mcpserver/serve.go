package mcpserver

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves MCP over standard input and output until the client
// disconnects or ctx ends. When the input ends, bg (when not nil) is
// stopped first: its consultations are canceled and recorded, and the
// deliberation_wait calls in flight return at once, before the calls read
// are awaited.
func ServeStdio(ctx context.Context, s *mcp.Server, bg *Background) error {
	t := &stdioTransport{in: os.Stdin, out: nopCloser{os.Stdout}}
	if bg != nil {
		t.ended = func() { bg.Stop(stopWait) }
	}
	return s.Run(ctx, t)
}

// stopWait bounds how long stopping a Background at the end of the input
// waits for its consultations to record their end.
const stopWait = 15 * time.Second

// nopCloser keeps standard output open when the session ends.
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// ListenAddr resolves the address for Streamable HTTP: a bare port or an
// address without a host binds to loopback; any other host must be named
// explicitly, and a host that is not loopback needs a bearer token. The
// port is a number from 0 (any free port) to 65535.
func ListenAddr(addr, token string) (string, error) {
	const format = "use PORT, HOST:PORT or [IPv6]:PORT, e.g. 8765, 127.0.0.1:8765 or [::1]:8765"
	hostPort := addr
	if !strings.Contains(hostPort, ":") {
		hostPort = ":" + hostPort
	}
	host, port, err := net.SplitHostPort(hostPort)
	if err != nil {
		return "", fmt.Errorf("--http %q: %v (%s)", addr, err, format)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return "", fmt.Errorf("--http %q: the port %q is not a number from 0 to 65535 (%s)", addr, port, format)
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
