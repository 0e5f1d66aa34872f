package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeBenchGoFailsWithGoTest runs `make bench-go` with a go command
// whose `go test` prints a benchmark and then fails (as a build error or a
// crashed benchmark binary does, on standard error): the target must fail
// and show why, not print a table and exit 0.
func TestMakeBenchGoFailsWithGoTest(t *testing.T) {
	for _, tool := range []string{"make", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	fake := filepath.Join(t.TempDir(), "go")
	script := "#!/bin/sh\nif [ \"$1\" = test ]; then\n" +
		"  echo 'pkg: example.com/x'\n  echo 'BenchmarkX-2   1000   123 ns/op'\n" +
		"  echo 'go: the benchmark binary broke' >&2\n  exit 1\nfi\nexec " + realGo + " \"$@\"\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", "--no-print-directory", "-C", "../..", "bench-go", "GO="+fake)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("make bench-go succeeded though go test failed:\n%s", out)
	}
	if !strings.Contains(string(out), "the benchmark binary broke") {
		t.Errorf("the failure's reason is hidden:\n%s", out)
	}
}
