package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listTools lists the tools s serves, as a client (with copts) sees them.
func listTools(t *testing.T, s *mcp.Server, copts ...*mcp.ClientOptions) []*mcp.Tool {
	t.Helper()
	var opts *mcp.ClientOptions
	if len(copts) > 0 {
		opts = copts[0]
	}
	cs := dial(t, s, protocols[0], opts)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.NextCursor != "" {
		t.Fatal("tools/list is paginated; measure every page")
	}
	return res.Tools
}

// toolsBudget is the most bytes the whole tools/list result may take: it is
// sent to the model in every conversation. It holds elicitation_render_form's
// form schema (form.ToolSchema, about 2.9 KB) and deliberation_evaluate's
// evaluation schema (about 3 KB), so that tools/list alone says how to
// write a form and an evaluation. It was 14,000 until every client got the
// same list (protocol 2026-07-28): a host without MCP Apps now gets the
// app-only tool and the form tools' _meta.ui too, about 360 bytes.
const toolsBudget = 14_500

// TestToolsListFitsBudget holds the plain list to the budget;
// TestAppsToolsListFitsBudget holds what an MCP Apps host gives its model.
func TestToolsListFitsBudget(t *testing.T) {
	tools := listTools(t, New(nil))
	if msg := checkBudget(tools, toolsBudget); msg != "" {
		t.Error(msg)
	}
	raw, _ := json.Marshal(&mcp.ListToolsResult{Tools: tools})
	t.Logf("tools/list %d bytes for %d tools (budget %d)", len(raw), len(tools), toolsBudget)
}

// checkBudget says how far over budget the tools are and which are
// largest, or "" when they fit.
func checkBudget(tools []*mcp.Tool, budget int) string {
	raw, _ := json.Marshal(&mcp.ListToolsResult{Tools: tools})
	if len(raw) <= budget {
		return ""
	}
	type sized struct {
		name string
		n    int
	}
	var sizes []sized
	for _, tool := range tools {
		b, _ := json.Marshal(tool)
		sizes = append(sizes, sized{tool.Name, len(b)})
	}
	sort.Slice(sizes, func(i, j int) bool { return sizes[i].n > sizes[j].n })
	var top []string
	for _, s := range sizes[:min(5, len(sizes))] {
		top = append(top, fmt.Sprintf("%s %d", s.name, s.n))
	}
	return fmt.Sprintf("tools/list is %d bytes, %d over the budget of %d: shorten descriptions (long guidance belongs in resources, prompts and skills); largest tools (bytes): %s",
		len(raw), len(raw)-budget, budget, strings.Join(top, ", "))
}

func TestCheckBudgetNamesTheExcess(t *testing.T) {
	tools := listTools(t, New(nil))
	raw, _ := json.Marshal(&mcp.ListToolsResult{Tools: tools})
	msg := checkBudget(tools, len(raw)-7)
	if !strings.Contains(msg, "7 over the budget") || !strings.Contains(msg, "largest tools (bytes): ") {
		t.Errorf("message %q", msg)
	}
	if checkBudget(tools, len(raw)) != "" {
		t.Error("a list exactly at the budget fits")
	}
}

// TestAnnotations holds every tool to annotations codex exec can act on:
// every hint set, and every tool callable without approval except those
// that run a consultant (open-world by truth).
func TestAnnotations(t *testing.T) {
	openWorld := []string{"deliberation_send", "elicitation_cross_model"}
	for _, tool := range listTools(t, New(nil)) {
		a := tool.Annotations
		if a == nil || a.OpenWorldHint == nil || (!a.ReadOnlyHint && a.DestructiveHint == nil) {
			t.Errorf("%s: annotations %+v must set readOnlyHint, openWorldHint and (unless read-only) destructiveHint", tool.Name, a)
			continue
		}
		callable := a.ReadOnlyHint || (!*a.DestructiveHint && !*a.OpenWorldHint)
		if want := !slices.Contains(openWorld, tool.Name); callable != want || *a.OpenWorldHint == want {
			t.Errorf("%s: callable by codex exec %v, open world %v; want %v, %v", tool.Name, callable, *a.OpenWorldHint, want, !want)
		}
		if a.ReadOnlyHint && strings.HasPrefix(tool.Name, "deliberation_") && !slices.Contains([]string{"deliberation_status", "deliberation_list", "deliberation_wait"}, tool.Name) {
			t.Errorf("%s writes the deliberation's files: not read-only", tool.Name)
		}
	}
}

func TestResolveTools(t *testing.T) {
	tests := []struct {
		list string
		want []string
		err  string
	}{
		{"", nil, "no tool named"},
		{"methods", []string{"elicitation_list_methods", "elicitation_select_methods", "elicitation_inject_method", "elicitation_cross_model"}, ""},
		{"elicitation_ask, methods,elicitation_ask", []string{"elicitation_ask", "elicitation_list_methods", "elicitation_select_methods", "elicitation_inject_method", "elicitation_cross_model"}, ""},
		{"forms,bogus,Methods", nil, `unknown tool or group "bogus", "Methods" (groups: forms, methods, deliberation; tools: elicitation_render_form, `},
	}
	for _, tt := range tests {
		got, err := ResolveTools(tt.list)
		if (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) || !slices.Equal(got, tt.want) {
			t.Errorf("ResolveTools(%q) = %v, %v; want %v, %q", tt.list, got, err, tt.want, tt.err)
		}
	}
	all, err := ResolveTools("forms,methods,deliberation")
	names, _ := ToolNames()
	if err != nil || !slices.Equal(all, names) {
		t.Errorf("every group = %v, %v; want every tool %v", all, err, names)
	}
}

func TestServeSubset(t *testing.T) {
	names, err := ResolveTools("deliberation,elicitation_render_form")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tool := range listTools(t, New(&Options{Tools: names})) {
		got = append(got, tool.Name)
	}
	if !slices.Equal(got, []string{"deliberation_cancel", "deliberation_evaluate", "deliberation_list", "deliberation_recover", "deliberation_respond",
		"deliberation_send", "deliberation_start", "deliberation_status", "deliberation_synthesize", "deliberation_wait", "elicitation_render_form"}) {
		t.Errorf("served %v", got)
	}
}
