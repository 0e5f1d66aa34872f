// Package hosts holds the end-to-end tests of elicit in real hosts: the
// codex CLI (installed in e2e/node) and Claude Code (installed here by npm
// ci) against stub model servers, and the npm package installed offline
// from its tarballs.
package hosts

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// elicitBin returns the elicit binary under test: $ELICIT_BIN, else one
// built once for the test run.
func elicitBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("ELICIT_BIN"); p != "" {
		return p
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "elicit-hosts-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "elicit")
		build := exec.Command("go", "build", "-trimpath", "-o", builtBin, "github.com/elicit/elicit/cmd/elicit")
		build.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as every build of the project
		out, err := build.CombinedOutput()
		if err != nil {
			buildErr = &buildError{err, string(out)}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + "\n" + e.out }
