package hosts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// freshMachine is a copy of the repository's set-up scripts (.ci/run and
// scripts/test-deps) beside stand-ins for the machine's commands: each logs
// how it was called, and apt-get "installs" a package by making its
// command.
type freshMachine struct {
	t               *testing.T
	bash, repo, bin string
	logFile         string
}

func newFreshMachine(t *testing.T, nodeMajor string, present ...string) *freshMachine {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	m := &freshMachine{t: t, bash: bash, repo: filepath.Join(dir, "repo"), bin: filepath.Join(dir, "bin"), logFile: filepath.Join(dir, "log")}
	for _, f := range []string{".ci/run", "scripts/test-deps"} {
		data, err := os.ReadFile(filepath.Join(repoRoot(t), f))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(m.repo, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(m.repo, f), data, 0o755)
	}
	os.MkdirAll(m.bin, 0o755)
	logs := `echo "$(basename "$0") $*" >> ` + m.logFile
	for _, name := range present {
		m.stub(name, logs)
	}
	m.stub("node", `case "$1" in -p) echo `+nodeMajor+`;; --version) echo v`+nodeMajor+`.0.0;; esac`)
	m.stub("id", `echo 0`)
	m.stub("apt-get", logs+`
[ "$1" = install ] || exit 0
for p in "$@"; do case "$p" in -*|install) ;; *) printf '#!%s\n%s\n' "`+bash+`" '`+logs+`' > "`+m.bin+`/$p"; chmod +x "`+m.bin+`/$p";; esac; done`)
	for _, tool := range []string{"dirname", "basename", "chmod", "env"} {
		if p, err := exec.LookPath(tool); err == nil {
			os.Symlink(p, filepath.Join(m.bin, tool))
		}
	}
	return m
}

func (m *freshMachine) stub(name, body string) {
	os.WriteFile(filepath.Join(m.bin, name), []byte("#!"+m.bash+"\n"+body+"\n"), 0o755)
}

// run runs a script of the copy with only the stand-ins on PATH and
// returns the commands' log, the script's stderr and its exit code.
func (m *freshMachine) run(script string) (log, stderr string, code int) {
	m.t.Helper()
	cmd := exec.Command(m.bash, filepath.Join(m.repo, script))
	cmd.Dir = m.repo
	cmd.Env = []string{"PATH=" + m.bin, "HOME=" + filepath.Dir(m.repo)}
	var errb strings.Builder
	cmd.Stderr = &errb
	err := cmd.Run()
	if e, ok := err.(*exec.ExitError); ok {
		code = e.ExitCode()
	} else if err != nil {
		m.t.Fatal(err)
	}
	data, _ := os.ReadFile(m.logFile)
	return string(data), errb.String(), code
}

var everything = []string{"make", "gcc", "npm", "tmux", "chromium", "go"}

// TestTestDepsOnAFreshMachine runs scripts/test-deps, which `make test`
// runs first: it installs the commands the tests need that are missing,
// with apt-get, and stops, naming what to install, when Node.js is older
// than 20 (Debian 12's nodejs is 18).
func TestTestDepsOnAFreshMachine(t *testing.T) {
	t.Run("Node.js 18 stops it, naming what to install", func(t *testing.T) {
		_, stderr, code := newFreshMachine(t, "18", everything...).run("scripts/test-deps")
		if code != 1 || !strings.Contains(stderr, "the tests need Node.js 20 or later, found v18.0.0") || !strings.Contains(stderr, "install Node.js 20+") {
			t.Errorf("exit %d, stderr:\n%s", code, stderr)
		}
	})
	t.Run("missing make and gcc are installed", func(t *testing.T) {
		log, stderr, code := newFreshMachine(t, "20", "npm", "tmux", "chromium", "go").run("scripts/test-deps")
		if code != 0 || !strings.Contains(log, "apt-get install -y -qq make gcc\n") {
			t.Errorf("exit %d, stderr %s, log:\n%s", code, stderr, log)
		}
	})
	t.Run("nothing missing: nothing installed", func(t *testing.T) {
		log, _, code := newFreshMachine(t, "22", everything...).run("scripts/test-deps")
		if code != 0 || log != "" {
			t.Errorf("exit %d, log:\n%s", code, log)
		}
	})
}

// TestCIRunOnAFreshMachine runs .ci/run: it runs the README's test
// command, make test, after the modules are downloaded; on a machine
// without make it gets make from scripts/test-deps first.
func TestCIRunOnAFreshMachine(t *testing.T) {
	t.Run("it runs make test", func(t *testing.T) {
		log, stderr, code := newFreshMachine(t, "22", everything...).run(".ci/run")
		if code != 0 || log != "go mod download\nmake test\n" {
			t.Errorf("exit %d, stderr %s, log:\n%s", code, stderr, log)
		}
	})
	t.Run("missing make is installed, then make test runs", func(t *testing.T) {
		log, stderr, code := newFreshMachine(t, "20", "gcc", "npm", "tmux", "chromium", "go").run(".ci/run")
		if code != 0 || !strings.HasSuffix(log, "apt-get install -y -qq make\nmake test\n") {
			t.Errorf("exit %d, stderr %s, log:\n%s", code, stderr, log)
		}
	})
}
