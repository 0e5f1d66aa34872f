package native

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSkipsForms(t *testing.T) {
	tests := []struct {
		client, version string
		skips           bool
	}{
		{"claude-code", "2.1.332", true},
		{"claude-code", "2.1.9", true},
		{"claude-code", "v2.0.0-beta", true},
		{"claude-code", "", true},
		{"claude-code", "2.1.333", false},
		{"claude-code", "3.0", false},
		{"codex-mcp-client", "0.171.0", true},
		{"codex-mcp-client", "0.172.0", false},
		{"mcp-inspector", "0.1.0", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := SkipsForms(tt.client, tt.version) != nil; got != tt.skips {
			t.Errorf("SkipsForms(%q, %q) = %t, want %t", tt.client, tt.version, got, tt.skips)
		}
	}
	if FallbackFor("codex-mcp-client") != "codex" || FallbackFor("anything") != "ask" {
		t.Error("FallbackFor")
	}
}

// TestDocsHostTable keeps docs/mcp.md's table of what each known host
// gets from elicitation_ask in step with Hosts.
func TestDocsHostTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "mcp.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hosts {
		row := "| " + h.Name + " (`" + h.Client + "` ≤ " + h.Measured + ") |"
		if !strings.Contains(string(data), row) {
			t.Errorf("docs/mcp.md has no host table row starting %q", row)
		}
	}
}
