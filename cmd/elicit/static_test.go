package main

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
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

// TestStackRoomFirst checks that the main goroutine gets its stack room
// (internal/stackroom) before any package whose initialisation does work:
// later, the stack would already have been copied at depth, and the copy
// is what it saves (docs/decisions.md, "Start-up"). Go initialises packages
// in import-path order as each becomes ready, so a dependency added to
// stackroom, or a rename that sorts it later, would move it behind them.
func TestStackRoomFirst(t *testing.T) {
	cmd := exec.Command(elicitBin(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("elicit --version: %v\n%s", err, out)
	}
	var before []string
	for line := range strings.Lines(string(out)) {
		var pkg string
		var at, clock float64
		var bytes, allocs int
		if _, err := fmt.Sscanf(line, "init %s @%f ms, %f ms clock, %d bytes, %d allocs", &pkg, &at, &clock, &bytes, &allocs); err != nil {
			continue
		}
		if pkg == "github.com/elicit/elicit/internal/stackroom" {
			return
		}
		if bytes > 0 || allocs > 0 {
			before = append(before, fmt.Sprintf("%s (%d bytes, %d allocations)", pkg, bytes, allocs))
		}
	}
	if len(before) > 0 {
		t.Fatalf("%d packages whose init allocates run before internal/stackroom, or it is not linked; the first: %s", len(before), strings.Join(before[:min(3, len(before))], ", "))
	}
	t.Fatalf("internal/stackroom is not initialised: cmd/elicit must import it\n%s", out)
}

// TestOwnPackagesInitNothing checks that none of elicit's own packages
// does work at package initialisation, which every call of the binary pays
// for whatever it runs (issue 14; docs/decisions.md, "Start-up"): tables
// and compiled patterns are built on first use (internal/lazy), and
// package-level values are data the compiler lays out. Go's trace of
// package inits lists each package that has initialisation code; the one
// of elicit's that may is internal/stackroom, whose init is its purpose.
func TestOwnPackagesInitNothing(t *testing.T) {
	cmd := exec.Command(elicitBin(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("elicit --version: %v\n%s", err, out)
	}
	seen := 0
	for line := range strings.Lines(string(out)) {
		// init github.com/elicit/elicit/form @1.7 ms, 0.004 ms clock, 608 bytes, 16 allocs
		var pkg string
		var at, clock float64
		var bytes, allocs int
		if _, err := fmt.Sscanf(line, "init %s @%f ms, %f ms clock, %d bytes, %d allocs", &pkg, &at, &clock, &bytes, &allocs); err != nil {
			continue
		}
		seen++
		if strings.HasPrefix(pkg, "github.com/elicit/elicit/") && pkg != "github.com/elicit/elicit/internal/stackroom" {
			t.Errorf("%s has package initialisation code (%d bytes in %d allocations): build its tables on first use (lazy.Of with a named function) and keep its package-level values to literals", pkg, bytes, allocs)
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace in:\n%s", out)
	}
}
