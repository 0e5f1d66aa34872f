package plugins

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLauncher runs the plugins' launcher with sh: it starts the elicit it
// finds, never itself, and otherwise says how to install elicit.
func TestLauncher(t *testing.T) {
	launcher, _ := filepath.Abs(filepath.Join("elicit", "bin", "elicit-launch"))
	fake := func(dir, says string) {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "elicit"), []byte("#!/bin/sh\necho "+says+" \"$@\"\n"), 0o755)
	}
	home := t.TempDir()
	onPath, gobin, binDir := filepath.Join(home, "path"), filepath.Join(home, "gobin"), filepath.Dir(launcher)
	fake(onPath, "from-path")
	fake(gobin, "from-gobin")
	sysPath := "/usr/bin:/bin"
	tests := []struct {
		name string
		env  []string
		want string
		code int
	}{
		{"ELICIT_BIN first", []string{"ELICIT_BIN=" + filepath.Join(gobin, "elicit"), "PATH=" + onPath + ":" + sysPath}, "from-gobin serve --tools forms\n", 0},
		{"PATH, skipping the launcher's own folder", []string{"PATH=" + binDir + ":" + onPath + ":" + sysPath}, "from-path serve --tools forms\n", 0},
		{"GOBIN", []string{"GOBIN=" + gobin, "PATH=" + binDir + ":" + sysPath}, "from-gobin serve --tools forms\n", 0},
		{"nothing: how to install", []string{"PATH=" + binDir + ":" + sysPath}, "npm install -g elicit@0.1.0", 127},
	}
	for _, tt := range tests {
		out, code := launch(t, launcher, append([]string{"HOME=" + t.TempDir(), "ELICIT_NO_NPX=1"}, tt.env...))
		if code != tt.code || !strings.Contains(out, tt.want) {
			t.Errorf("%s: exit %d, output %q; want %d, %q", tt.name, code, out, tt.code, tt.want)
		}
	}
}

// launch runs the launcher with env and the arguments serve --tools forms.
func launch(t *testing.T, launcher string, env []string) (string, int) {
	t.Helper()
	cmd := exec.Command("sh", launcher, "serve", "--tools", "forms")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	code := 0
	if e, ok := err.(*exec.ExitError); ok {
		code = e.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// TestLauncherNpxCannotFetch: when npx cannot fetch the package (offline, a
// proxy), the launcher says so with npm's error code and how to install
// elicit, and exits 127, instead of leaving npm's log path as the host's
// only clue; when it can, the launcher runs the package with its
// arguments.
func TestLauncherNpxCannotFetch(t *testing.T) {
	launcher, _ := filepath.Abs(filepath.Join("elicit", "bin", "elicit-launch"))
	script := func(path, body string) {
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755)
	}
	home := t.TempDir()
	offline, online := filepath.Join(home, "offline", "npx"), filepath.Join(home, "online", "npx")
	npm := filepath.Join(home, "npm", "npm") // a global prefix without elicit
	script(offline, "echo 'npm error code ENOTFOUND' >&2\necho 'npm error A complete log of this run can be found in: /tmp/npm-debug-0.log' >&2\nexit 1\n")
	script(online, "case \"$*\" in *--version*) echo 0.1.0; exit 0;; esac\necho from-npx \"$@\"\n")
	script(npm, "echo "+home+"\n")
	sysPath := "/usr/bin:/bin"
	env := func(npx string) []string {
		return []string{"HOME=" + t.TempDir(), "PATH=" + filepath.Dir(npx) + ":" + filepath.Dir(npm) + ":" + sysPath}
	}

	out, code := launch(t, launcher, env(offline))
	for _, want := range []string{
		"elicit-launch: npx could not fetch the npm package elicit@0.1.0 (code ENOTFOUND): offline, behind a proxy, or a registry without it?",
		"npm install -g elicit@0.1.0", "go install github.com/elicit/elicit/cmd/elicit@v0.1.0", "Or set ELICIT_BIN",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("offline: output %q lacks %q", out, want)
		}
	}
	if code != 127 || strings.Contains(out, "complete log") {
		t.Errorf("offline: exit %d, output %q; want 127 and no npm log path", code, out)
	}

	out, code = launch(t, launcher, env(online))
	if want := "from-npx --yes --prefer-offline elicit@0.1.0 serve --tools forms\n"; code != 0 || out != want {
		t.Errorf("online: exit %d, output %q; want 0, %q", code, out, want)
	}
}
