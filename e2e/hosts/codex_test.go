package hosts

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/internal/codexstub"
)

// TestE2ECodexCallsElicit runs the real codex CLI against the Responses
// stub with elicit as an MCP server in its config.toml. The stub answers
// the first turn with a call of a read-only tool, the second with a call of
// a tool that records state (neither destructive nor open-world), and
// checks each tool's output comes back in the next request: codex exec
// (approval policy never) calls only tools whose annotations say they are
// safe.
func TestE2ECodexCallsElicit(t *testing.T) {
	codex := codexstub.Require(t)
	bin := elicitBin(t)
	home, elicitHome := t.TempDir(), t.TempDir()
	var names []string
	stub, env := codexstub.Serve(t, home, func(r codexstub.Request) codexstub.Reply {
		switch len(r.Outputs) {
		case 0:
			names = r.Tools
			return codexstub.Reply{Call: &codexstub.Call{ID: "call_1", Namespace: "mcp__elicit", Name: "elicitation_select_methods",
				Arguments: `{"phase":"forge:3","title":"Architecture Design","text":"security threat model"}`}}
		case 1:
			return codexstub.Reply{Call: &codexstub.Call{ID: "call_2", Namespace: "mcp__elicit", Name: "deliberation_start",
				Arguments: `{"question":"Should the importer retry on HTTP 429?"}`}}
		default:
			return codexstub.Reply{Text: "done: both tools answered"}
		}
	})
	cfg := fmt.Sprintf("\n[mcp_servers.elicit]\ncommand = %q\nargs = [\"serve\"]\nenv = { ELICIT_HOME = %q }\n", bin, elicitHome)
	appendFile(t, filepath.Join(home, "config.toml"), cfg)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, codex, "exec", "--json", "--skip-git-repo-check", "-c", `sandbox_mode="read-only"`, "-")
	cmd.Env, cmd.Dir = env, t.TempDir()
	cmd.Stdin = strings.NewReader("Select reasoning methods for the architecture section, then start a deliberation.")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("codex exec: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), tail(stderr.String()))
	}
	reqs := stub.Requests()
	// codex offers an MCP server's tools as one namespace, mcp__SERVER,
	// described by the server's instructions.
	if !slices.Contains(names, "mcp__elicit") {
		t.Errorf("codex offered %v, no mcp__elicit", names)
	}
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (call, call, answer); tools offered: %v\nstdout:\n%s", len(reqs), names, stdout.String())
	}
	var methods struct {
		Status  string `json:"status"`
		Methods []struct {
			Name string `json:"method_name"`
		} `json:"methods"`
	}
	if err := json.Unmarshal([]byte(firstJSON(reqs[1].Outputs["call_1"])), &methods); err != nil || methods.Status != "OK" || len(methods.Methods) == 0 {
		t.Errorf("elicitation_select_methods output %q (%v)", reqs[1].Outputs["call_1"], err)
	}
	var started struct {
		ID, Prompt string
	}
	if err := json.Unmarshal([]byte(firstJSON(reqs[2].Outputs["call_2"])), &started); err != nil || !strings.Contains(started.Prompt, "Should the importer retry on HTTP 429?") {
		t.Errorf("deliberation_start output %q (%v)", reqs[2].Outputs["call_2"], err)
	}
	if _, err := os.Stat(filepath.Join(elicitHome, "deliberations")); err != nil {
		t.Errorf("the deliberation was not written under ELICIT_HOME: %v", err)
	}
	// deliberation_evaluate's input schema (the evaluation document's,
	// compacted: nested types left to its properties and items) reaches
	// the model whole.
	if outcomes := evaluateOutcomes(t, reqs[0].Raw); len(outcomes) != 10 || !slices.Contains(outcomes, "adjudicated") {
		t.Errorf("the model was offered deliberation_evaluate with challenge outcomes %v, want the 10", outcomes)
	}
	out := stdout.String()
	if strings.Contains(out, "requires approval") || !strings.Contains(out, `"type":"mcp_tool_call"`) || !strings.Contains(out, "done: both tools answered") {
		t.Errorf("codex events:\n%s", out)
	}
}

