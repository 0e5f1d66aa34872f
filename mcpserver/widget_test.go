package mcpserver

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/form/widget"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// appsClient advertises MCP Apps, as a host that shows them does.
func appsClient() *mcp.ClientOptions {
	caps := &mcp.ClientCapabilities{}
	caps.AddExtension(widget.AppExtension, map[string]any{"mimeTypes": []any{widget.AppMIMEType}})
	return &mcp.ClientOptions{Capabilities: caps}
}

func TestRenderWidgetTool(t *testing.T) {
	cs := connect(t, protocols[0], nil)
	r, isErr := call(t, cs, "elicitation_render_widget", map[string]any{"form": readForm(t, "scope")})
	if isErr || r["success"] != true || r["title"] != "Scope this work" {
		t.Fatalf("render_widget = %v", r)
	}
	if diff := cmp.Diff([]any{"goal", "focus"}, r["field_ids"]); diff != "" {
		t.Errorf("field_ids (-want +got):\n%s", diff)
	}
	if html, _ := r["html"].(string); !strings.HasPrefix(html, "<form class=el ") {
		t.Errorf("html = %.80q", html)
	}
	r, isErr = call(t, cs, "elicitation_render_widget", map[string]any{"template": "session-contract", "slots": map[string]any{"project": "<b>x</b>"}})
	if html, _ := r["html"].(string); isErr || !strings.Contains(html, "&lt;b&gt;x&lt;/b&gt;") {
		t.Errorf("render_widget with a template = %v", r)
	}
	r, isErr = call(t, cs, "elicitation_render_widget", map[string]any{"form": map[string]any{"title": "T"}})
	if !isErr || r["success"] != false {
		t.Errorf("an invalid form = %v", r)
	}
}

// TestOneToolListForEveryClient: every client, with MCP Apps or without,
// on every protocol, gets the same tools/list: the form tools pointing at
// the app and the app-only tool with its app visibility.
func TestOneToolListForEveryClient(t *testing.T) {
	var first []byte
	for _, v := range protocols {
		for _, client := range []*mcp.ClientOptions{nil, appsClient()} {
			res, err := connect(t, v, client).ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(res.Tools)
			if first == nil {
				first = raw
			} else if string(raw) != string(first) {
				t.Errorf("%s (apps %v): tools/list differs from the first client's", v, client != nil)
			}
			byName := map[string]*mcp.Tool{}
			for _, tool := range res.Tools {
				byName[tool.Name] = tool
			}
			for _, name := range appTools {
				ui, _ := byName[name].Meta["ui"].(map[string]any)
				if ui["resourceUri"] != widget.AppURI || ui["visibility"] != nil {
					t.Errorf("%s: _meta.ui = %v", name, byName[name].Meta)
				}
			}
			ui, _ := byName[widget.ValidateTool].Meta["ui"].(map[string]any)
			if !cmp.Equal(ui["visibility"], []any{"app"}) {
				t.Errorf("%s: _meta.ui = %v", widget.ValidateTool, ui)
			}
		}
	}
}

