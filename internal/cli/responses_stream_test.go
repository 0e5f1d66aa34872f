package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/responselog"
)

// exportHome fills a home's response log with n responses of about 2 KB
// each, ingested, and points ELICIT_HOME at it.
func exportHome(tb testing.TB, n int) string {
	tb.Helper()
	home := tb.TempDir()
	l := responselog.Open(filepath.Join(home, "log"))
	answer, _ := json.Marshal(map[string]string{"a": strings.Repeat("an answer ", 200)})
	for i := range n {
		l.Append(responselog.Record{Kind: responselog.KindResponse, TemplateID: "dict", Shape: "abc", Title: "T",
			Host: "cli", Via: "cli", ResponseID: fmt.Sprintf("r%05d", i), Responses: answer})
	}
	s, err := l.Read()
	if err != nil {
		tb.Fatal(err)
	}
	s.Close()
	return home
}

// heapWriter discards what it is given and samples the live heap (after a
// collection) every MiB written, and when it is closed.
type heapWriter struct {
	written, next int
	peak          uint64
}

func (w *heapWriter) Write(p []byte) (int, error) {
	w.written += len(p)
	if w.written >= w.next {
		w.sample()
		w.next = w.written + 1<<20
	}
	return len(p), nil
}

func (w *heapWriter) sample() {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	w.peak = max(w.peak, m.HeapAlloc)
}

// peakHeap runs elicit with args and returns the largest live heap seen
// while it wrote, and how much it wrote.
func peakHeap(t *testing.T, args ...string) (uint64, int) {
	t.Helper()
	w := &heapWriter{}
	var stderr strings.Builder
	if code := Run(args, strings.NewReader(""), w, &stderr); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
	}
	w.sample()
	return w.peak, w.written
}

// TestExportMemoryDoesNotGrowWithTheLog exports 2,000 and then 20,000
// responses of 2 KB (as JSON and CSV, and lists them as JSON): the live
// heap while writing stays the same, where holding the list took ten
// times as much for ten times the responses.
func TestExportMemoryDoesNotGrowWithTheLog(t *testing.T) {
	smallHome, largeHome := exportHome(t, 2000), exportHome(t, 20000)
	t.Setenv("ELICIT_LOG", "")
	for _, args := range [][]string{{"responses", "export", "--json"}, {"responses", "export", "--csv"}, {"responses", "list", "--json"}} {
		t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
			t.Setenv("ELICIT_HOME", smallHome)
			small, smallOut := peakHeap(t, args...)
			t.Setenv("ELICIT_HOME", largeHome)
			large, largeOut := peakHeap(t, args...)
			t.Logf("2,000 responses: %d MB written, live heap at most %.1f MB; 20,000: %d MB, %.1f MB",
				smallOut>>20, float64(small)/(1<<20), largeOut>>20, float64(large)/(1<<20))
			if largeOut < 9*smallOut {
				t.Fatalf("the larger log wrote %d bytes, the smaller %d", largeOut, smallOut)
			}
			if large > small+4<<20 {
				t.Errorf("the live heap grew from %.1f MB to %.1f MB with ten times the responses", float64(small)/(1<<20), float64(large)/(1<<20))
			}
		})
	}
}

// BenchmarkExportJSON exports 2,000 responses of 2 KB as JSON.
func BenchmarkExportJSON(b *testing.B) {
	b.Setenv("ELICIT_HOME", exportHome(b, 2000))
	b.Setenv("ELICIT_LOG", "")
	for b.Loop() {
		if code := Run([]string{"responses", "export", "--json"}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
