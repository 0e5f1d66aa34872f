package mcpserver

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/widget"
	"github.com/elicit/elicit/internal/golden"
	"github.com/elicit/elicit/method"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// protocols are the versions every test runs over.
var protocols = []string{"2026-07-28", "2025-11-25", "2025-06-18"}

// connect starts the server and a client on in-memory transports,
// negotiating version.
func connect(t *testing.T, version string, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return dial(t, New(&Options{Version: "test", Project: t.TempDir()}), version, copts)
}

// dial connects a client with copts to s on protocol version; client names
// it (default "test" version "0").
func dial(t *testing.T, s *mcp.Server, version string, copts *mcp.ClientOptions, client ...*mcp.Implementation) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	opts := &mcp.ClientSessionOptions{}
	if version != protocols[0] {
		opts.ProtocolVersion = version
	}
	impl := &mcp.Implementation{Name: "test", Version: "0"}
	if len(client) > 0 {
		impl = client[0]
	}
	cs, err := mcp.NewClient(impl, copts).Connect(ctx, ct, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	return cs
}

// call calls a tool and decodes its result: one text block of JSON, with
// no structured content (each byte is sent once).
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (map[string]any, bool) {
	t.Helper()
	out, _, isErr := callRaw(t, cs, name, args)
	return out, isErr
}

// resultJSON decodes a tool result's JSON, failing unless it is one text
// block and nothing else.
func resultJSON(t *testing.T, name string, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if res.StructuredContent != nil || len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks and structured content %v; want one text block only", name, len(res.Content), res.StructuredContent)
	}
	var out map[string]any
	text := res.Content[0].(*mcp.TextContent).Text
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("%s: text %s: %v", name, text, err)
	}
	return out
}

func readForm(t *testing.T, name string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "form", "testdata", "forms", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	json.Unmarshal(data, &f)
	return f
}

func TestToolsGolden(t *testing.T) {
	cs := connect(t, protocols[0], nil)
	var tools []*mcp.Tool
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool)
	}
	got := golden.JSON(t, tools)
	golden.Check(t, "tools.json", got)
	if s := string(got); strings.Contains(s, `"null"`) {
		t.Error("input schemas must not use null type unions")
	}
	if srv := cs.InitializeResult().ServerInfo; srv.Name != "elicit" || srv.Version != "test" {
		t.Errorf("server info %+v", srv)
	}
}

