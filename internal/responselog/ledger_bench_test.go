package responselog

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"
)

// ledgerStore is a store whose ledger holds n decisions: responses to 50
// templates, their questions drawn from a small vocabulary and their
// answers numbered, in one project.
func ledgerStore(b *testing.B, n int) *Store {
	b.Helper()
	l := Open(b.TempDir())
	s, err := l.Read()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	topics := []string{"database", "cache", "queue", "deploy", "retry", "schema", "index", "budget", "owner", "release"}
	tx, err := s.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		topic := topics[i%len(topics)]
		r := Record{ID: fmt.Sprintf("r%08d", i), Kind: KindResponse, TemplateID: "template:t" + strconv.Itoa(i%50),
			Title: "Plan " + topic, Project: "/p", ResponseID: fmt.Sprintf("resp-%08d", i),
			Questions: []Question{{Field: "choice", Text: "Which " + topic + " should the service use?"}, {Field: "hours", Text: "Effort cap in hours?"}},
			Responses: []byte(fmt.Sprintf(`{"choice":"option %d","hours":%d}`, i%997, i%40))}
		if err := addDecision(tx, &r, start.Add(time.Duration(i)*time.Second).Format(time.RFC3339Nano)); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkDecisionsSearch is decisions search over ledgers of 10,000 and
// 100,000 decisions (ELICIT_BENCH_LEDGER=1000000 adds a million): a word in
// a tenth of them, and two words that only one answer has.
func BenchmarkDecisionsSearch(b *testing.B) {
	sizes := []int{10_000, 100_000}
	if n, err := strconv.Atoi(os.Getenv("ELICIT_BENCH_LEDGER")); err == nil && n > 0 {
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		s := ledgerStore(b, n)
		for _, q := range []string{"database", "queue option 996"} {
			b.Run(fmt.Sprintf("%d/%s", n, q), func(b *testing.B) {
				for b.Loop() {
					got, err := s.Decisions(DecisionFilter{Query: q, Project: "/p"})
					if err != nil || len(got) == 0 {
						b.Fatal(got, err)
					}
				}
			})
		}
		b.Run(fmt.Sprintf("%d/list", n), func(b *testing.B) {
			for b.Loop() {
				if got, err := s.Decisions(DecisionFilter{Project: "/p"}); err != nil || len(got) != defaultDecisions {
					b.Fatal(got, err)
				}
			}
		})
	}
}
