package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
)

// TestSurfaceHowNamesCommands: over the CLI, every surface the router or a
// render result can name says how to reach it with a command that exists
// (form render with one of its --surface values, form open, form ask),
// never with an MCP tool; only native elicitation, which the CLI has no
// dialog for, is the server's.
func TestSurfaceHowNamesCommands(t *testing.T) {
	for _, s := range []form.Surface{form.SurfaceWidget, form.SurfaceAsk, form.SurfaceMarkdown, form.SurfaceCodex} {
		how := surfaceHow(s)
		if !strings.Contains(how, "elicit form render FILE --surface "+string(s)) || !slices.Contains(renderSurfaces, string(s)) || strings.Contains(how, "elicitation_") {
			t.Errorf("%s: how %q, want its form render command and no tool", s, how)
		}
	}
	if how := surfaceHow(form.SurfaceWidget); !strings.Contains(how, "elicit form open FILE") {
		t.Errorf("widget: how %q does not name form open", how)
	}
	if how := surfaceHow(form.SurfaceTerminal); !strings.Contains(how, "elicit form ask FILE") {
		t.Errorf("terminal: how %q", how)
	}
	if how := surfaceHow(form.SurfaceNative); !strings.Contains(how, "elicitation_ask") || !strings.Contains(how, "elicit serve") {
		t.Errorf("native: how %q", how)
	}
	if how := surfaceHow("carrier-pigeon"); how != "" {
		t.Errorf("an unknown surface has a way to reach it: %q", how)
	}
}
