package hosts

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// npmPlatform is npm's name of this platform (elicit-<os>-<cpu>).
func npmPlatform() string {
	cpu := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	os := map[string]string{"windows": "win32"}[runtime.GOOS]
	if os == "" {
		os = runtime.GOOS
	}
	return os + "-" + cpu
}

// TestE2ENpmPackageInstallsOfflineAndServesMCP packs the npm packages (the
// main one and this platform's) with npm/pack.mjs from a release-style
// build folder, installs them with npm from the tarballs alone (offline,
// empty cache: the other platforms' optional packages are skipped), and
// talks MCP to `npx elicit serve` as a host's .mcp.json would start it.
func TestE2ENpmPackageInstallsOfflineAndServesMCP(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	bin := elicitBin(t)
	root, tmp := repoRoot(t), t.TempDir()
	build := filepath.Join(tmp, "dist", "elicit_"+runtime.GOOS+"_"+runtime.GOARCH+"_v1")
	os.MkdirAll(build, 0o755)
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(build, "elicit"), data, 0o755)
	// Without ELICIT_BIN (make e2e sets it): the launcher must run the
	// platform package's binary, not the one the suite was given. A home of
	// its own: the installed elicit serve opens a response log there, never
	// in the real ~/.elicit.
	npmEnv := append(withoutELICITBIN(os.Environ()), "npm_config_cache="+filepath.Join(tmp, "cache"), "npm_config_offline=true",
		"npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false",
		"ELICIT_HOME="+filepath.Join(tmp, "elicit-home"))
	out := run(t, root, npmEnv, "node", "npm/pack.mjs", "--dist", filepath.Join(tmp, "dist"), "--out", filepath.Join(tmp, "out"), "--only", npmPlatform())
	tarballs := strings.Fields(out)
	if len(tarballs) != 2 || !strings.HasSuffix(tarballs[0], "elicit-"+npmPlatform()+"-0.1.0.tgz") || !strings.HasSuffix(tarballs[1], "/elicit-0.1.0.tgz") {
		t.Fatalf("packed %q", out)
	}

	proj := filepath.Join(tmp, "proj")
	os.MkdirAll(proj, 0o755)
	os.WriteFile(filepath.Join(proj, "package.json"), []byte(`{"name":"p","version":"1.0.0","private":true}`), 0o644)
	run(t, proj, npmEnv, "npm", append([]string{"install", "--offline"}, tarballs...)...)
	if v := run(t, proj, npmEnv, "npx", "--offline", "elicit", "version", "--json"); !strings.Contains(v, `"version":`) {
		t.Errorf("npx elicit version: %s", v)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.Command("npx", "--offline", "elicit", "serve")
	cmd.Dir, cmd.Env = proj, npmEnv
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "npx-test", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	names, _ := mcpserver.ToolNames()
	if want := len(names); err != nil || len(tools.Tools) != want {
		t.Fatalf("tools/list through npx: %v, %d tools, want %d", err, len(tools.Tools), want)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "elicitation_list_templates", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("tools/call: %v %+v", err, res)
	}
	raw := res.Content[0].(*mcp.TextContent).Text
	if res.StructuredContent != nil || !strings.Contains(raw, `"name":"session-contract"`) {
		t.Errorf("list_templates through npx: %s", raw)
	}

	// Without this platform's package the launcher says how to get a binary.
	os.RemoveAll(filepath.Join(proj, "node_modules", "elicit-"+npmPlatform()))
	miss := exec.Command("node", filepath.Join(proj, "node_modules", "elicit", "bin", "elicit.js"), "version")
	miss.Env = withoutELICITBIN(os.Environ())
	msg, err := miss.CombinedOutput()
	if e, ok := err.(*exec.ExitError); !ok || e.ExitCode() != 127 || !strings.Contains(string(msg), "elicit-"+npmPlatform()+" with the binary for this platform is not installed") {
		t.Errorf("missing platform package: %v\n%s", err, msg)
	}
}

// withoutELICITBIN is env without ELICIT_BIN, which the npm launcher
// would run instead of the platform package's binary.
func withoutELICITBIN(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "ELICIT_BIN=") {
			out = append(out, kv)
		}
	}
	return out
}

// run runs a command in dir and returns its standard output, failing the
// test on an error.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	begin := time.Now()
	defer func() { t.Logf("%s %s: %s", name, args[0], time.Since(begin).Round(time.Millisecond)) }()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}
