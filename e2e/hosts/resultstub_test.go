package hosts

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/internal/codexstub"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The result-shape stub: this test binary, started with stubModeEnv set,
// is an MCP server over stdio with one tool, probe, whose result carries
// a text block, structured content, or both, each with a marker of its
// own, so that a test can see which of them the host puts before its
// model. It measures the hosts, not elicit (see TestE2EHostsShowToolResults).
const stubModeEnv = "ELICIT_HOSTS_RESULT_STUB"

// The markers: each appears in one part of the probe's result only.
const (
	textMarker   = "TEXT-PART-7f3a"
	structMarker = "STRUCT-PART-91c2"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(stubModeEnv); mode != "" {
		serveResultStub(mode)
		return
	}
	os.Exit(m.Run())
}

// serveResultStub serves the probe tool until standard input closes. mode
// is "text", "structured" or "both", with "-error" for an error result.
func serveResultStub(mode string) {
	s := mcp.NewServer(&mcp.Implementation{Name: "stub", Version: "0.0.1"}, nil)
	s.AddTool(&mcp.Tool{Name: "probe", Description: "Returns a probe result.", InputSchema: map[string]any{"type": "object"},
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(bool)}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			shape, isErr := strings.CutSuffix(mode, "-error")
			r := &mcp.CallToolResult{IsError: isErr}
			if shape == "text" || shape == "both" {
				r.Content = []mcp.Content{&mcp.TextContent{Text: `{"part":"` + textMarker + `","nested":{"z":1,"a":"<b> & é"}}`}}
			}
			if shape == "structured" || shape == "both" {
				r.StructuredContent = json.RawMessage(`{"part":"` + structMarker + `","nested":{"z":1,"a":"<b> & é"}}`)
			}
			if r.Content == nil {
				r.Content = []mcp.Content{} // the field is required on the wire
			}
			return r, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}

// stubCommand is how a host starts the stub in mode.
func stubCommand(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// seen says which parts of a probe result a tool output carries.
type seen struct{ Text, Structured bool }

func partsIn(s string) seen {
	return seen{Text: strings.Contains(s, textMarker), Structured: strings.Contains(s, structMarker)}
}

// mcpConfig is a Claude Code --mcp-config document starting the stub.
func mcpConfig(t *testing.T, mode string) string {
	cfg := map[string]any{"mcpServers": map[string]any{"stub": map[string]any{
		"command": stubCommand(t), "args": []string{}, "env": map[string]string{stubModeEnv: mode}}}}
	data, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestE2EHostsShowToolResults measures what each real host puts before its
// model when a tool's result has a text block, structured content, or both,
// as a success and as an error: the facts that decide how elicit's results
// are sent (mcpserver/result.go). Only a text block is shown whole by both
// hosts in every case; neither shows both parts.
// Claude Code (print mode, against the Messages stub) and codex exec
// (against the Responses stub) each call the stub's probe tool once per
// shape; the test holds what they showed.
func TestE2EHostsShowToolResults(t *testing.T) {
	want := map[string]map[string]seen{
		// Claude Code 2.1.332 shows structured content when there is some,
		// else the text; but for an error result it shows the text, and
		// "Unknown error" when there is none.
		"claude": {"text": {Text: true}, "structured": {Structured: true}, "both": {Structured: true},
			"text-error": {Text: true}, "structured-error": {}, "both-error": {Text: true}},
		// codex 0.171 shows structured content when there is some, else
		// the text, errors alike.
		"codex": {"text": {Text: true}, "structured": {Structured: true}, "both": {Structured: true},
			"text-error": {Text: true}, "structured-error": {Structured: true}, "both-error": {Structured: true}},
	}
	for _, host := range []string{"claude", "codex"} {
		t.Run(host, func(t *testing.T) {
			for _, mode := range []string{"text", "structured", "both", "text-error", "structured-error", "both-error"} {
				var out string
				if host == "claude" {
					out = claudeProbe(t, mode)
				} else {
					out = codexProbe(t, mode)
				}
				got := partsIn(out)
				t.Logf("%s, result with %s: the model was shown %q (text part %v, structured part %v)", host, mode, out, got.Text, got.Structured)
				if got != want[host][mode] {
					t.Errorf("%s, result with %s: shown text part %v, structured part %v; want %+v", host, mode, got.Text, got.Structured, want[host][mode])
				}
			}
		})
	}
}

// claudeProbe runs Claude Code with the stub as an MCP server, plays a
// model that calls its probe tool, and returns the tool result the model
// was sent.
func claudeProbe(t *testing.T, mode string) string {
	claude := claudeBin(t)
	const tool = "mcp__stub__probe"
	var result string
	stub := startMessagesStub(t, func(r messagesRequest) stubReply {
		if !strings.Contains(string(r.Raw), "Call the probe") {
			return stubReply{Text: "ok"} // side requests (titles, summaries)
		}
		if out, ok := r.toolResult("toolu_p2"); ok {
			result = out
			return stubReply{Text: "done"}
		}
		if slices.Contains(r.Tools, tool) {
			return stubReply{ToolUseID: "toolu_p2", ToolName: tool, ToolInput: `{}`}
		}
		return stubReply{ToolUseID: "toolu_p1", ToolName: "ToolSearch", ToolInput: `{"query":"select:` + tool + `"}`}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", "Call the probe tool.", "--mcp-config", mcpConfig(t, mode), "--strict-mcp-config",
		"--output-format", "stream-json", "--verbose", "--model", "claude-sonnet-4-5", "--allowedTools", "ToolSearch,"+tool)
	cmd.Env = claudeEnv(t, "ANTHROPIC_BASE_URL="+stub.URL, "ANTHROPIC_API_KEY=stub-key-not-secret")
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("claude: %v\n%s", err, tail(string(out)))
	}
	if result == "" {
		t.Fatalf("the model was never sent the probe's result\n%s", tail(string(out)))
	}
	return result
}

// codexProbe runs codex exec with the stub as an MCP server, plays a model
// that calls its probe tool, and returns the function output it was sent.
func codexProbe(t *testing.T, mode string) string {
	codex := codexstub.Require(t)
	home := t.TempDir()
	stub, env := codexstub.Serve(t, home, func(r codexstub.Request) codexstub.Reply {
		if len(r.Outputs) == 0 {
			return codexstub.Reply{Call: &codexstub.Call{ID: "call_p", Namespace: "mcp__stub", Name: "probe", Arguments: `{}`}}
		}
		return codexstub.Reply{Text: "done"}
	})
	appendFile(t, filepath.Join(home, "config.toml"),
		fmt.Sprintf("\n[mcp_servers.stub]\ncommand = %q\nargs = []\nenv = { %s = %q }\n", stubCommand(t), stubModeEnv, mode))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, codex, "exec", "--json", "--skip-git-repo-check", "-c", `sandbox_mode="read-only"`, "-")
	cmd.Env, cmd.Dir = env, t.TempDir()
	cmd.Stdin = strings.NewReader("Call the probe tool.")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("codex exec: %v\n%s", err, tail(string(out)))
	}
	reqs := stub.Requests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests, want 2\n%s", len(reqs), tail(string(out)))
	}
	return reqs[1].Outputs["call_p"]
}
