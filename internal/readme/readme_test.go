// Package readme checks the project's README.md and docs/*.md against the
// code: their Go examples compile, and their samples match what the code
// does.
package readme

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

// pages returns README.md and every docs/*.md, by their path from the
// repository's root.
func pages(t *testing.T) map[string][]byte {
	t.Helper()
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, p := range append([]string{"../../README.md"}, docs...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.ToSlash(p[len("../../"):])] = data
	}
	return out
}

// TestDocsGoCompiles vets every ```go block of README.md and docs/*.md as
// a file of its own package: each block must be a complete file starting
// with a package clause.
func TestDocsGoCompiles(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go tool")
	}
	n := 0
	for page, data := range pages(t) {
		for i, b := range goBlock.FindAllSubmatch(data, -1) {
			n++
			dir, err := os.MkdirTemp(".", "readme-block-")
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(dir)
			if err := os.WriteFile(filepath.Join(dir, "block.go"), b[1], 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command("go", "vet", "./"+filepath.Base(dir)).CombinedOutput()
			if err != nil {
				t.Errorf("%s: Go block %d does not compile: %v\n%s\n%s", page, i+1, err, out, b[1])
			}
		}
	}
	if n == 0 {
		t.Fatal("neither README.md nor docs/*.md has Go code")
	}
}