// evaluateOutcomes are the challenge outcomes deliberation_evaluate's
// parameters offer the model, in a request codex sent.
func evaluateOutcomes(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	type schema struct {
		Properties map[string]*schema `json:"properties"`
		Items      *schema            `json:"items"`
		Enum       []string           `json:"enum"`
	}
	var body struct {
		Tools []struct {
			Name  string `json:"name"`
			Tools []struct {
				Name       string  `json:"name"`
				Parameters *schema `json:"parameters"`
			} `json:"tools"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatal(err)
	}
	for _, ns := range body.Tools {
		for _, tool := range ns.Tools {
			if tool.Name != "deliberation_evaluate" || tool.Parameters == nil {
				continue
			}
			s := tool.Parameters
			for _, step := range []string{"evaluation", "challenges", "[]", "outcome"} {
				switch {
				case s == nil:
					return nil
				case step == "[]":
					s = s.Items
				default:
					s = s.Properties[step]
				}
			}
			if s != nil {
				return s.Enum
			}
		}
	}
	return nil
}

// firstJSON is the JSON object in a tool output (codex may wrap it).
func firstJSON(s string) string {
	if i := strings.Index(s, "{"); i >= 0 {
		return s[i:]
	}
	return s
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func tail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}

// TestE2ECodexPluginFromTheMarketplace adds the repository as a Codex
// marketplace, installs the elicit plugin from it, and runs the real codex
// exec against the stub: the model is offered the plugin's skills and
// elicit's tools (started by the plugin's launcher, which finds elicit on
// PATH), calls one and gets its result.
func TestE2ECodexPluginFromTheMarketplace(t *testing.T) {
	codex := codexstub.Require(t)
	bin := elicitBin(t)
	home := t.TempDir()
	onPath := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(onPath, "elicit")); err != nil {
		t.Fatal(err)
	}
	var first codexstub.Request
	stub, env := codexstub.Serve(t, home, func(r codexstub.Request) codexstub.Reply {
		if len(r.Outputs) == 0 {
			first = r
			return codexstub.Reply{Call: &codexstub.Call{ID: "call_1", Namespace: "mcp__elicit", Name: "elicitation_list_templates", Arguments: `{}`}}
		}
		return codexstub.Reply{Text: "done"}
	})
	env = append(env, "PATH="+onPath+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+t.TempDir())
	codexRun := func(args ...string) string {
		cmd := exec.Command(codex, args...)
		cmd.Env, cmd.Dir = env, t.TempDir()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("codex %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	codexRun("plugin", "marketplace", "add", repoRoot(t))
	codexRun("plugin", "add", "elicit@elicit")
	if out := codexRun("plugin", "list"); !regexp.MustCompile(`elicit@elicit\s+installed, enabled\s+0\.1\.0`).MatchString(out) {
		t.Fatalf("codex plugin list:\n%s", out)
	}

	cmd := exec.Command(codex, "exec", "--json", "--skip-git-repo-check", "-c", `sandbox_mode="read-only"`, "-")
	cmd.Env, cmd.Dir = env, t.TempDir()
	cmd.Stdin = strings.NewReader("Which form templates does elicit have?")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("codex exec: %v\n%s", err, tail(string(out)))
	}
	raw := string(first.Raw)
	if !slices.Contains(first.Tools, "mcp__elicit") || !strings.Contains(raw, "elicit:forms: Ask the user several things at once") ||
		!strings.Contains(raw, "elicit:methods: ") || !strings.Contains(raw, "elicit:deliberate: ") {
		t.Errorf("codex offered tools %v; skills listed: %v", first.Tools, strings.Contains(raw, "elicit:forms"))
	}
	reqs := stub.Requests()
	var list struct {
		Templates []struct{ Name string } `json:"templates"`
	}
	if len(reqs) != 2 || json.Unmarshal([]byte(firstJSON(reqs[1].Outputs["call_1"])), &list) != nil || len(list.Templates) == 0 {
		t.Fatalf("%d requests; tool output %q\ncodex:\n%s", len(reqs), reqs[len(reqs)-1].Outputs["call_1"], tail(string(out)))
	}
}