func TestTools(t *testing.T) {
	scope := readForm(t, "scope")
	first, _ := method.Default().Lookup("1")
	firstBlock, err := method.Inject(first)
	if err != nil || first.Name == "" {
		t.Fatalf("method 1: %+v, %v", first, err)
	}
	tests := []struct {
		name    string
		tool    string
		args    any
		isError bool
		want    map[string]any // keys that must have these values
	}{
		{"render", "elicitation_render_form", map[string]any{"form": scope}, false,
			map[string]any{"success": true, "title": "Scope this work", "surface": "ask"}},
		{"render template", "elicitation_render_form", map[string]any{"template": "session-contract", "slots": map[string]any{"project": "x"}}, false,
			map[string]any{"success": true, "title": "Session contract: x"}},
		{"render both", "elicitation_render_form", map[string]any{"form": scope, "template": "session-contract"}, true,
			map[string]any{"success": false, "problems": []any{"pass exactly one of 'form' (a form definition) or 'template' (a template name, with 'slots'), not both"}}},
		{"render neither", "elicitation_render_form", map[string]any{}, true,
			map[string]any{"problems": []any{"pass exactly one of 'form' (a form definition) or 'template' (a template name, with 'slots')"}}},
		{"render bad form", "elicitation_render_form", map[string]any{"form": map[string]any{"title": 3, "fields": []any{map[string]any{"id": "a", "text": "A?", "type": "boolean", "required": "false"}}}, "extra": 1}, true,
			map[string]any{"problems": []any{"extra: unknown argument (arguments: form, template, slots, surface)", `form.fields[0].required: must be true or false (got string "false")`, "form.title: must be a string (got number 3)"}}},
		{"collect", "elicitation_collect_response", map[string]any{"form": scope, "answers": map[string]any{"goal": "Refactor", "focus": []any{"tests"}}}, false,
			map[string]any{"success": true, "template_id": "", "responses": map[string]any{"goal": "Refactor", "focus": []any{"tests"}}}},
		{"collect tool output", "elicitation_collect_response", map[string]any{"form": scope, "answers": map[string]any{"questions": []any{}, "answers": map[string]any{"What are you trying to accomplish?": "Refactor", "Which areas matter here?": "tests, security"}}}, false,
			map[string]any{"success": true, "responses": map[string]any{"goal": "Refactor", "focus": []any{"security", "tests"}}}},
		{"collect problems", "elicitation_collect_response", map[string]any{"form": scope, "answers": map[string]any{"goal": "Nope"}}, true,
			map[string]any{"success": false, "problems": []any{`answers.goal: "Nope" is not one of the options ("Fix a bug", "Add a feature", "Refactor", "Investigate")`, `answers.focus: required, but not answered (a list of one or more of "correctness", "security", "performance", "tests")`}}},
		{"collect template id", "elicitation_collect_response", map[string]any{"template": "session-contract", "slots": map[string]any{"project": "x"}, "answers": map[string]any{"mode": "Review and tidy", "outcome": "o", "done_when": "d"}}, false,
			map[string]any{"success": true, "template_id": "session-contract"}},
		{"collect bad template id", "elicitation_collect_response", map[string]any{"form": scope, "template_id": "../a\nb", "answers": map[string]any{"goal": "Refactor", "focus": []any{"tests"}}}, true,
			map[string]any{"problems": []any{`template_id: "../a\nb" is not a template name (lower-case letters, digits and dashes, starting with a letter or digit)`}}},
		{"collect missing answers", "elicitation_collect_response", map[string]any{"form": scope}, true,
			map[string]any{"problems": []any{"pass answers (a JSON answer document, or a list of them), reply (text as it came back: a person's markdown reply, the widget's message, AskUserQuestion's result; or a list of them), or both"}}},
		{"surface", "elicitation_select_surface", map[string]any{"form": scope, "widget_capable": false}, false,
			map[string]any{"surface": "ask", "reason": "the client cannot render widgets"}},
		{"surface keyboard", "elicitation_select_surface", map[string]any{"form": scope, "widget_capable": true, "keyboard_mode": true}, false,
			map[string]any{"surface": "ask", "reason": "keyboard mode is on"}},
		{"summary", "elicitation_form_summary", map[string]any{"form": scope, "response": map[string]any{"success": true, "responses": map[string]any{"goal": "Refactor", "focus": []any{"tests"}}, "response_id": "resp-1"}}, false,
			map[string]any{"success": true, "summary": "**Scope this work** — answered (resp-1)\n- What are you trying to accomplish?: **Refactor**\n- Which areas matter here?: **tests**\n"}},
		{"summary problems", "elicitation_form_summary", map[string]any{"form": scope, "response": map[string]any{"goal": "Nope"}}, true,
			map[string]any{"problems": []any{`response.goal: "Nope" is not one of the options ("Fix a bug", "Add a feature", "Refactor", "Investigate")`, `response.focus: required, but not answered (a list of one or more of "correctness", "security", "performance", "tests")`}}},
		{"summary of a wrong response", "elicitation_form_summary", map[string]any{"form": scope, "response": map[string]any{"success": true, "responses": map[string]any{"goal": "Refactor"}}}, true,
			map[string]any{"problems": []any{`response.responses.focus: required, but not answered (a list of one or more of "correctness", "security", "performance", "tests")`}}},
		{"summary of a failed collect", "elicitation_form_summary", map[string]any{"form": scope, "response": map[string]any{"success": false, "problems": []any{"answers.focus: required, but not answered"}}}, true,
			map[string]any{"problems": []any{"response: is a failed collect (success: false): fix its problems, collect again and pass the successful result"}}},
		{"select methods", "elicitation_select_methods", map[string]any{"phase": "forge:3", "title": "Architecture Design", "text": "security threat model architecture tradeoffs", "top": 2}, false,
			map[string]any{"status": "OK", "keywords": []any{"architecture", "design", "security", "threat", "model", "tradeoffs"}}},
		{"select methods no phase", "elicitation_select_methods", map[string]any{"top": -1}, true,
			map[string]any{"problems": []any{"phase: missing (a string is required)", "top: is -1, want a whole number, 0 to 9007199254740991"}}},
		{"inject", "elicitation_inject_method", map[string]any{"method": "1"}, false,
			map[string]any{"num": 1.0, "method_name": first.Name, "block": firstBlock}},
		{"inject unknown", "elicitation_inject_method", map[string]any{"method": "no such"}, true,
			map[string]any{"problems": []any{`method: no method named or numbered "no such" (see elicitation_list_methods)`}}},
		{"list methods bad tier", "elicitation_list_methods", map[string]any{"tier": 3}, true,
			map[string]any{"problems": []any{"tier: is 3, want a whole number, 0 to 2 (1 or 2; 0: every tier)"}}},
		{"list methods bad phase", "elicitation_list_methods", map[string]any{"phase": "bogus"}, true,
			map[string]any{"problems": []any{`phase: "bogus" is not a phase (want command:number, as plan:0 or arc:7.5)`}}},
	}
	for _, v := range protocols {
		cs := connect(t, v, nil)
		for _, tt := range tests {
			t.Run(v+"/"+tt.name, func(t *testing.T) {
				got, isErr := call(t, cs, tt.tool, tt.args)
				if isErr != tt.isError {
					t.Errorf("isError = %v, want %v: %v", isErr, tt.isError, got)
				}
				for k, want := range tt.want {
					if diff := cmp.Diff(want, got[k]); diff != "" {
						t.Errorf("%s (-want +got):\n%s", k, diff)
					}
				}
			})
		}
	}
}

