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

// initStep is one package's line of Go's trace of package inits.
type initStep struct {
	pkg           string
	bytes, allocs int
}

// initTrace runs elicit --version with GODEBUG=inittrace=1 and returns its
// trace of package inits, in the order they ran.
func initTrace(t *testing.T) []initStep {
	t.Helper()
	cmd := exec.Command(elicitBin(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("elicit --version: %v\n%s", err, out)
	}
	var steps []initStep
	for line := range strings.Lines(string(out)) {
		// init github.com/elicit/elicit/form @1.7 ms, 0.004 ms clock, 608 bytes, 16 allocs
		var s initStep
		var at, clock float64
		if _, err := fmt.Sscanf(line, "init %s @%f ms, %f ms clock, %d bytes, %d allocs", &s.pkg, &at, &clock, &s.bytes, &s.allocs); err == nil {
			steps = append(steps, s)
		}
	}
	if len(steps) == 0 {
		t.Fatalf("no init trace in:\n%s", out)
	}
	return steps
}

// TestStackRoomFirst checks that the main goroutine gets its stack room
// (internal/stackroom) before any package whose initialisation does work:
// later, the stack would already have been copied at depth, and the copy
// is what it saves (docs/decisions.md, "Start-up"). Go initialises packages
// in import-path order as each becomes ready, so a dependency added to
// stackroom, or a rename that sorts it later, would move it behind them.
func TestStackRoomFirst(t *testing.T) {
	var before []string
	for _, s := range initTrace(t) {
		if s.pkg == "github.com/elicit/elicit/internal/stackroom" {
			if len(before) > 0 {
				t.Fatalf("%d packages whose init allocates run before internal/stackroom; the first: %s", len(before), strings.Join(before[:min(3, len(before))], ", "))
			}
			return
		}
		if s.bytes > 0 || s.allocs > 0 {
			before = append(before, fmt.Sprintf("%s (%d bytes, %d allocations)", s.pkg, s.bytes, s.allocs))
		}
	}
	t.Fatal("internal/stackroom is not initialised: cmd/elicit must import it")
}

// TestOwnPackagesInitNothing checks that none of elicit's own packages
// does work at package initialisation, which every call of the binary pays
// for whatever it runs (issue 14; docs/decisions.md, "Start-up"): tables
// and compiled patterns are built on first use (internal/lazy), and
// package-level values are data the compiler lays out. Go's trace of
// package inits lists each package that has initialisation code; the one
// of elicit's that may is internal/stackroom, whose init is its purpose.
func TestOwnPackagesInitNothing(t *testing.T) {
	for _, s := range initTrace(t) {
		if strings.HasPrefix(s.pkg, "github.com/elicit/elicit/") && s.pkg != "github.com/elicit/elicit/internal/stackroom" {
			t.Errorf("%s has package initialisation code (%d bytes in %d allocations): build its tables on first use (lazy.Of with a named function) and keep its package-level values to literals", s.pkg, s.bytes, s.allocs)
		}
	}
}
