package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// elicitBin is the binary ELICIT_BIN names (make e2e sets it to the one
// `make build` made), or one built as the Makefile builds it.
func elicitBin(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("ELICIT_BIN"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "elicit")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestStaticBinary checks that elicit is a static executable: no dynamic
// loader, no shared library. make e2e points ELICIT_BIN at the binary
// `make build` made; without it the test builds one as the Makefile does.
func TestStaticBinary(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("checks an ELF binary")
	}
	bin := elicitBin(t)
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("%s has a %s program header: it is dynamically linked (build with CGO_ENABLED=0)", bin, p.Type)
		}
	}
	if libs, err := f.ImportedLibraries(); err != nil || len(libs) > 0 {
		t.Errorf("%s needs shared libraries %v (%v): build with CGO_ENABLED=0", bin, libs, err)
	}
}
