package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
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
// elicitation_render_form is compared with (the tripwire: at most 2 times
// it; docs/benchmarks.md).
func BenchmarkCallNoop(b *testing.B) {
	data, err := os.ReadFile("../form/testdata/bench/six-fields.json")
	if err != nil {
		b.Fatal(err)
	}
	cs := benchSession(b, sdkNoop())
	benchCalls(b, cs, &mcp.CallToolParams{Name: "noop", Arguments: map[string]any{"form": jsonRaw(data)}})
}

type jsonRaw []byte

func (j jsonRaw) MarshalJSON() ([]byte, error) { return j, nil }

// sixFields is the benchmark form as a client sends it: compact, on one line.
func sixFields(b *testing.B) []byte {
	data, err := os.ReadFile("../form/testdata/bench/six-fields.json")
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// sdkNoop is a no-op tool on a plain go-sdk server: the SDK's own cost of a
// tools/call.
func sdkNoop() *mcp.Server {
	return withNoop(mcp.NewServer(&mcp.Implementation{Name: "noop", Version: "0"}, nil))
}

// withNoop adds a tool that does nothing to s.
func withNoop(s *mcp.Server) *mcp.Server {
	s.AddTool(&mcp.Tool{Name: "noop", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "{}"}}}, nil
		})
	return s
}

// BenchmarkServerRenderForm is the server's own time for one
// elicitation_render_form call of the 6-field form, on `elicit serve`'s
// transport.
func BenchmarkServerRenderForm(b *testing.B) {
	p := startPipeServer(b, New(nil), elicitStdio, "elicitation_render_form", sixFields(b))
	for b.Loop() {
		p.call(b)
	}
}

// BenchmarkServerNoop is a no-op tool on a plain go-sdk server over the
// SDK's stdio transport, sent the same arguments.
func BenchmarkServerNoop(b *testing.B) {
	p := startPipeServer(b, sdkNoop(), sdkStdio, "noop", sixFields(b))
	for b.Loop() {
		p.call(b)
	}
}

// BenchmarkServerRenderVsNoop measures the tripwire's ratio in one run, the
// servers in this process on pipes: elicitation_render_form on elicit's
// server, a no-op tool on a plain go-sdk server, and a no-op tool added to
// elicit's own server. Each iteration makes a block of sequential calls to
// each server in turn (sequential, as a client makes them, while machine
// noise falls on all three alike); it reports each one's mean time per call
// and the ratios (the tripwire: render at most 2 times the SDK's no-op).
func BenchmarkServerRenderVsNoop(b *testing.B) {
	form := sixFields(b)
	renderVsNoop(b, []*pipeServer{
		startPipeServer(b, New(nil), elicitStdio, "elicitation_render_form", form),
		startPipeServer(b, sdkNoop(), sdkStdio, "noop", form),
		startPipeServer(b, withNoop(New(nil)), elicitStdio, "noop", form),
	})
}

// BenchmarkHandlerRenderForm is elicitation_render_form's handler alone:
// argument decoding, form parsing, rendering, the surface and the result's
// text, without the SDK or a transport.
func BenchmarkHandlerRenderForm(b *testing.B) {
	h := &handlers{opts: (*Options)(nil).withDefaults()}
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Arguments: json.RawMessage(`{"form":` + string(sixFields(b)) + `}`)}}
	run := simple(formArgs, h.renderForm)
	for b.Loop() {
		if res, _ := run(context.Background(), req); res.IsError {
			b.Fatal(res.Content)
		}
	}
}
