package method

import (
	"fmt"
	"strings"
	"testing"
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
