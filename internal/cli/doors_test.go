package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit/elicit/form/widget"
	"github.com/elicit/elicit/mcpserver"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestDoorsLogTheSameRecords: the same renders, routings and collects, one
// series through the CLI and one through the MCP server (a client that
// shows MCP Apps, as the CLI assumes), leave the same records in the
// response log, but for who asked, through which door, and the ids and
// times: the definition of a hand-built form, the surfaces rendered and
// routed to, the surface the answers came from, the rejections.
func TestDoorsLogTheSameRecords(t *testing.T) {
	for _, k := range []string{"CLAUDECODE", "CODEX_THREAD_ID", "CODEX_SANDBOX", "CODEX_SANDBOX_NETWORK_DISABLED",
		"GEMINI_CLI", "CURSOR_AGENT", "COPILOT_CLI", "ELICIT_HOST", "ELICIT_LOG", "ELICIT_KEYBOARD_MODE", "ELICIT_TEMPLATES"} {
		t.Setenv(k, "")
	}
	home, project, dir := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("ELICIT_HOME", home)
	t.Setenv("ELICIT_RECALL", "off") // recall reads the log, which moves the journal into the database
	def, err := os.ReadFile(filepath.Join("..", "..", "form", "testdata", "forms", "six.json"))
	if err != nil {
		t.Fatal(err)
	}
	defFile := filepath.Join(dir, "six.json")
	os.WriteFile(defFile, def, 0o600)
	// Answers collected as one: JSON for what AskUserQuestion cannot ask,
	// and its result text (so the surface is ask); and answers with a
	// problem (a rejection).
	const richJSON = `{"budget": 8, "ship_date": "2026-03-02"}`
	const askText = `User has answered your questions: "Which release track?"="beta", "Which platforms ship?"="linux, macos".`
	richFile, askFile, badFile := filepath.Join(dir, "rich.json"), filepath.Join(dir, "ask.txt"), filepath.Join(dir, "bad.json")
	os.WriteFile(richFile, []byte(richJSON), 0o600)
	os.WriteFile(askFile, []byte(askText), 0o600)
	os.WriteFile(badFile, []byte(`{"track": "Nope"}`), 0o600)
	slot := map[string]any{"template": "session-contract", "slots": map[string]any{"project": "x"}}

	cli := func(exit int, args ...string) {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := Run(append(args, "--project", project), strings.NewReader(""), &out, &errOut); code != exit {
			t.Fatalf("elicit %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, exit, out.String(), errOut.String())
		}
	}
	// elicitation_render_form reports the router's choice beside the
	// render: on the CLI that is form render, then form surface.
	cli(0, "form", "render", defFile, "--surface", "markdown")
	cli(0, "form", "surface", defFile)
	cli(0, "form", "render", defFile, "--surface", "widget", "--html")
	cli(0, "form", "render", "--template", "session-contract", "--slot", "project=x")
	cli(0, "form", "surface", "--template", "session-contract", "--slot", "project=x")
	cli(0, "form", "surface", defFile)
	cli(0, "form", "collect", defFile, richFile, askFile)
	cli(1, "form", "collect", defFile, badFile)

	logDir := t.TempDir()
	s := mcpserver.New(&mcpserver.Options{Version: "test", Project: project, Getenv: func(k string) string { return map[string]string{"ELICIT_RECALL": "off"}[k] }, ResponseLogDir: logDir})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension(widget.AppExtension, map[string]any{"mimeTypes": []any{widget.AppMIMEType}})
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, &mcp.ClientOptions{Capabilities: caps}).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(isErr bool, tool string, args map[string]any) {
		t.Helper()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError != isErr {
			t.Fatalf("%s: %v, %+v", tool, err, res)
		}
	}
	form := json.RawMessage(def)
	call(false, "elicitation_render_form", map[string]any{"form": form, "surface": "markdown"})
	call(false, "elicitation_render_widget", map[string]any{"form": form})
	call(false, "elicitation_render_form", slot)
	call(false, "elicitation_select_surface", map[string]any{"form": form})
	call(false, "elicitation_collect_response", map[string]any{"form": form, "answers": json.RawMessage(richJSON), "reply": askText})
	call(true, "elicitation_collect_response", map[string]any{"form": form, "answers": map[string]any{"track": "Nope"}})

	got, want := journal(t, logDir), journal(t, filepath.Join(home, "log"))
	if len(want) != 8 {
		t.Errorf("the CLI logged %d records, want 8 (three renders, three routings, two collects):\n%v", len(want), want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the MCP server's records differ from the CLI's (-cli +mcp):\n%s", diff)
	}
}

// journal reads the response log's journal in dir, each record without
// what tells the doors and the calls apart.
func journal(t *testing.T, dir string) []map[string]any {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		for _, k := range []string{"id", "ts", "host", "host_version", "via"} {
			delete(r, k)
		}
		if _, ok := r["response_id"]; ok {
			r["response_id"] = "(set)"
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
