package hosts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCIRunOnAFreshMachine runs .ci/run against stand-ins for the
// machine's commands: what it installs with apt-get when commands are
// missing, and that it stops, naming what to install, when Node.js is
// older than 20 (Debian 12's nodejs is 18), before any test runs.
func TestCIRunOnAFreshMachine(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	script, err := os.ReadFile(filepath.Join(repoRoot(t), ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, nodeMajor string, present ...string) (log, stderr string, code int) {
		t.Helper()
		dir := t.TempDir()
		repo, bin := filepath.Join(dir, "repo"), filepath.Join(dir, "bin")
		os.MkdirAll(filepath.Join(repo, ".ci"), 0o755)
		os.MkdirAll(bin, 0o755)
		os.WriteFile(filepath.Join(repo, ".ci", "run"), script, 0o755)
		logFile := filepath.Join(dir, "log")
		stub := func(name, body string) {
			os.WriteFile(filepath.Join(bin, name), []byte("#!"+bash+"\n"+body+"\n"), 0o755)
		}
		// Each command logs how it was called; apt-get "installs" a
		// package by making its command.
		logs := `echo "$(basename "$0") $*" >> ` + logFile
		for _, name := range present {
			stub(name, logs)
		}
		stub("node", `case "$1" in -p) echo `+nodeMajor+`;; --version) echo v`+nodeMajor+`.0.0;; esac`)
		stub("id", `echo 0`)
		stub("apt-get", logs+`
[ "$1" = install ] || exit 0
for p in "$@"; do case "$p" in -*|install) ;; *) printf '#!%s\n%s\n' "`+bash+`" '`+logs+`' > "`+bin+`/$p"; chmod +x "`+bin+`/$p";; esac; done`)
		for _, tool := range []string{"dirname", "basename", "chmod"} {
			if p, err := exec.LookPath(tool); err == nil {
				os.Symlink(p, filepath.Join(bin, tool))
			}
		}
		cmd := exec.Command(bash, filepath.Join(repo, ".ci", "run"))
		cmd.Env = []string{"PATH=" + bin, "HOME=" + dir}
		var errb strings.Builder
		cmd.Stderr = &errb
		err := cmd.Run()
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(logFile)
		return string(data), errb.String(), code
	}
	everything := []string{"make", "gcc", "npm", "tmux", "chromium", "go"}

	t.Run("Node.js 18 stops it, naming what to install", func(t *testing.T) {
		log, stderr, code := run(t, "18", everything...)
		if code != 1 || !strings.Contains(stderr, "the tests need Node.js 20 or later, found v18.0.0") || !strings.Contains(stderr, "install Node.js 20+") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
		if strings.Contains(log, "make test") || strings.Contains(log, "go mod") {
			t.Errorf("the tests ran with Node.js 18:\n%s", log)
		}
	})
	t.Run("missing make and gcc are installed, then make test runs", func(t *testing.T) {
		log, stderr, code := run(t, "20", "npm", "tmux", "chromium", "go")
		if code != 0 || !strings.Contains(log, "apt-get install -y -qq make gcc\n") || !strings.HasSuffix(log, "go mod download\nmake test\n") {
			t.Errorf("exit %d, stderr %s, log:\n%s", code, stderr, log)
		}
	})
	t.Run("nothing missing: nothing installed", func(t *testing.T) {
		log, _, code := run(t, "22", everything...)
		if code != 0 || log != "go mod download\nmake test\n" {
			t.Errorf("exit %d, log:\n%s", code, log)
		}
	})
}
