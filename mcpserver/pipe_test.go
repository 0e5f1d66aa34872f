package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pipeServer is a server running on a stdio-like pipe, driven with raw
// JSON-RPC lines and read without decoding: what is timed is the server's
// own work, with no client library in the process.
type pipeServer struct {
	in   io.WriteCloser
	out  *bufio.Reader
	tool string
	args []byte
	id   int
	// cpu, when set, is the CPU time the server has used so far (a
	// process's, read from the system).
	cpu func() time.Duration
}

func startPipeServer(t testing.TB, s *mcp.Server, tr transportFunc, tool string, args []byte) *pipeServer {
	return startPipeServerAt(t, s, tr, tool, args, "2025-11-25")
}

func startPipeServerAt(t testing.TB, s *mcp.Server, tr transportFunc, tool string, args []byte, version string) *pipeServer {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx, tr(inR, outW)); close(done) }()
	t.Cleanup(func() { cancel(); inW.Close(); outR.Close(); <-done })
	p := &pipeServer{in: inW, out: bufio.NewReaderSize(outR, 1<<16), tool: tool, args: args}
	p.send(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`)
	p.receive(t)
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

func (p *pipeServer) send(t testing.TB, line string) {
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// receive reads one response line and fails on a JSON-RPC or tool error.
func (p *pipeServer) receive(t testing.TB) {
	line, err := p.out.ReadSlice('\n')
	for err == bufio.ErrBufferFull {
		_, err = p.out.ReadSlice('\n')
	}
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(line, []byte(`"error":`)) || bytes.Contains(line, []byte(`"isError":true`)) {
		t.Fatalf("%s: %s", p.tool, line)
	}
}

// line reads one whole line, however long.
func (p *pipeServer) line(t testing.TB) []byte {
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		t.Fatalf("reading a response: %v", err)
	}
	return line
}

// call makes one tools/call round trip.
func (p *pipeServer) call(t testing.TB) {
	p.id++
	p.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{"form":%s}}}`, p.id, p.tool, p.args))
	p.receive(t)
}

type transportFunc func(io.ReadCloser, io.WriteCloser) mcp.Transport

// elicitStdio is the transport `elicit serve` uses.
func elicitStdio(in io.ReadCloser, out io.WriteCloser) mcp.Transport {
	return &stdioTransport{in: in, out: out}
}

// sdkStdio is the go-sdk's own stdio transport.
func sdkStdio(in io.ReadCloser, out io.WriteCloser) mcp.Transport {
	return &mcp.IOTransport{Reader: in, Writer: out}
}
