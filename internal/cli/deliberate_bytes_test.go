package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bytesAnswer is the consultee's answer in the byte measurements, and
// bytesEval the evaluation of it (a challenge, so the next prompt is a
// Subsequent Call).
const (
	bytesAnswer = "1. Honour Retry-After (client.py:88 parses it). EVIDENCE.\n2. Retry 5 times with exponential backoff. GUESS.\n"
	bytesEval   = `{"iteration": 1, "response": "valid", "points": [
  {"text": "honour Retry-After", "triage": "in-scope", "classification": "AGREE", "claim_type": "empirical", "evidence_type": "textual", "reason": "client.py:88 parses the header"},
  {"text": "retry 5 times", "triage": "in-scope", "classification": "SKEPTICAL", "flaw": "5 is arbitrary", "upgrade_if": "a measured 429 rate"}]}`
)

// answerScript is a consultant on PATH (command:consultee, as short as a
// real one's name) that reads the prompt and answers bytesAnswer.
func answerScript(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	script := "#!/bin/sh\ncat >/dev/null\nprintf '%s' '" + bytesAnswer + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "consultee"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return "command:consultee"
}

// mcpBytes counts what tool calls put in the agent's context: the tool's
// name and arguments it writes, and the result's content it reads. once
// counts a result's JSON once: when its text is the structured content
// again (mcpserver/result.go sends both, for clients that read only text),
// the copy is left out. wire counts each call's params and result as sent
// (the protocol's _meta included).
type mcpBytes struct{ once, wire int }

func (m *mcpBytes) call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	req, _ := json.Marshal(params)
	wire, _ := json.Marshal(res)
	argJSON, _ := json.Marshal(args)
	// A result's JSON, from its structured content or its text: counted
	// once when both carry it.
	raw, _ := json.Marshal(res.StructuredContent)
	var structured, fromText map[string]any
	json.Unmarshal(raw, &structured)
	read := 0
	duplicate := false
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			read += len(tc.Text)
			if json.Unmarshal([]byte(tc.Text), &fromText) == nil {
				duplicate = duplicate || reflect.DeepEqual(structured, fromText)
				if structured == nil {
					structured = fromText
				}
			}
		}
	}
	if res.StructuredContent != nil && !duplicate {
		read += len(raw)
	}
	m.once += len(name) + len(argJSON) + read
	m.wire += len(req) + len(wire)
	if res.IsError {
		t.Fatalf("%s: %v", name, structured)
	}
	return structured
}

// TestDeliberationBytesPerIteration drives one iteration (the consultant
// answers the First Call, the answer is judged, the Subsequent Call comes
// back) through the CLI and over MCP, as an agent would, and counts the
// bytes each puts in the agent's context: what it writes (the command
// line and its input; the tool's name and arguments) and what it reads
// back. Like for like, an MCP iteration (deliberation_send, _wait,
// _evaluate) may cost at most 1.5 times the CLI's (send --background, wait,
// evaluate: a consultation takes minutes, longer than an agent's shell
// waits; the seed runs it in the background and polls). It cost about 4
// times: every result came twice, and deliberation_send, _wait and
// _respond repeated the pending prompt, _wait twice.
func TestDeliberationBytesPerIteration(t *testing.T) {
	consultant := answerScript(t)
	t.Setenv("ELICIT_HOME", t.TempDir())
	// send --background runs this binary again as elicit (TestMain
	// dispatches on its name).
	arg0 := os.Args[0]
	os.Args[0] = "elicit"
	defer func() { os.Args[0] = arg0 }()

	// The CLI, as text (what an agent reads in a shell) and as JSON.
	cli := func(background, asJSON bool) int {
		var out, errOut bytes.Buffer
		run := func(stdin string, args ...string) string {
			t.Helper()
			out.Reset()
			errOut.Reset()
			if code := Run(args, strings.NewReader(stdin), &out, &errOut); code != 0 {
				t.Fatalf("elicit %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errOut.String())
			}
			return out.String()
		}
		var started struct{ ID string }
		json.Unmarshal([]byte(run("", "deliberate", "start", "--question", "Should the importer retry on HTTP 429?", "--json")), &started)
		n := 0
		count := func(stdin string, args ...string) string {
			if asJSON {
				args = append(args, "--json")
			}
			got := run(stdin, args...)
			n += len("elicit") + len(stdin) + len(got) + errOut.Len()
			for _, a := range args {
				n += 1 + len(a)
			}
			return got
		}
		send := []string{"deliberate", "send", started.ID, "--consultant", consultant}
		if background {
			count("", append(send, "--background")...)
			send = []string{"deliberate", "wait", started.ID}
		}
		if got := count("", send...); !strings.Contains(got, "Honour Retry-After") {
			t.Fatalf("%s printed %s", send[1], got)
		}
		if got := count(bytesEval, "deliberate", "evaluate", started.ID, "--file", "-"); !strings.Contains(got, "Iteration 2/8") {
			t.Fatalf("evaluate printed %s", got)
		}
		return n
	}
	cliBackground, cliShell, cliJSON := cli(true, false), cli(false, false), cli(true, true)

	// MCP: send, wait until the answer is in, evaluate.
	opts := &mcpserver.Options{Version: "test", Project: t.TempDir(), DeliberationDir: t.TempDir(), Background: mcpserver.NewBackground(), Getenv: os.Getenv}
	defer opts.Background.Stop(10 * time.Second)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(opts).Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var m mcpBytes
	started := (&mcpBytes{}).call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?"})
	id := started["id"]
	m.call(t, cs, "deliberation_send", map[string]any{"id": id, "consultant": consultant})
	calls := 1
	for {
		got := m.call(t, cs, "deliberation_wait", map[string]any{"id": id, "timeout_seconds": 50})
		calls++
		if got["status"] == "done" {
			break
		}
		if got["status"] != "running" || calls > 10 {
			t.Fatalf("wait: %v", got)
		}
	}
	var eval map[string]any
	json.Unmarshal([]byte(bytesEval), &eval)
	next := m.call(t, cs, "deliberation_evaluate", map[string]any{"id": id, "evaluation": eval})
	if !strings.Contains(next["prompt"].(string), "Iteration 2/8") {
		t.Fatalf("evaluate: %v", next)
	}

	t.Logf("one iteration: CLI %d bytes as text (send --background, wait, evaluate; %d with send waiting; %d with --json); MCP %d bytes in %d calls counting each result once (%.2f× the CLI's), %d as sent, with the protocol's framing (%.2f×)",
		cliBackground, cliShell, cliJSON, m.once, calls+1, float64(m.once)/float64(cliBackground), m.wire, float64(m.wire)/float64(cliBackground))
	if float64(m.once) > 1.5*float64(cliBackground) {
		t.Errorf("an MCP iteration costs %d bytes, %.2f× the CLI's %d: at most 1.5×", m.once, float64(m.once)/float64(cliBackground), cliBackground)
	}
}
