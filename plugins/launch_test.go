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
		cmd := exec.Command("sh", launcher, "serve", "--tools", "forms")
		cmd.Env = append([]string{"HOME=" + t.TempDir(), "ELICIT_NO_NPX=1"}, tt.env...)
		out, err := cmd.CombinedOutput()
		code := 0
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		}
		if code != tt.code || !strings.Contains(string(out), tt.want) {
			t.Errorf("%s: exit %d, output %q; want %d, %q", tt.name, code, out, tt.code, tt.want)
		}
	}
}
