// Package readme checks that the Go code in the project's README compiles.
package readme

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

// TestREADMEGoCompiles vets every ```go block of README.md as a file of its
// own package: each block must be a complete file starting with a package
// clause.
func TestREADMEGoCompiles(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go tool")
	}
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := goBlock.FindAllSubmatch(data, -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no Go code")
	}
	for i, b := range blocks {
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
			t.Errorf("README Go block %d does not compile: %v\n%s\n%s", i+1, err, out, b[1])
		}
	}
}
