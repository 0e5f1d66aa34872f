package responselog

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
	"time"
)

// TestTalliesMatchTheRecords checks that the tallies kept as records go in
// (some of them twice) and out (pruned) are what the records add up to.
func TestTalliesMatchTheRecords(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		l, _ := open(t)
		now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
		l.Now = func() time.Time { return now }
		rng := rand.New(rand.NewPCG(1, 2))
		pick := func(of ...string) string { return of[rng.IntN(len(of))] }
		for round := range 4 {
			for i := range 200 {
				l.Append(Record{
					ID:   fmt.Sprintf("r%d-%d", round, i%150), // 50 of each round's are in twice
					Time: now.Add(-time.Duration(rng.IntN(400*24)) * time.Hour), Kind: pick(KindRender, KindResponse, KindRejected, KindSurface),
					TemplateID: pick("dict", "template:a", "template:b"), Shape: pick("s1", "s2", ""), Title: pick("A", "B", ""),
					Surface: pick("ask", "widget", ""), Host: pick("cli", "claude-code"), FormID: pick("", "f1"),
					Fields: rng.IntN(5), Inferred: rng.IntN(3), Kept: rng.IntN(2),
				})
			}
			if round == 2 {
				l.Keep = 200 * 24 * time.Hour // the next read prunes
			}
			s := mustRead(t, l)
			kept, want := tallyRows(t, s, "SELECT kind, dim, key, sub, n, fields, inferred, kept, title FROM tallies"), tallyRows(t, s, tallySelects("1 = 1")...)
			if round >= 2 { // a pruned record's title may stay the greatest
				for _, m := range []map[tallyKey]tallyVal{kept, want} {
					for k, v := range m {
						v.title = ""
						m[k] = v
					}
				}
			}
			if !maps.Equal(kept, want) {
				t.Errorf("round %d: the tallies\n%v\nare not what the records add up to\n%v", round, kept, want)
			}
			var records int
			if err := s.queryRow("SELECT count(*) FROM records").Scan(&records); err != nil {
				t.Fatal(err)
			}
			if st, err := s.Stats(false); err != nil || st.Records != records {
				t.Errorf("round %d: stats counts %d records, %v; the table has %d", round, st.Records, err, records)
			}
		}
	})
}

func tallyRows(t *testing.T, s *Store, queries ...string) map[tallyKey]tallyVal {
	t.Helper()
	out := map[tallyKey]tallyVal{}
	for _, q := range queries {
		rows, err := s.query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var k tallyKey
			var v tallyVal
			if err := rows.Scan(&k.kind, &k.dim, &k.key, &k.sub, &v.n, &v.fields, &v.inferred, &v.kept, &v.title); err != nil {
				t.Fatal(err)
			}
			out[k] = v
		}
		rows.Close()
	}
	return out
}
