package method

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
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
	benchSelect(b, Default())
}

// BenchmarkSelect300 is one selection over a registry of the size people
// keep: a few hundred methods.
func BenchmarkSelect300(b *testing.B) {
	benchSelect(b, parsedGenerated(b, 300))
}

func BenchmarkSelect10000(b *testing.B) {
	benchSelect(b, parsedGenerated(b, 10000))
}

func benchSelect(b *testing.B, r *Registry) {
	for b.Loop() {
		if _, err := r.Select(benchQuery); err != nil {
			b.Fatal(err)
		}
	}
}

func parsedGenerated(b *testing.B, n int) *Registry {
	r := Parse(generated(n))
	if len(r.Methods) != n || len(r.Warnings) != 0 {
		b.Fatalf("generated registry: %d methods, %d warnings", len(r.Methods), len(r.Warnings))
	}
	return r
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

// registrySizes are the registries Parse and Load are measured on: the
// embedded one (methods.csv, 24 methods), a few hundred generated methods as
// people keep, and 100,000 generated methods (24 MiB), far beyond them.
var registrySizes = []int{24, 300, 100000}

// registryText is the CSV of a registry of n methods: methods.csv for 24.
func registryText(n int) []byte {
	if n == 24 {
		return defaultCSV()
	}
	return generated(n)
}

// BenchmarkParse parses registries from memory.
func BenchmarkParse(b *testing.B) {
	for _, n := range registrySizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			data := registryText(n)
			b.SetBytes(int64(len(data)))
			perOpMiB(b, func() {
				if r := Parse(data); len(r.Methods) != n {
					b.Fatalf("%d methods, warnings %v", len(r.Methods), r.Warnings)
				}
			})
		})
	}
}

// BenchmarkLoad reads the same registries from a file.
func BenchmarkLoad(b *testing.B) {
	for _, n := range registrySizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "methods.csv")
			data := registryText(n)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			perOpMiB(b, func() {
				if r := Load(path); len(r.Methods) != n {
					b.Fatalf("%d methods, warnings %v", len(r.Methods), r.Warnings)
				}
			})
		})
	}
}

// perOpMiB runs op in b.Loop and reports the bytes it allocates per call in
// MiB and the CPU time it takes (which a loaded machine stretches far less
// than the wall time).
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
