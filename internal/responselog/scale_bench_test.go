package responselog

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// scaleRecords is the log size of BenchmarkScale: 100,000 records, or
// ELICIT_BENCH_RECORDS (the figures are for 1,000,000).
func scaleRecords() int {
	if n, err := strconv.Atoi(os.Getenv("ELICIT_BENCH_RECORDS")); err == nil && n > 0 {
		return n
	}
	return 100_000
}

// writeScaleJournal writes n records to dir's journal as Append would: a
// render and then a response to one of 50 templates, answers numbered,
// questions drawn from a small vocabulary, from 20 people, over a year.
func writeScaleJournal(b *testing.B, dir string, n int) {
	b.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, journalName))
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	l := &Log{dir: dir}
	topics := []string{"database", "cache", "queue", "deploy", "retry", "schema", "index", "budget", "owner", "release"}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		topic := topics[i/2%len(topics)]
		r := Record{ID: fmt.Sprintf("r%08d", i), Time: start.Add(time.Duration(i) * 30 * time.Second), Kind: KindRender,
			TemplateID: "template:t" + strconv.Itoa(i%50), Title: "Plan " + topic, Project: "/p", Host: "claude-code", Via: "mcp",
			User: "user" + strconv.Itoa(i%20), Surface: "ask", Fields: 2, Inferred: 1}
		if i%2 == 1 {
			r.Kind, r.Surface, r.Kept, r.ResponseID = KindResponse, "", 1, fmt.Sprintf("resp-%08d", i)
			r.Questions = []Question{{Field: "choice", Text: "Which " + topic + " should the service use?"}, {Field: "hours", Text: "Effort cap in hours?"}}
			r.Responses = []byte(fmt.Sprintf(`{"choice":"option %d","hours":%d}`, i%997, i%40))
		}
		w.Write(l.line(&r))
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// peakHeap runs fn and gives the most heap it held in use meanwhile, in
// MiB, sampled every millisecond from a collected heap.
func peakHeap(fn func()) float64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak atomic.Uint64
	var wg sync.WaitGroup
	done := make(chan struct{})
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	fn()
	close(done)
	wg.Wait()
	return float64(peak.Load()) / (1 << 20)
}

// BenchmarkScale is the response log and the ledger at size, on each
// store: ingesting a journal of scaleRecords() records (records/s), stats,
// a decisions search, and exporting every response (as responses list
// and export do) and listing every decision, one row at a time (the heap
// they hold at most, peak-MiB).
func BenchmarkScale(b *testing.B) {
	n := scaleRecords()
	stores := []struct {
		name string
		url  func() string
	}{{"SQLite", func() string { return "" }}}
	if pg != nil {
		stores = append(stores, struct {
			name string
			url  func() string
		}{"PostgreSQL", func() string {
			url, err := pg.Create()
			if err != nil {
				b.Fatal(err)
			}
			return url
		}})
	}
	for _, st := range stores {
		var s *Store
		var l *Log
		b.Run(fmt.Sprintf("%s/%d/ingest", st.name, n), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				if s != nil {
					s.Close()
				}
				l = Open(b.TempDir())
				l.DatabaseURL = st.url()
				writeScaleJournal(b, l.dir, n)
				b.StartTimer()
				var err error
				if s, err = l.Read(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
		if s == nil {
			continue
		}
		b.Run(fmt.Sprintf("%s/%d/stats", st.name, n), func(b *testing.B) {
			s.Stats(false) // warm: what a person's next call finds
			for b.Loop() {
				if got, err := s.Stats(false); err != nil || got.Records < n {
					b.Fatal(got, err)
				}
			}
		})
		b.Run(fmt.Sprintf("%s/%d/stats after a collect", st.name, n), func(b *testing.B) {
			for b.Loop() {
				l.Append(Record{Kind: KindResponse, TemplateID: "dict", Shape: "s", ResponseID: "one more"})
				s, err := l.Read()
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Stats(false); err != nil {
					b.Fatal(err)
				}
				s.Close()
			}
		})
		for _, q := range []string{"database", "queue option 996"} {
			b.Run(fmt.Sprintf("%s/%d/search %s", st.name, n, q), func(b *testing.B) {
				s.Decisions(DecisionFilter{Query: q, Project: "/p"}) // warm
				for b.Loop() {
					if got, err := s.Decisions(DecisionFilter{Query: q, Project: "/p", Limit: defaultDecisions}); err != nil || len(got) == 0 {
						b.Fatal(got, err)
					}
				}
			})
		}
		b.Run(fmt.Sprintf("%s/%d/export", st.name, n), func(b *testing.B) {
			var peak float64
			for b.Loop() {
				peak = max(peak, peakHeap(func() {
					got := 0
					if err := s.EachResponse(Filter{}, true, func(Entry) error { got++; return nil }); err != nil || got < n/2 {
						b.Fatal(got, err)
					}
				}))
			}
			b.ReportMetric(peak, "peak-MiB")
		})
		b.Run(fmt.Sprintf("%s/%d/decisions list", st.name, n), func(b *testing.B) {
			var peak float64
			for b.Loop() {
				peak = max(peak, peakHeap(func() {
					got := 0
					if err := s.EachDecision(DecisionFilter{Project: "/p", Limit: n}, func(Decision) error { got++; return nil }); err != nil || got != n/2 {
						b.Fatal(got, err)
					}
				}))
			}
			b.ReportMetric(peak, "peak-MiB")
		})
		s.Close()
	}
}
