// Command benchtable reads `go test -bench` output on stdin and prints it
// as the markdown table docs/benchmarks.md quotes, passing the raw lines to
// stderr.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	sc := bufio.NewScanner(os.Stdin)
	var rows []string
	pkg := ""
	failed := false
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(os.Stderr, line)
		switch {
		case strings.HasPrefix(line, "pkg: "):
			pkg = strings.TrimPrefix(line, "pkg: ")
		case strings.HasPrefix(line, "FAIL"), strings.HasPrefix(line, "--- FAIL"):
			failed = true
		case strings.HasPrefix(line, "Benchmark"):
			if row, ok := benchRow(pkg, line); ok {
				rows = append(rows, row)
			}
		}
	}
	fmt.Println("| package | benchmark | time/op | B/op | allocs/op | reported |")
	fmt.Println("|---|---|---:|---:|---:|---|")
	for _, r := range rows {
		fmt.Println(r)
	}
	if failed {
		os.Exit(1)
	}
}

// benchRow turns "BenchmarkX-2  1000  123 ns/op  45 B/op  6 allocs/op" into a
// table row.
func benchRow(pkg, line string) (string, bool) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return "", false
	}
	name := f[0]
	if i := strings.LastIndex(name, "-"); i > 0 {
		name = name[:i]
	}
	vals := map[string]string{}
	for i := 2; i+1 < len(f); i += 2 {
		vals[f[i+1]] = f[i]
	}
	var reported []string // b.ReportMetric's own units, in the order printed
	for i := 2; i+1 < len(f); i += 2 {
		switch f[i+1] {
		case "ns/op", "B/op", "allocs/op", "MB/s":
		default:
			reported = append(reported, f[i]+" "+f[i+1])
		}
	}
	short := pkg[strings.LastIndex(pkg, "/")+1:]
	return fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", short, strings.TrimPrefix(name, "Benchmark"),
		humanNs(vals["ns/op"]), vals["B/op"], vals["allocs/op"], strings.Join(reported, ", ")), true
}

func humanNs(s string) string {
	var ns float64
	if _, err := fmt.Sscan(s, &ns); err != nil {
		return s
	}
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}
