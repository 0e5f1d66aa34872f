package mcpserver

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
)

// TestSurfaceHowNamesTools: over MCP, every surface the router or a render
// result can name says how to reach it with a tool the server has (and,
// for render_form, a surface it takes), never with a CLI command; only
// the terminal, which no tool asks on, is the CLI's.
func TestSurfaceHowNamesTools(t *testing.T) {
	toolName := regexp.MustCompile(`\b(elicitation|deliberation)_[a-z_]+\b`)
	names, _ := ToolNames()
	for _, s := range []form.Surface{form.SurfaceWidget, form.SurfaceAsk, form.SurfaceMarkdown, form.SurfaceCodex, form.SurfaceNative} {
		how := surfaceHow(s)
		tools := toolName.FindAllString(how, -1)
		if len(tools) == 0 || strings.Contains(how, "elicit ") || strings.Contains(how, "--") {
			t.Errorf("%s: how %q, want a tool and no command", s, how)
		}
		for _, tool := range tools {
			if !slices.Contains(names, tool) {
				t.Errorf("%s: how %q names %s, which the server does not have", s, how, tool)
			}
		}
		if strings.Contains(how, "elicitation_render_form") && s != form.SurfaceAsk && !strings.Contains(how, "with surface "+string(s)) {
			t.Errorf("%s: how %q does not pass render_form's surface", s, how)
		}
	}
	if how := surfaceHow(form.SurfaceTerminal); !strings.Contains(how, "elicit form ask") {
		t.Errorf("terminal: how %q", how)
	}
	if how := surfaceHow("carrier-pigeon"); how != "" {
		t.Errorf("an unknown surface has a way to reach it: %q", how)
	}
}

// TestSelectSurfaceRestNamesTools: a client without widgets asked a
// number, date and textarea is told, under rest, how to reach each surface
// that asks them in tools (the terminal alone in the CLI's words), and the
// reason names no tool and no command: the router's words are the domain's.
func TestSelectSurfaceRestNamesTools(t *testing.T) {
	cs := connect(t, protocols[0], nil)
	out, isErr := call(t, cs, "elicitation_select_surface", map[string]any{"form": readForm(t, "six"), "widget_capable": false})
	if isErr || out["surface"] != "ask" {
		t.Fatalf("select_surface = %v", out)
	}
	if r := out["reason"].(string); strings.Contains(r, "elicitation_") || strings.Contains(r, "elicit ") {
		t.Errorf("reason %q names a tool or a command", r)
	}
	rest, _ := out["rest"].([]any)
	if len(rest) != 3 {
		t.Fatalf("rest = %v, want native, terminal, markdown", out["rest"])
	}
	for _, r := range rest {
		r := r.(map[string]any)
		if want := surfaceHow(form.Surface(r["surface"].(string))); want == "" || r["how"] != want {
			t.Errorf("rest %v, want how %q", r, want)
		}
	}
}