func TestShowsApps(t *testing.T) {
	ext := func(v any) *mcp.ClientCapabilities {
		return &mcp.ClientCapabilities{Extensions: map[string]any{widget.AppExtension: v}}
	}
	tests := []struct {
		name string
		caps *mcp.ClientCapabilities
		want bool
	}{
		{"none", nil, false},
		{"no extension", &mcp.ClientCapabilities{}, false},
		{"html pages", ext(map[string]any{"mimeTypes": []any{"text/html;profile=mcp-app"}}), true},
		{"no mime types listed", ext(map[string]any{}), true},
		{"other pages only", ext(map[string]any{"mimeTypes": []any{"text/x-other"}}), false},
		{"not an object", ext(true), false},
	}
	for _, tt := range tests {
		if got := showsApps(tt.caps); got != tt.want {
			t.Errorf("%s: showsApps = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestAppResource(t *testing.T) {
	cs := connect(t, protocols[1], appsClient())
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: widget.AppURI})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Contents[0]
	if c.MIMEType != "text/html;profile=mcp-app" || !strings.Contains(c.Text, `"ui/initialize"`) || !strings.Contains(c.Text, widget.ValidateTool) {
		t.Errorf("the app resource = %s %.200q", c.MIMEType, c.Text)
	}
	found := false
	for r, err := range cs.Resources(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		found = found || (r.URI == widget.AppURI && r.MIMEType == widget.AppMIMEType)
	}
	if !found {
		t.Error("the app is not listed in resources/list")
	}
}

func TestWidgetValidate(t *testing.T) {
	cs := connect(t, protocols[0], appsClient())
	six := readForm(t, "six")
	r, isErr := call(t, cs, widget.ValidateTool, map[string]any{"form": six, "answers": map[string]any{
		widget.Marker: true, "title": six["title"], "answers": map[string]any{"budget": 999}}})
	fields, _ := r["fields"].(map[string]any)
	if !isErr || r["success"] != false || fields["budget"] == nil || fields[""] != nil {
		t.Fatalf("refused answers = %v", r)
	}
	if msg, _ := fields["budget"].(string); !strings.Contains(msg, "above the maximum") {
		t.Errorf("fields.budget = %q", msg)
	}
	scope := readForm(t, "scope")
	r, isErr = call(t, cs, widget.ValidateTool, map[string]any{"form": scope, "answers": map[string]any{
		widget.Marker: true, "title": scope["title"], "answers": map[string]any{"goal": "Refactor", "focus": []any{"tests"}}}})
	if isErr || r["success"] != true || !strings.HasPrefix(r["response_id"].(string), "resp-") {
		t.Errorf("accepted answers = %v", r)
	}
	r, isErr = call(t, cs, widget.ValidateTool, map[string]any{"form": scope})
	if !isErr || !strings.Contains(strings.Join(asStrings(r["problems"]), "\n"), "answers: missing") {
		t.Errorf("no answers = %v", r)
	}
}

func asStrings(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, s := range list {
		out = append(out, s.(string))
	}
	return out
}

// TestAppsToolsListFitsBudget: what a host with MCP Apps gives its model
// (the tools/list without the app-only tools, which it shows the app only,
// with _meta.ui on the form tools) fits the tools/list budget too.
func TestAppsToolsListFitsBudget(t *testing.T) {
	cs := dial(t, New(nil), protocols[0], appsClient())
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var forModel []*mcp.Tool
	for _, tool := range res.Tools {
		ui, _ := tool.Meta["ui"].(map[string]any)
		if v, ok := ui["visibility"].([]any); ok && !slices.Contains(v, any("model")) {
			continue
		}
		forModel = append(forModel, tool)
	}
	if len(forModel) != len(res.Tools)-len(AppOnlyTools) {
		t.Errorf("%d tools for the model, %d listed, %d app-only", len(forModel), len(res.Tools), len(AppOnlyTools))
	}
	if msg := checkBudget(forModel, toolsBudget); msg != "" {
		t.Error(msg)
	}
	raw, _ := json.Marshal(&mcp.ListToolsResult{Tools: forModel})
	t.Logf("tools/list for the model %d bytes for %d tools (budget %d)", len(raw), len(forModel), toolsBudget)
}

// TestSurfacePerClient: over MCP the router knows the client: the widget
// only for one that advertised MCP Apps (or an agent that says its host can
// show it), else the client's own question tool, AskUserQuestion unless it
// is the Codex CLI; the response log records the same choice.
func TestSurfacePerClient(t *testing.T) {
	claude := &mcp.Implementation{Name: "claude-code", Version: "2.1.332"}
	codex := &mcp.Implementation{Name: "codex-mcp-client", Version: "0.171.0"}
	other := &mcp.Implementation{Name: "some-client", Version: "1"}
	tests := []struct {
		name   string
		client *mcp.Implementation
		opts   *mcp.ClientOptions
		args   map[string]any // extra select_surface arguments
		want   string
	}{
		{"Claude Code CLI", claude, nil, nil, "ask"},
		{"Codex CLI", codex, nil, nil, "codex"},
		{"an unknown client without MCP Apps", other, nil, nil, "ask"},
		{"Claude Code with MCP Apps", claude, appsClient(), nil, "widget"},
		{"an unknown client with MCP Apps", other, appsClient(), nil, "widget"},
		{"the agent says its host shows widgets", claude, nil, map[string]any{"widget_capable": true}, "widget"},
		{"the agent says its host does not", other, appsClient(), map[string]any{"widget_capable": false}, "ask"},
	}
	toolFor := map[string]string{"ask": "elicitation_render_form,", "codex": "elicitation_render_form with surface codex", "widget": "elicitation_render_widget,"}
	contract := map[string]any{"template": "session-contract", "slots": map[string]any{"project": "x"}}
	for _, v := range protocols {
		for _, tt := range tests {
			t.Run(v+"/"+tt.name, func(t *testing.T) {
				l := responselog.Open(t.TempDir())
				cs := dial(t, New(&Options{Version: "test", Project: t.TempDir(), ResponseLogDir: l.Dir(), Warn: l.Warn}), v, tt.opts, tt.client)
				args := map[string]any{"form": readForm(t, "scope")}
				for k, a := range tt.args {
					args[k] = a
				}
				got, _ := call(t, cs, "elicitation_select_surface", args)
				if got["surface"] != tt.want || !strings.HasPrefix(got["how"].(string), toolFor[tt.want]) {
					t.Errorf("select_surface = %v, want %s through %s", got, tt.want, toolFor[tt.want])
				}
				if tt.args != nil {
					return
				}
				// render_form renders the client's question tool (its
				// payloads' surface is "surface") and says where the router
				// would rather ask.
				got, _ = call(t, cs, "elicitation_render_form", contract)
				routed := got["surface"]
				if s, ok := got["suggested_surface"]; ok {
					routed = s
				}
				if routed != tt.want || got["surface"] == got["suggested_surface"] {
					t.Errorf("render_form surface = %v, suggested %v (%v), want %s", got["surface"], got["suggested_surface"], got["surface_reason"], tt.want)
				}
				stats, _ := call(t, cs, "elicitation_stats", map[string]any{})
				if diff := cmp.Diff(map[string]any{tt.want: 2.0}, stats["routed"]); diff != "" {
					t.Errorf("routed (-want +got):\n%s", diff)
				}
			})
		}
	}
}
