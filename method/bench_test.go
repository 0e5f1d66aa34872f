package method

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/benchcpu"
)

func BenchmarkLoadDefault(b *testing.B) {
	for b.Loop() {
		if r := Default(); len(r.Methods) != 24 {
			b.Fatal("wrong registry")
		}
	}
}

var benchQuery = Query{
	Phase: "forge:3",
	Title: "Architecture Design",
	Text:  "Split the service into layers with clear boundaries; weigh the trade-offs of each approach and record the decisions.",
}

func BenchmarkSelectDefault(b *testing.B) {
	r := Default()
	for b.Loop() {
		if _, err := r.Select(benchQuery); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSelect10000(b *testing.B) {
	r := Parse(generated(10000))
	if len(r.Methods) != 10000 || len(r.Warnings) != 0 {
		b.Fatalf("generated registry: %d methods, %d warnings", len(r.Methods), len(r.Warnings))
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := r.Select(benchQuery); err != nil {
			b.Fatal(err)
		}
	}
}

// generated builds a registry of n methods by cycling the embedded rows
// with fresh nums and names.
func generated(n int) []byte {
	base := Default().Methods
	var b strings.Builder
	b.WriteString(Header + "\n")
	for i := range n {
		m := base[i%len(base)]
		fmt.Fprintf(&b, "%d,%s,%s %d,\"%s\",%s,%d,\"%s\",\"%s\",\"%s\",%t,%s\n", i+1, m.Category, m.Name, i, m.Description,
			m.OutputPattern, m.Tier, strings.Join(m.Phases, ","), strings.Join(m.Agents, ","), strings.Join(m.Topics, ","),
			m.AutoSuggest, m.CodexRole)
	}
	return []byte(b.String())
}

// BenchmarkParse100000 parses a generated 100,000-method registry from memory
// (targets: at most 100 ms and 64 MiB allocated).
func BenchmarkParse100000(b *testing.B) {
	data := generated(100000)
	b.SetBytes(int64(len(data)))
	perOpMiB(b, func() {
		if r := Parse(data); len(r.Methods) != 100000 {
			b.Fatalf("%d methods, warnings %v", len(r.Methods), r.Warnings)
		}
	})
}

// BenchmarkLoad100000 is the same registry read from a file.
func BenchmarkLoad100000(b *testing.B) {
	path := filepath.Join(b.TempDir(), "methods.csv")
	data := generated(100000)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	perOpMiB(b, func() {
		if r := Load(path); len(r.Methods) != 100000 {
			b.Fatalf("%d methods, warnings %v", len(r.Methods), r.Warnings)
		}
	})
}

// perOpMiB runs op in b.Loop and reports the bytes it allocates per call in
// MiB, the unit of the targets, and the CPU time it takes (which a loaded
// machine stretches far less than the wall time).
func perOpMiB(b *testing.B, op func()) {
	defer benchcpu.Start(b)()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	for b.Loop() {
		op()
		n++
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n)/(1<<20), "MiB/op")
}
