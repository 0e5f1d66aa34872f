package hosts

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readJSON decodes a file of the repository.
func readJSON(t *testing.T, rel string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
}

// TestReleaseFilesAgree holds every place that names elicit's release to
// one version and one identity: the plugins and their marketplaces, the
// launcher, the npm packages and the MCP registry's server.json (checked
// against the rules of its 2025-12-11 schema that apply here).
func TestReleaseFilesAgree(t *testing.T) {
	var npmMain struct {
		Name, Version, License string
		MCPName                string `json:"mcpName"`
		OptionalDependencies   map[string]string
	}
	readJSON(t, "npm/elicit/package.json", &npmMain)
	version := npmMain.Version
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(version) {
		t.Fatalf("npm version %q is not semantic", version)
	}
	var platforms []struct{ Package string }
	readJSON(t, "npm/platforms.json", &platforms)
	if len(platforms) != 6 || len(npmMain.OptionalDependencies) != len(platforms) {
		t.Errorf("%d platforms, %d optional dependencies, want 6 each", len(platforms), len(npmMain.OptionalDependencies))
	}
	for _, p := range platforms {
		if npmMain.OptionalDependencies[p.Package] != version {
			t.Errorf("optional dependency %s = %q, want %s", p.Package, npmMain.OptionalDependencies[p.Package], version)
		}
	}

	var claudePlugin, codexPlugin struct{ Name, Version, License string }
	readJSON(t, "plugins/elicit/.claude-plugin/plugin.json", &claudePlugin)
	readJSON(t, "plugins/elicit/.codex-plugin/plugin.json", &codexPlugin)
	var claudeMarket struct {
		Plugins []struct{ Name, Source, Version string }
	}
	readJSON(t, ".claude-plugin/marketplace.json", &claudeMarket)
	var codexMarket struct {
		Plugins []struct {
			Name   string
			Source struct{ Source, Path string }
		}
	}
	readJSON(t, ".agents/plugins/marketplace.json", &codexMarket)
	for name, got := range map[string]string{"claude plugin": claudePlugin.Version, "codex plugin": codexPlugin.Version, "claude marketplace": claudeMarket.Plugins[0].Version} {
		if got != version {
			t.Errorf("%s version %q, want %s", name, got, version)
		}
	}
	if claudeMarket.Plugins[0].Source != "./plugins/elicit" || codexMarket.Plugins[0].Source.Path != "./plugins/elicit" || codexMarket.Plugins[0].Source.Source != "local" {
		t.Errorf("the marketplaces must point at ./plugins/elicit: %+v %+v", claudeMarket.Plugins, codexMarket.Plugins)
	}
	launcher, _ := os.ReadFile(filepath.Join(repoRoot(t), "plugins", "elicit", "bin", "elicit-launch"))
	if !strings.Contains(string(launcher), "\nversion="+version+"\n") {
		t.Errorf("plugins/elicit/bin/elicit-launch does not pin version=%s", version)
	}

	var server struct {
		Schema      string `json:"$schema"`
		Name        string
		Description string
		Version     string
		Packages    []struct {
			RegistryType, Identifier, Version string
			Transport                         struct{ Type string }
			PackageArguments                  []struct{ Type, Value string }
		}
	}
	readJSON(t, "server.json", &server)
	if server.Schema != "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json" {
		t.Errorf("server.json $schema %q", server.Schema)
	}
	if !regexp.MustCompile(`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`).MatchString(server.Name) || server.Name != npmMain.MCPName {
		t.Errorf("server.json name %q must be reverse-DNS/name and equal npm's mcpName %q", server.Name, npmMain.MCPName)
	}
	if n := len(server.Description); n < 1 || n > 100 {
		t.Errorf("server.json description is %d characters (1-100)", n)
	}
	if len(server.Packages) != 1 {
		t.Fatalf("server.json packages: %+v", server.Packages)
	}
	p := server.Packages[0]
	if server.Version != version || p.Version != version || p.RegistryType != "npm" || p.Identifier != npmMain.Name || p.Transport.Type != "stdio" ||
		len(p.PackageArguments) != 1 || p.PackageArguments[0] != (struct{ Type, Value string }{"positional", "serve"}) {
		t.Errorf("server.json %+v does not describe `npx %s@%s serve`", server, npmMain.Name, version)
	}
	for name, got := range map[string]string{"npm": npmMain.License, "claude plugin": claudePlugin.License, "codex plugin": codexPlugin.License} {
		if got != "Apache-2.0" {
			t.Errorf("%s license %q", name, got)
		}
	}
}

// TestReleaseLdflagsStampTheVersion builds elicit with the -X flags of
// .goreleaser.yaml (templates filled in) and checks `elicit version`
// reports them: the variable paths in the release config are right.
func TestReleaseLdflagsStampTheVersion(t *testing.T) {
	cfg, err := os.ReadFile(filepath.Join(repoRoot(t), ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fill := strings.NewReplacer("{{ .Version }}", "9.8.7", "{{ .FullCommit }}", "0123456789abcdef", "{{ .CommitDate }}", "2026-11-30T12:00:00Z")
	var ldflags []string
	for _, line := range strings.Split(string(cfg), "\n") {
		if flag, ok := strings.CutPrefix(strings.TrimSpace(line), "- -X "); ok {
			ldflags = append(ldflags, "-X", fill.Replace(flag))
		}
	}
	if len(ldflags) != 6 {
		t.Fatalf(".goreleaser.yaml has %d -X flags, want 3", len(ldflags)/2)
	}
	bin := filepath.Join(t.TempDir(), "elicit")
	build := exec.Command("go", "build", "-ldflags", strings.Join(ldflags, " "), "-o", bin, "github.com/elicit/elicit/cmd/elicit")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Version, Commit, Date string }
	if json.Unmarshal(out, &v) != nil || v.Version != "9.8.7" || v.Commit != "0123456789abcdef" || v.Date != "2026-11-30T12:00:00Z" {
		t.Errorf("elicit version --json = %s", out)
	}
	if out, _ := exec.Command(bin, "--version").Output(); !strings.HasPrefix(string(out), "elicit 9.8.7 (commit 0123456789ab, built 2026-11-30T12:00:00Z, go1.") {
		t.Errorf("--version = %q", out)
	}
}