func TestListTools(t *testing.T) {
	cs := connect(t, protocols[1], nil)
	got, _ := call(t, cs, "elicitation_list_templates", map[string]any{})
	if tl := got["templates"].([]any); len(tl) != 1 || tl[0].(map[string]any)["name"] != "session-contract" {
		t.Errorf("templates = %v", got)
	}
	got, _ = call(t, cs, "elicitation_list_methods", map[string]any{"tier": 2})
	if n := len(got["methods"].([]any)); n != 8 {
		t.Errorf("%d tier-2 methods, want 8", n)
	}
}

func TestArgumentsOverLimit(t *testing.T) {
	cs := connect(t, protocols[0], nil)
	big := strings.Repeat("x", maxArguments)
	got, isErr := call(t, cs, "elicitation_render_form", map[string]any{"form": map[string]any{"title": big}})
	if !isErr || !strings.Contains(got["problems"].([]any)[0].(string), "over the 1 MiB limit") {
		t.Errorf("got %v", got)
	}
}

// TestListTemplatesUnusableFolder: a template folder that does not exist is
// an error naming it, not a silent list of the embedded templates.
func TestListTemplatesUnusableFolder(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	cs := connectWith(t, &Options{Templates: &form.Templates{Folder: os.DirFS(missing), FolderName: "--templates " + missing}})
	got, isErr := call(t, cs, "elicitation_list_templates", map[string]any{})
	want := []any{"--templates " + missing + ": no such folder (give a folder of NAME.json templates)"}
	if !isErr || !reflect.DeepEqual(got["problems"], want) {
		t.Errorf("list templates: %v, want the problems %v", got, want)
	}
}

// TestEmptyTemplateIsAProblem: an empty template name is a problem naming
// the templates in every form tool, never a null result or a form-less
// elicitation_ask.
func TestEmptyTemplateIsAProblem(t *testing.T) {
	cs := connect(t, protocols[0], appsClient())
	tools := map[string]map[string]any{
		"elicitation_render_form":      {},
		"elicitation_render_widget":    {},
		"elicitation_select_surface":   {},
		"elicitation_collect_response": {"answers": map[string]any{"a": "Yes"}},
		"elicitation_form_summary":     {"response": map[string]any{"success": true, "responses": map[string]any{}}},
		"elicitation_ask":              {},
		widget.ValidateTool:            {"answers": map[string]any{"a": "Yes"}},
	}
	want := `template: is empty: give a template's name (available: "session-contract"; elicitation_list_templates lists them), or pass 'form' instead`
	for name, extra := range tools {
		for _, tmpl := range []string{"", "  "} {
			args := map[string]any{"template": tmpl}
			maps.Copy(args, extra)
			got, isErr := call(t, cs, name, args)
			if !isErr || !slices.Contains(asStrings(got["problems"]), want) {
				t.Errorf("%s with template %q: isError %v, %v; want the problem %q", name, tmpl, isErr, got, want)
			}
		}
	}
}
