package hosts

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/codexstub"
)

// TestE2EHostsOfferTheFormSchema checks that the form schema in
// elicitation_render_form's input schema reaches the model through each
// real host: Claude Code sends it as it is, codex after its own conversion
// (which keeps every key, type and row). An agent that reads only its
// tools can then write a form with every field type and construct.
func TestE2EHostsOfferTheFormSchema(t *testing.T) {
	bin := elicitBin(t)
	for _, host := range []string{"claude", "codex"} {
		t.Run(host, func(t *testing.T) {
			var schema map[string]any
			if host == "claude" {
				schema = claudeToolSchema(t, bin, "mcp__elicit__elicitation_render_form")
			} else {
				schema = codexToolSchema(t, bin, "elicitation_render_form")
			}
			fields, _ := dig(schema, "properties", "form", "properties", "fields", "items", "properties").(map[string]any)
			for _, k := range []string{"id", "text", "type", "options", "default", "inferred_from", "path_kind", "path_options",
				"recommended", "rationale", "option_notes", "user_position", "progress_items", "endorsements", "triage_items",
				"dispositions", "suggested", "consequences", "top_n", "assumptions", "list_style", "max_length", "minimum", "maximum"} {
				if fields[k] == nil {
					t.Errorf("the model is not told of the field key %s", k)
				}
			}
			enum, _ := dig(fields, "type", "enum").([]any)
			if len(enum) != len(form.Types()) {
				t.Errorf("the model is told of %d field types, want %d", len(enum), len(form.Types()))
			}
			if desc, _ := dig(fields, "type", "description").(string); !strings.Contains(desc, "triage: triage_items* dispositions*") {
				t.Errorf("the model is not told each type's keys: %q", desc)
			}
			if dig(schema, "properties", "form", "properties", "form_id") == nil {
				t.Error("the model is not told of form_id")
			}
		})
	}
}

// dig walks nested objects by key.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

// claudeToolSchema runs Claude Code with elicit as an MCP server, loads the
// deferred tool with ToolSearch and returns its input schema as the model
// was sent it.
func claudeToolSchema(t *testing.T, bin, tool string) map[string]any {
	claude := claudeBin(t)
	var schema map[string]any
	stub := startMessagesStub(t, func(r messagesRequest) stubReply {
		if !strings.Contains(string(r.Raw), "Render a form") {
			return stubReply{Text: "ok"}
		}
		var body struct {
			Tools []struct {
				Name        string         `json:"name"`
				InputSchema map[string]any `json:"input_schema"`
			} `json:"tools"`
		}
		json.Unmarshal(r.Raw, &body)
		for _, tl := range body.Tools {
			if tl.Name == tool {
				schema = tl.InputSchema
				return stubReply{Text: "done"}
			}
		}
		return stubReply{ToolUseID: "toolu_s1", ToolName: "ToolSearch", ToolInput: `{"query":"select:` + tool + `"}`}
	})
	cfg := fmt.Sprintf(`{"mcpServers":{"elicit":{"command":%q,"args":["serve"]}}}`, bin)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, "-p", "Render a form.", "--mcp-config", cfg, "--strict-mcp-config",
		"--output-format", "stream-json", "--verbose", "--model", "claude-sonnet-4-5", "--allowedTools", "ToolSearch,"+tool)
	cmd.Env = claudeEnv(t, "ANTHROPIC_BASE_URL="+stub.URL, "ANTHROPIC_API_KEY=stub-key-not-secret", "ELICIT_HOME="+t.TempDir())
	cmd.Dir = t.TempDir()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("claude: %v\n%s", err, tail(string(out)))
	}
	if schema == nil {
		t.Fatalf("the model was never sent %s", tool)
	}
	return schema
}

// codexToolSchema runs codex exec with elicit as an MCP server and returns
// the parameters of the tool as the model was offered them.
func codexToolSchema(t *testing.T, bin, tool string) map[string]any {
	codex := codexstub.Require(t)
	home := t.TempDir()
	var raw json.RawMessage
	_, env := codexstub.Serve(t, home, func(r codexstub.Request) codexstub.Reply {
		raw = r.Raw
		return codexstub.Reply{Text: "done"}
	})
	appendFile(t, filepath.Join(home, "config.toml"), fmt.Sprintf("\n[mcp_servers.elicit]\ncommand = %q\nargs = [\"serve\"]\nenv = { ELICIT_HOME = %q }\n", bin, t.TempDir()))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, codex, "exec", "--json", "--skip-git-repo-check", "-c", `sandbox_mode="read-only"`, "-")
	cmd.Env, cmd.Dir = env, t.TempDir()
	cmd.Stdin = strings.NewReader("Render a form.")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("codex exec: %v\n%s", err, tail(string(out)))
	}
	// codex offers a server's tools in one namespace (mcp__elicit).
	var found map[string]any
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if x["name"] == tool && x["parameters"] != nil {
				found, _ = x["parameters"].(map[string]any)
				return
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	var body any
	json.Unmarshal(raw, &body)
	walk(body)
	if found == nil {
		t.Fatalf("codex did not offer %s", tool)
	}
	return found
}
