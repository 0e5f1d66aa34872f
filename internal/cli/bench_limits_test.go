package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
)

// BenchmarkFormValidate1MiBProcess runs `elicit form validate` as a whole
// process on 1 MiB forms: the boolean fields with one id repeated
// (149 KB once took 15 s and 4.4 GB) and with distinct ids (target: at most
// 100 ms and 64 MiB). It reports the child's peak resident memory and CPU
// time.
func BenchmarkFormValidate1MiBProcess(b *testing.B) {
	dir := b.TempDir()
	bin := buildStatic(b, "ELICIT_BIN", "../../cmd/elicit", dir)
	forms := []struct {
		name  string
		field func(i int) string
		exit  int
	}{
		{"one id repeated", func(int) string { return `{"id":"a","text":"q","type":"boolean"}` }, 1},
		{"distinct ids", func(i int) string { return fmt.Sprintf(`{"id":"f%d","text":"Q%[1]d?","type":"boolean"}`, i) }, 0},
	}
	for _, f := range forms {
		path := filepath.Join(dir, strings.ReplaceAll(f.name, " ", "-")+".json")
		if err := os.WriteFile(path, formtest.Fill(`{"title":"t","fields":[`, "]}", form.MaxInput, f.field), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(strings.ReplaceAll(f.name, " ", "_"), func(b *testing.B) {
			var peak int64
			var cpu time.Duration
			for b.Loop() {
				cmd := exec.Command(bin, "form", "validate", path)
				err := cmd.Run()
				if code := cmd.ProcessState.ExitCode(); code != f.exit {
					b.Fatalf("exit %d (%v), want %d", code, err, f.exit)
				}
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					peak = max(peak, ru.Maxrss) // KiB on Linux
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			b.ReportMetric(float64(peak)/1024, "peak-MiB")
			b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}
