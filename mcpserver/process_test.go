package mcpserver

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveEnv makes this test binary a stdio MCP server instead of running
// tests: "elicit" serves elicit's tools plus a no-op tool as `elicit serve`
// does, "sdk" serves only a no-op tool on a plain go-sdk server over the
// SDK's stdio transport. The benchmarks below time servers as processes of
// their own.
const serveEnv = "ELICIT_BENCH_SERVE"

func TestMain(m *testing.M) {
	switch os.Getenv(serveEnv) {
	case "elicit":
		ServeStdio(context.Background(), withNoop(New(nil)), nil)
		os.Exit(0)
	case "sdk":
		sdkNoop().Run(context.Background(), &mcp.StdioTransport{})
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startProcessServer starts this binary as a server of the given kind and
// talks to it over its standard input and output.
func startProcessServer(b *testing.B, kind, tool string, args []byte) *pipeServer {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), serveEnv+"="+kind)
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { in.Close(); cmd.Wait() })
	p := &pipeServer{in: in, out: bufio.NewReaderSize(out, 1<<16), tool: tool, args: args,
		cpu: func() time.Duration { return processCPU(cmd.Process.Pid) }}
	p.send(b, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`)
	p.receive(b)
	p.send(b, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

// BenchmarkProcessRenderVsNoop is BenchmarkServerRenderVsNoop with each
// server a process of its own on real pipes, as an MCP host runs
// `elicit serve`: elicitation_render_form on elicit, a no-op tool on a plain
// go-sdk server, and the no-op tool on elicit.
func BenchmarkProcessRenderVsNoop(b *testing.B) {
	form := sixFields(b)
	renderVsNoop(b, []*pipeServer{
		startProcessServer(b, "elicit", "elicitation_render_form", form),
		startProcessServer(b, "sdk", "noop", form),
		startProcessServer(b, "elicit", "noop", form),
	})
}

// renderVsNoop times blocks of sequential calls to a render server, an SDK
// no-op server and elicit's no-op, in turn, and reports each one's mean
// time per call and the ratios.
func renderVsNoop(b *testing.B, servers []*pipeServer) {
	const block = 50
	for _, p := range servers {
		for range block {
			p.call(b) // warm up
		}
	}
	var spent, cpuBefore [3]time.Duration
	for i, p := range servers {
		if p.cpu != nil {
			cpuBefore[i] = p.cpu()
		}
	}
	for b.Loop() {
		for i, p := range servers {
			start := time.Now()
			for range block {
				p.call(b)
			}
			spent[i] += time.Since(start)
		}
	}
	perCall := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(b.N*block) }
	b.ReportMetric(perCall(spent[0]), "render-µs")
	b.ReportMetric(perCall(spent[1]), "sdk-noop-µs")
	b.ReportMetric(perCall(spent[2]), "own-noop-µs")
	b.ReportMetric(float64(spent[0])/float64(spent[1]), "render/sdk-noop")
	b.ReportMetric(float64(spent[0])/float64(spent[2]), "render/own-noop")
	// A server process's own CPU time is what a call costs it, whatever
	// else the machine is doing: the wall times above wait for a core too.
	if servers[0].cpu != nil && servers[1].cpu != nil {
		render, noop := servers[0].cpu()-cpuBefore[0], servers[1].cpu()-cpuBefore[1]
		if noop > 0 {
			b.ReportMetric(float64(render)/float64(noop), "render/sdk-noop-cpu")
			b.ReportMetric(perCall(render), "render-cpu-µs")
			b.ReportMetric(perCall(noop), "sdk-noop-cpu-µs")
			if servers[2].cpu != nil {
				b.ReportMetric(perCall(servers[2].cpu()-cpuBefore[2]), "own-noop-cpu-µs")
			}
		}
	}
}
