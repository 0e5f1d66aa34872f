package hosts

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// repoRoot is the repository's top folder.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// claudeBin returns the Claude Code installed here by npm ci, skipping the
// test when it is missing unless ELICIT_E2E_HOSTS=1 demands it.
func claudeBin(t *testing.T) string {
	t.Helper()
	p := filepath.Join(repoRoot(t), "e2e", "hosts", "node_modules", ".bin", "claude")
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("ELICIT_E2E_HOSTS") == "1" {
			t.Fatal("ELICIT_E2E_HOSTS=1 but Claude Code is missing (run: cd e2e/hosts && npm ci)")
		}
		t.Skip("Claude Code is not installed; run `cd e2e/hosts && npm ci` (make e2e does)")
	}
	return p
}

// claudeEnv is a clean environment for Claude Code: a fresh HOME, no real
// credentials, no traffic but to the stub.
func claudeEnv(t *testing.T, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "ANTHROPIC_") || strings.HasPrefix(name, "CLAUDE") || name == "HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, append([]string{"HOME=" + t.TempDir(), "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_ERROR_REPORTING=1"}, extra...)...)
}

// TestE2EClaudePluginValidate runs the real `claude plugin validate` on the
// plugin and the marketplace, then installs the plugin from the repository
// as a marketplace, as the README says.
func TestE2EClaudePluginValidate(t *testing.T) {
	claude := claudeBin(t)
	root := repoRoot(t)
	env := claudeEnv(t)
	for _, dir := range []string{filepath.Join(root, "plugins", "elicit"), root} {
		cmd := exec.Command(claude, "plugin", "validate", dir)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "Validation passed") {
			t.Errorf("claude plugin validate %s: %v\n%s", dir, err, out)
		}
		if strings.Contains(string(out), "✘") || strings.Contains(string(out), "error") {
			t.Errorf("claude plugin validate %s reported an error:\n%s", dir, out)
		}
	}
	for _, args := range [][]string{{"plugin", "marketplace", "add", root}, {"plugin", "install", "elicit@elicit"}} {
		cmd := exec.Command(claude, args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "Successfully") {
			t.Fatalf("claude %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	cmd := exec.Command(claude, "plugin", "list")
	cmd.Env = env
	out, _ := cmd.CombinedOutput()
	if !regexp.MustCompile(`elicit@elicit\s+Version: 0\.1\.0\s+Read from: \S+\s+Scope: user\s+Status: ✔ enabled`).MatchString(string(out)) {
		t.Errorf("claude plugin list:\n%s", out)
	}
}

// TestE2EClaudeCodeCallsElicitThroughThePlugin runs the real Claude Code in
// print mode with --plugin-dir plugins/elicit against the Messages stub.
// The plugin's launcher starts elicit; the stub checks the model is told
// about the plugin's skills and elicit's instructions, then plays a model
// that loads the forms skill, loads the deferred elicit tool with
// ToolSearch (Claude Code defers MCP tools), calls it, and answers with
// what it returned.
func TestE2EClaudeCodeCallsElicitThroughThePlugin(t *testing.T) {
	claude := claudeBin(t)
	bin := elicitBin(t)
	const tool = "mcp__plugin_elicit_elicit__elicitation_list_templates"
	var main []messagesRequest // the conversation's requests
	stub := startMessagesStub(t, func(r messagesRequest) stubReply {
		raw := string(r.Raw)
		if !slices.Contains(r.Tools, "Skill") || !strings.Contains(raw, "Which form templates") {
			return stubReply{Text: "ok"} // side requests (titles, summaries)
		}
		main = append(main, r)
		if out, ok := r.toolResult("toolu_3"); ok {
			return stubReply{Text: "elicit answered: " + out}
		}
		if slices.Contains(r.Tools, tool) {
			return stubReply{ToolUseID: "toolu_3", ToolName: tool, ToolInput: `{}`}
		}
		if _, ok := r.toolResult("toolu_1"); ok {
			return stubReply{ToolUseID: "toolu_2", ToolName: "ToolSearch", ToolInput: `{"query":"select:` + tool + `"}`}
		}
		return stubReply{ToolUseID: "toolu_1", ToolName: "Skill", ToolInput: `{"skill":"elicit:forms"}`}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", "Which form templates does elicit have?",
		"--plugin-dir", filepath.Join(repoRoot(t), "plugins", "elicit"),
		"--output-format", "stream-json", "--verbose", "--model", "claude-sonnet-4-5",
		"--allowedTools", "Skill,ToolSearch,"+tool)
	// ELICIT_BIN tells the plugin's launcher which binary to start.
	cmd.Env = claudeEnv(t, "ANTHROPIC_BASE_URL="+stub.URL, "ANTHROPIC_API_KEY=stub-key-not-secret", "ELICIT_BIN="+bin, "ELICIT_NO_NPX=1")
	cmd.Dir = t.TempDir()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("claude: %v\nstdout:\n%s\nstderr:\n%s", err, tail(stdout.String()), tail(stderr.String()))
	}
	if len(main) != 4 {
		t.Fatalf("%d conversation requests, want 4 (skill, tool search, tool, answer)\nstdout:\n%s", len(main), tail(stdout.String()))
	}
	first := string(main[0].Raw)
	for _, want := range []string{
		"- elicit:forms: Ask the user several things at once", "- elicit:methods: ", "- elicit:deliberate: ", // the skills
		"elicit gives you structured ways to ask (forms)", // the server's instructions
		tool, // the tool, deferred
	} {
		if !strings.Contains(first, want) {
			t.Errorf("the model was not told %q", want)
		}
	}
	if out, _ := main[1].toolResult("toolu_1"); !strings.Contains(string(main[1].Raw), "Infer first") {
		t.Errorf("the forms skill did not load: %q", out)
	}
	out, _ := main[3].toolResult("toolu_3")
	var list struct {
		Templates []struct{ Name string } `json:"templates"`
	}
	// Claude Code appends reminders after the tool's text: read its first
	// JSON value.
	if err := json.NewDecoder(strings.NewReader(out)).Decode(&list); err != nil || len(list.Templates) == 0 || list.Templates[0].Name != "session-contract" {
		t.Errorf("tool result %q (%v)", out, err)
	}
	if !strings.Contains(stdout.String(), `"result":"elicit answered: `) {
		t.Errorf("stdout:\n%s", tail(stdout.String()))
	}
}

// TestE2EClaudeCodeSlashCommands types the plugin's skill and the server's
// prompt as slash commands in the real Claude Code: the model receives the
// forms how-to with the user's words. Claude Code gives a skill the whole
// text after the command, and an MCP prompt one word per argument.
func TestE2EClaudeCodeSlashCommands(t *testing.T) {
	claude := claudeBin(t)
	bin := elicitBin(t)
	for _, tt := range []struct{ typed, want string }{
		{"/elicit:forms scope of the refactor", "<command-args>scope of the refactor</command-args>"},
		{"/mcp__plugin_elicit_elicit__ask refactoring", "Ask the user about: refactoring"},
	} {
		var got []string
		stub := startMessagesStub(t, func(r messagesRequest) stubReply {
			got = append(got, string(r.Raw))
			return stubReply{Text: "ok"}
		})
		cmd := exec.Command(claude, "-p", tt.typed,
			"--plugin-dir", filepath.Join(repoRoot(t), "plugins", "elicit"), "--output-format", "stream-json", "--verbose", "--model", "claude-sonnet-4-5")
		cmd.Env = claudeEnv(t, "ANTHROPIC_BASE_URL="+stub.URL, "ANTHROPIC_API_KEY=stub-key-not-secret", "ELICIT_BIN="+bin, "ELICIT_NO_NPX=1")
		cmd.Dir = t.TempDir()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("claude -p %q: %v\n%s", tt.typed, err, tail(string(out)))
		}
		found := false
		for _, raw := range got {
			// JSON escapes < and > in the request body.
			raw = strings.NewReplacer(`\u003c`, "<", `\u003e`, ">").Replace(raw)
			found = found || (strings.Contains(raw, "Infer first") && strings.Contains(raw, tt.want))
		}
		if !found {
			t.Errorf("%q: no request carried the how-to and %q (%d requests)", tt.typed, tt.want, len(got))
		}
	}
}
