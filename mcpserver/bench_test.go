package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchSession connects a Go client to s over in-memory transports.
func benchSession(b *testing.B, s *mcp.Server) *mcp.ClientSession {
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

func benchCalls(b *testing.B, cs *mcp.ClientSession, params *mcp.CallToolParams) {
	ctx := context.Background()
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatalf("call: %v %v", err, res)
		}
	}
}

// BenchmarkCallRenderForm is one elicitation_render_form call of the 6-field
// form, client to server and back on the same SDK.
func BenchmarkCallRenderForm(b *testing.B) {
	data, err := os.ReadFile("../form/testdata/bench/six-fields.json")
	if err != nil {
		b.Fatal(err)
	}
	cs := benchSession(b, New(nil))
	benchCalls(b, cs, &mcp.CallToolParams{Name: "elicitation_render_form", Arguments: map[string]any{"form": jsonRaw(data)}})
}

// BenchmarkCallNoop is a tool that does nothing on the same SDK: the floor
// elicitation_render_form is compared with (target: at most 1.3 times it).
func BenchmarkCallNoop(b *testing.B) {
	data, err := os.ReadFile("../form/testdata/bench/six-fields.json")
	if err != nil {
		b.Fatal(err)
	}
	cs := benchSession(b, noopServer())
	benchCalls(b, cs, &mcp.CallToolParams{Name: "noop", Arguments: map[string]any{"form": jsonRaw(data)}})
}

type jsonRaw []byte

func (j jsonRaw) MarshalJSON() ([]byte, error) { return j, nil }

// serverOnly runs s on a stdio-like pipe and sends it raw JSON-RPC lines,
// reading each response without decoding it: the server's own time per call,
// with no client in the process.
func serverOnly(b *testing.B, s *mcp.Server, tool string, args []byte) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx, &mcp.IOTransport{Reader: inR, Writer: outW}); close(done) }()
	b.Cleanup(func() { cancel(); inW.Close(); outR.Close(); <-done })
	out := bufio.NewReaderSize(outR, 1<<16)
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			b.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`)
	if _, err := out.ReadSlice('\n'); err != nil {
		b.Fatal(err)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i := 0; b.Loop(); i++ {
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{"form":%s}}}`, i+1, tool, args))
		for {
			line, err := out.ReadSlice('\n')
			if err != nil && err != bufio.ErrBufferFull {
				b.Fatal(err)
			}
			if err == nil && len(line) > 0 {
				break
			}
		}
	}
}

// BenchmarkServerRenderForm is the server's own time for one
// elicitation_render_form call of the 6-field form.
func BenchmarkServerRenderForm(b *testing.B) {
	data, _ := os.ReadFile("../form/testdata/bench/six-fields.json")
	serverOnly(b, New(nil), "elicitation_render_form", data)
}

// BenchmarkServerNoop is the same for a tool that does nothing, on the same
// SDK (target: render_form at most 1.3 times this).
func BenchmarkServerNoop(b *testing.B) {
	data, _ := os.ReadFile("../form/testdata/bench/six-fields.json")
	serverOnly(b, noopServer(), "noop", data)
}

func noopServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "noop", Version: "0"}, nil)
	s.AddTool(&mcp.Tool{Name: "noop", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "{}"}}}, nil
		})
	return s
}
