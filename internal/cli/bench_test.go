package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// buildStatic returns the binary the environment variable env names (make
// passes the ones it built), or builds pkg into dir the way the Makefile
// does: static (CGO_ENABLED=0, even under the race-enabled unit run) and
// with -trimpath.
func buildStatic(b *testing.B, env, pkg, dir string) string {
	b.Helper()
	if bin := os.Getenv(env); bin != "" {
		return bin
	}
	bin := filepath.Join(dir, filepath.Base(pkg))
	build := exec.Command("go", "build", "-trimpath", "-o", bin, pkg)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// copied writes a copy of the binary at path into dir as name and returns
// its path. Every binary BenchmarkStartup times is such a copy, written the
// same way: how a file came into the page cache moves its start-up time.
// On this machine's 6.18 kernel a copy written in one sequential pass sits
// in the page cache in large folios, and a start-up maps it in fewer,
// cheaper faults; the linker's own output, and a binary read back from
// disk after it left the cache (after a reboot, say), are in small pages,
// and elicit, the largest binary, starts 8-15% slower from them
// (hello-world 0-3%). With ELICIT_BENCH_READBACK=1 (make bench-process
// READBACK=1) each copy is dropped from the page cache once written, so
// that every binary is timed as read back from disk.
func copied(b *testing.B, path, dir, name string) string {
	b.Helper()
	src, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	out := filepath.Join(dir, name)
	dst, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		b.Fatal(err)
	}
	if os.Getenv("ELICIT_BENCH_READBACK") == "1" {
		if err := dropFromCache(dst); err != nil {
			b.Fatalf("drop %s from the page cache: %v", out, err)
		}
	}
	if err := dst.Close(); err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkFormCollectProcess runs `elicit form collect` as a whole process,
// start to exit (target ≤ 10 ms).
func BenchmarkFormCollectProcess(b *testing.B) {
	dir := b.TempDir()
	bin := buildStatic(b, "ELICIT_BIN", "../../cmd/elicit", dir)
	formFile, answers := writeFormFixtures(b, dir)
	for b.Loop() {
		if out, err := exec.Command(bin, "form", "collect", formFile, answers).CombinedOutput(); err != nil {
			b.Fatalf("collect: %v\n%s", err, out)
		}
	}
}

// writeFormFixtures writes the six-field benchmark form and its answers into
// dir.
func writeFormFixtures(b *testing.B, dir string) (formFile, answers string) {
	b.Helper()
	data, err := os.ReadFile("../../form/testdata/bench/six-fields.json")
	if err != nil {
		b.Fatal(err)
	}
	formFile = filepath.Join(dir, "form.json")
	answers = filepath.Join(dir, "answers.json")
	for name, body := range map[string][]byte{
		formFile: data,
		answers:  []byte(`{"track": "beta", "platforms": ["linux"], "budget": 3, "ship_date": "2026-12-01"}`),
	} {
		if err := os.WriteFile(name, body, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return formFile, answers
}

// startupCall is one whole-process call BenchmarkStartup times.
type startupCall struct {
	name string
	argv []string
	env  []string // nil: the benchmark's own
	runs []time.Duration
	// elicit marks a call of the elicit binary under test, which the
	// tripwire (maxStartupRatio) holds to hello-world.
	elicit bool
	// baseline is the same call on the binary ELICIT_BENCH_BASELINE names,
	// if it names one.
	baseline *startupCall
}

// maxStartupRatio is the tripwire of BenchmarkStartup: a whole-process
// elicit call whose median takes longer than this many times hello-world's
// fails the benchmark. It is not a target: it catches a change that makes
// every call pay for something large at start-up (a table built at package
// initialisation, a dependency that does work in init), which a
// per-function benchmark would not show.
const maxStartupRatio = 2.6

// BenchmarkStartup times whole elicit processes beside a hello-world Go
// binary built with the same flags, and beside hello-world linking the MCP
// SDK and cobra (testdata/sdkfloor), the floor any binary with elicit's
// dependencies starts from. Every round runs each call once, in a random
// order (so that no call always follows the same one: what a process leaves
// in the caches skews the next); the figures are the medians over all
// rounds and each call's median as a multiple of hello's, and the benchmark
// fails when an elicit call's is over maxStartupRatio. One op is one round.
// `make bench-process` runs it on the binaries make built (ELICIT_BIN,
// ELICIT_HELLO_BIN, ELICIT_FLOOR_BIN); without them it builds them. With
// ELICIT_BENCH_BASELINE naming another elicit binary (an older build, say),
// every call also runs on it, in the same rounds, for a column of its own
// (not held to the tripwire).
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	bin := copied(b, buildStatic(b, "ELICIT_BIN", "../../cmd/elicit", dir), dir, "elicit-timed")
	hello := copied(b, buildStatic(b, "ELICIT_HELLO_BIN", "./testdata/hello", dir), dir, "hello-timed")
	floor := copied(b, buildStatic(b, "ELICIT_FLOOR_BIN", "./testdata/sdkfloor", dir), dir, "sdkfloor-timed")
	formFile, answers := writeFormFixtures(b, dir)
	b.Setenv("ELICIT_METHODS", "")
	hw := &startupCall{name: "hello-world", argv: []string{hello}}
	calls := append([]*startupCall{{name: "hello-world + go-sdk + cobra", argv: []string{floor}}},
		startupCalls(b, bin, filepath.Join(dir, "home"), formFile, answers)...)
	all := append([]*startupCall{hw}, calls...)
	if base := os.Getenv("ELICIT_BENCH_BASELINE"); base != "" {
		base = copied(b, base, dir, "baseline-timed")
		for i, c := range startupCalls(b, base, filepath.Join(dir, "home-baseline"), formFile, answers) {
			calls[i+1].baseline = c
			all = append(all, c)
		}
	}
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	for _, c := range all { // each once, checked, before timing
		cmd := exec.Command(c.argv[0], c.argv[1:]...)
		cmd.Env = c.env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", strings.Join(c.argv, " "), err, out)
		}
	}
	order := slices.Clone(all)
	for b.Loop() {
		rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, c := range order {
			cmd := exec.Command(c.argv[0], c.argv[1:]...)
			cmd.Env, cmd.Stdout, cmd.Stderr = c.env, devNull, devNull
			start := time.Now()
			if err := cmd.Run(); err != nil {
				b.Fatalf("%s: %v", strings.Join(c.argv, " "), err)
			}
			c.runs = append(c.runs, time.Since(start))
		}
	}
	b.StopTimer()
	reportStartup(b, hw, calls)
}

// startupCalls are the calls BenchmarkStartup times, on the elicit binary
// bin with its own ELICIT_HOME, home, which holds one deliberation.
func startupCalls(b *testing.B, bin, home, formFile, answers string) []*startupCall {
	env := append(os.Environ(), "ELICIT_HOME="+home)
	start := exec.Command(bin, "deliberate", "start", "--question", "Should the importer retry on HTTP 429?", "--json")
	start.Env = env
	out, err := start.Output()
	if err != nil {
		b.Fatalf("%s deliberate start: %v", bin, err)
	}
	var started struct{ ID string }
	if err := json.Unmarshal(out, &started); err != nil || started.ID == "" {
		b.Fatalf("%s deliberate start printed %q (%v)", bin, out, err)
	}
	calls := []*startupCall{
		{name: "--version", argv: []string{bin, "--version"}},
		{name: "form collect", argv: []string{bin, "form", "collect", formFile, answers}},
		{name: "form render", argv: []string{bin, "form", "render", formFile}},
		{name: "form validate", argv: []string{bin, "form", "validate", formFile}},
		{name: "methods select", argv: []string{bin, "methods", "select", "--phase", "forge:3",
			"--title", "Architecture Design", "--text", "Split the service into layers with clear boundaries."}},
		{name: "deliberate status", argv: []string{bin, "deliberate", "status", started.ID}},
	}
	for _, c := range calls {
		c.env, c.elicit = env, true
	}
	return calls
}

// reportStartup reports hello-world's median in ms and every call's ratio to
// it as metrics, logs them as docs/benchmarks.md's start-up table, and fails
// the benchmark for each elicit call over maxStartupRatio.
func reportStartup(b *testing.B, hw *startupCall, calls []*startupCall) {
	hello := median(hw.runs)
	b.ReportMetric(hello, "hello-ms")
	var t strings.Builder
	// Nine lines: go test cuts a benchmark's log after ten.
	baseline := calls[len(calls)-1].baseline != nil
	state := ""
	if os.Getenv("ELICIT_BENCH_READBACK") == "1" {
		state = ", binaries read back from disk"
	}
	fmt.Fprintf(&t, "| call (median of %d runs; hello-world %.2f ms%s) | time | × hello-world |", len(hw.runs), hello, state)
	if baseline {
		t.WriteString(" baseline | × hello-world |")
	}
	t.WriteString("\n|---|---:|---:|")
	if baseline {
		t.WriteString("---:|---:|")
	}
	var over []string
	for _, c := range calls {
		m := median(c.runs)
		fmt.Fprintf(&t, "\n| %s | %.2f ms | %.2f |", c.name, m, m/hello)
		if c.elicit && m/hello > maxStartupRatio {
			over = append(over, fmt.Sprintf("%s %.2f×", c.name, m/hello))
		}
		if c.baseline != nil {
			bm := median(c.baseline.runs)
			fmt.Fprintf(&t, " %.2f ms | %.2f |", bm, bm/hello)
		}
		if c.baseline == nil && baseline {
			t.WriteString(" | |")
		}
		b.ReportMetric(m/hello, metricName(c.name))
	}
	b.Log(t.String())
	if len(over) > 0 {
		b.Errorf("over the start-up tripwire of %.1f× hello-world: %s", maxStartupRatio, strings.Join(over, ", "))
	}
}

// metricName is a call's name as a metric unit: "form collect" gives
// "form-collect-x", the SDK floor "sdk-floor-x".
func metricName(call string) string {
	if strings.Contains(call, "go-sdk") {
		return "sdk-floor-x"
	}
	return strings.ReplaceAll(strings.TrimPrefix(call, "--"), " ", "-") + "-x"
}

// median is the median of runs in milliseconds.
func median(runs []time.Duration) float64 {
	slices.Sort(runs)
	return float64(runs[len(runs)/2]) / float64(time.Millisecond)
}
