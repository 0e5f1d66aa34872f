package mcpserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Group is a named set of tools `elicit serve --tools` can select.
type Group string

// The tool groups, one per part of elicit.
const (
	Forms        Group = "forms"
	Methods      Group = "methods"
	Deliberation Group = "deliberation"
)

// Groups are the tool groups, in the order --tools names them.
var Groups = []Group{Forms, Methods, Deliberation}

// toolList is every tool elicit serves, each with its group (tools/list
// sorts them by name). Adding a tool means one line here and its definition
// (a method returning a toolDef) in the file of its part; tools_test.go
// holds the whole list to its byte budget and every tool to truthful
// annotations.
var toolList = []struct {
	group Group
	def   func(*handlers) toolDef
}{
	{Forms, (*handlers).renderFormTool},
	{Forms, (*handlers).collectResponseTool},
	{Forms, (*handlers).askTool},
	{Forms, (*handlers).selectSurfaceTool},
	{Forms, (*handlers).listTemplatesTool},
	{Forms, (*handlers).formSummaryTool},
	{Forms, (*handlers).renderWidgetTool},
	{Forms, (*handlers).widgetValidateTool},
	{Forms, (*handlers).statsTool},
	{Forms, (*handlers).recallTool},

	{Methods, (*handlers).listMethodsTool},
	{Methods, (*handlers).selectMethodsTool},
	{Methods, (*handlers).injectMethodTool},
	{Methods, (*handlers).crossModelTool},

	{Deliberation, (*handlers).delibStartTool},
	{Deliberation, (*handlers).delibSendTool},
	{Deliberation, (*handlers).delibWaitTool},
	{Deliberation, (*handlers).delibCancelTool},
	{Deliberation, (*handlers).delibRespondTool},
	{Deliberation, (*handlers).delibEvaluateTool},
	{Deliberation, (*handlers).delibStatusTool},
	{Deliberation, (*handlers).delibListTool},
	{Deliberation, (*handlers).delibSynthesizeTool},
	{Deliberation, (*handlers).delibRecoverTool},
}

// toolDef is one tool and its handler.
type toolDef struct {
	tool    *mcp.Tool
	handler mcp.ToolHandler
}

// tools returns the tools to serve: all of them when names is empty, else
// those named (resolved names from ResolveTools).
func (h *handlers) tools(names []string) []toolDef {
	var out []toolDef
	for _, t := range toolList {
		d := t.def(h)
		if len(names) == 0 || slices.Contains(names, d.tool.Name) {
			out = append(out, d)
		}
	}
	return out
}

// ToolNames returns the name and group of every tool, in toolList order.
func ToolNames() (names []string, groups []Group) {
	h := &handlers{opts: (&Options{}).withDefaults()}
	for _, t := range toolList {
		names = append(names, t.def(h).tool.Name)
		groups = append(groups, t.group)
	}
	return names, groups
}

// ResolveTools turns a --tools list (group names and tool names, separated
// by commas) into tool names. Unknown names are an error naming the valid
// ones; an empty list means every tool (nil).
func ResolveTools(list string) ([]string, error) {
	names, groups := ToolNames()
	var out, unknown []string
	add := func(n string) {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if i := slices.Index(names, item); i >= 0 {
			add(names[i])
			continue
		}
		found := false
		for i, g := range groups {
			if string(g) == item {
				add(names[i])
				found = true
			}
		}
		if !found {
			unknown = append(unknown, fmt.Sprintf("%q", item))
		}
	}
	if len(unknown) > 0 {
		gs := make([]string, len(Groups))
		for i, g := range Groups {
			gs[i] = string(g)
		}
		return nil, fmt.Errorf("--tools: unknown tool or group %s (groups: %s; tools: %s)",
			strings.Join(unknown, ", "), strings.Join(gs, ", "), strings.Join(names, ", "))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--tools: no tool named (groups: forms, methods, deliberation, or tool names)")
	}
	return out, nil
}

// groupsOf reports which groups have at least one of the served tools.
func groupsOf(names []string) map[Group]bool {
	all, groups := ToolNames()
	out := map[Group]bool{}
	for i, n := range all {
		if len(names) == 0 || slices.Contains(names, n) {
			out[groups[i]] = true
		}
	}
	return out
}

// The annotations of the tools: every tool says whether it changes anything,
// and whether it reaches outside elicit (a consultant is open-world). codex
// exec calls a tool only when it is read-only, or neither destructive nor
// open-world.
var (
	// readOnly: computes an answer from its arguments and elicit's files.
	readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: no}
	// asksUser: shows the user a dialog through the client; changes nothing.
	asksUser = &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: no}
	// records: adds to elicit's own state files (a deliberation), removing
	// nothing.
	records = &mcp.ToolAnnotations{DestructiveHint: no, OpenWorldHint: no}
	// consults: runs a consultant (a model behind a CLI) and records its
	// answer.
	consults = &mcp.ToolAnnotations{DestructiveHint: no, OpenWorldHint: yes}
)

// no and yes are the annotations' optional booleans: addresses of
// variables, so that the annotations above are data the compiler lays out,
// not built at package initialisation (new(false) would be).
var (
	no, yes    = &falseValue, &trueValue
	falseValue = false
	trueValue  = true
)
