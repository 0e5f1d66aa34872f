//go:build unix

package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkDeliberateListProcess runs `elicit deliberate list --json` as a
// whole process over 10,000 deliberations, the last listing cached and the
// folder left alone since (issue 13: at most 100 ms and 30 MiB); it
// reports the process's peak resident memory.
func BenchmarkDeliberateListProcess(b *testing.B) {
	dir := b.TempDir()
	bin := buildStatic(b, "ELICIT_BIN", "../../cmd/elicit", dir)
	home := filepath.Join(dir, "home")
	run := func(args ...string) []byte {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "ELICIT_HOME="+home, "ELICIT_NOW=2026-01-31T17:15:00Z")
		out, err := cmd.Output()
		if err != nil {
			b.Fatalf("%v: %v", args, err)
		}
		return out
	}
	run("deliberate", "start", "--question", "Should the importer retry on HTTP 429?")
	delibs := filepath.Join(home, "deliberations")
	state, err := os.ReadFile(filepath.Join(delibs, "codex-ask-state-20260131-171500.json"))
	if err != nil {
		b.Fatal(err)
	}
	for i := range 9999 {
		id := fmt.Sprintf("20250101-%06d", i)
		if err := os.WriteFile(filepath.Join(delibs, "codex-ask-state-"+id+".json"), state, 0o600); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(delibs, "codex-ask-transcript-"+id+".jsonl"), nil, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	run("deliberate", "list")
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(delibs, hourAgo, hourAgo); err != nil {
		b.Fatal(err)
	}
	run("deliberate", "list")
	var peak int64
	b.ResetTimer()
	for b.Loop() {
		cmd := exec.Command(bin, "deliberate", "list", "--json")
		cmd.Env = append(os.Environ(), "ELICIT_HOME="+home)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		if u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peak = max(peak, u.Maxrss) // KiB on Linux
		}
	}
	b.ReportMetric(float64(peak)/1024, "peak-MiB")
}
