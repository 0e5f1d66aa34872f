package mcpserver

import (
	"context"

	"github.com/elicit/elicit/config"
	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/method"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configures the server. A nil *Options means defaults.
type Options struct {
	// Version is reported as the server's version; default "dev".
	Version string
	// Templates is the form template library; default the embedded one.
	Templates *form.Templates
	// Registry returns the method registry; default method.Default.
	Registry func() *method.Registry
	// Project is the directory holding elicit.config.json; default ".".
	Project string
	// Getenv reads the environment (keyboard-mode overrides, ELICIT_HOME);
	// default none.
	Getenv func(string) string
	// DeliberationDir holds the deliberation state files; default
	// $ELICIT_HOME/deliberations (or ~/.elicit/deliberations).
	DeliberationDir string
	// Tools names the tools to serve (see ResolveTools); default all.
	Tools []string
}

func (o *Options) withDefaults() *Options {
	out := Options{}
	if o != nil {
		out = *o
	}
	if out.Version == "" {
		out.Version = "dev"
	}
	if out.Templates == nil {
		out.Templates = &form.Templates{}
	}
	if out.Registry == nil {
		out.Registry = method.Default
	}
	if out.Project == "" {
		out.Project = "."
	}
	if out.Getenv == nil {
		out.Getenv = func(string) string { return "" }
	}
	return &out
}

// instructions tell an agent how to use the tools, the seed's rules first.
const instructions = `elicit asks, thinks and argues in structured ways.
Forms: batch 2-4 fields into one form only when they are independent dimensions of one decision, their answers do not branch on each other, and each is genuinely open; otherwise ask one question. Infer first: fill what the conversation already answered as a default with inferred_from, and still show it for confirmation.
Render with elicitation_render_form (AskUserQuestion payloads) or ask natively with elicitation_ask, then always validate answers with elicitation_collect_response and re-ask only the fields it flags.
Methods: elicitation_select_methods picks structured-reasoning methods for a plan section; elicitation_inject_method gives the prompt block.`

// New returns an MCP server with every elicit tool registered.
func New(opts *Options) *mcp.Server {
	s := newSDKEncoded(opts)
	s.AddReceivingMiddleware(encodeOnce)
	return s
}

// newSDKEncoded is New without encodeOnce: tool results are encoded by the
// SDK's own MarshalJSON methods.
func newSDKEncoded(opts *Options) *mcp.Server {
	o := opts.withDefaults()
	s := mcp.NewServer(&mcp.Implementation{Name: "elicit", Title: "elicit", Version: o.Version},
		&mcp.ServerOptions{Instructions: instructions})
	h := &handlers{opts: o}
	for _, t := range h.tools(o.Tools) {
		s.AddTool(t.tool, t.handler)
	}
	return s
}

// handlers holds what the tool handlers share.
type handlers struct{ opts *Options }

// simple wraps a handler that decodes its arguments and returns a value or
// the argument problems.
func simple(allowed []string, run func(context.Context, *mcp.CallToolRequest, *args) any) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		a := parseArgs(req.Params.Arguments, allowed)
		if a.raw == nil {
			return failure(a.probs), nil
		}
		v := run(ctx, req, a)
		if len(a.probs) > 0 {
			return failure(a.probs), nil
		}
		return result(v, false), nil
	}
}

// keyboardMode resolves keyboard mode as the CLI does; problems count as off.
func (h *handlers) keyboardMode() bool {
	s, err := config.KeyboardModeFor(h.opts.Project, h.opts.Getenv)
	return err == nil && s.Value
}
