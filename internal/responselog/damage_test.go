package responselog

import (
	"database/sql"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// damagePages overwrites bytes at the start of count random pages of the
// database file at path (never its first page, which holds the schema):
// the page header and cell pointers, where SQLite finds the damage.
func damagePages(t *testing.T, path string, seed uint64, count int) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	size := int(binary.BigEndian.Uint16(data[16:18]))
	if size == 1 {
		size = 65536
	}
	pages := len(data) / size
	rng := rand.New(rand.NewPCG(seed, 7))
	var hit []int
	for range count {
		p := 1 + rng.IntN(pages-1) // 0-based: page 1 of SQLite's is index 0
		off := p*size + rng.IntN(64)
		for i := range 64 {
			data[off+i] = byte(rng.UintN(256))
		}
		hit = append(hit, p+1)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return hit
}

// readableIDs is the oracle: the response ids that a lookup of each rowid
// (1 to n) in the damaged database can still read as a response, one row
// at a time.
func readableIDs(t *testing.T, path string, n int) map[string]bool {
	t.Helper()
	db, err := sql.Open("sqlite3", fileURI(path)+"?mode=ro&immutable=1")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ids := map[string]bool{}
	for rowid := 1; rowid <= n; rowid++ {
		var id string
		if db.QueryRow(`SELECT response_id FROM records WHERE rowid = ? AND kind = 'response'`, rowid).Scan(&id) == nil {
			ids[id] = true
		}
	}
	return ids
}

// TestDamagedDatabaseIsRebuilt writes 1,500 responses, damages random
// pages of the database (several seeds), then records three more: Read
// sets the damaged file aside (0600) with one warning naming both files,
// and stats, the listing and the export all answer from a new database
// that holds every record of the journal and every row still readable in
// the damaged one.
func TestDamagedDatabaseIsRebuilt(t *testing.T) {
	const n = 1500
	for _, seed := range []uint64{1, 2, 3, 4, 5, 6} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			l, warnings := testLog(t)
			f := mustForm(t, bigForm)
			for i := range n {
				r := responseRecord(t, f, fmt.Sprintf("old-%04d", i), map[string]any{"a": strings.Repeat("answer ", 20+i%40)})
				r.ID = fmt.Sprintf("%016x", rand.New(rand.NewPCG(uint64(i), 9)).Uint64())
				l.Append(r)
			}
			mustRead(t, l).Close()
			path := filepath.Join(l.Dir(), dbName)
			saved := filepath.Join(t.TempDir(), "copy.db")
			hit := damagePages(t, path, seed, 3)
			data, _ := os.ReadFile(path)
			os.WriteFile(saved, data, 0o600)
			readable := readableIDs(t, saved, n)
			for i := range 3 {
				l.Append(responseRecord(t, f, fmt.Sprintf("new-%d", i), map[string]any{"a": "after the damage"}))
			}
			s := mustRead(t, l)
			st, err := s.Stats(false)
			if err != nil {
				t.Fatalf("stats: %v", err)
			}
			list, err := s.Responses(Filter{})
			if err != nil {
				t.Fatalf("list: %v", err)
			}
			exported := 0
			if err := s.EachResponse(Filter{}, true, func(Entry) error { exported++; return nil }); err != nil {
				t.Fatalf("export: %v", err)
			}
			aside, _ := filepath.Glob(path + ".corrupt-*")
			if len(aside) != 1 || len(*warnings) != 1 || strings.Contains((*warnings)[0], "\n") || !strings.Contains((*warnings)[0], "the database "+path+" is damaged") ||
				!strings.Contains((*warnings)[0], "set aside as "+aside[0]) {
				t.Fatalf("pages %v damaged: set aside %q, warnings %q", hit, aside, *warnings)
			}
			if fi, err := os.Stat(aside[0]); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("the damaged file set aside: %v, %v; want mode 0600", fi.Mode(), err)
			}
			got := map[string]bool{}
			for _, e := range list {
				got[e.ResponseID] = true
			}
			for i := range 3 {
				if id := fmt.Sprintf("new-%d", i); !got[id] {
					t.Errorf("the journal's record %s is lost", id)
				}
			}
			lost := 0
			for id := range readable {
				if !got[id] {
					lost++
				}
			}
			if lost > 0 {
				t.Errorf("%d of the %d rows readable in the damaged database are not in the new one", lost, len(readable))
			}
			// The ledger comes back with the records, searchable.
			found, err := s.Decisions(DecisionFilter{Query: "damage", Limit: 10})
			if err != nil || len(found) != 3 {
				t.Errorf("decisions found by a word after the rebuild: %d, %v; want the 3 new ones", len(found), err)
			}
			if all, err := s.Decisions(DecisionFilter{Query: "answer", Limit: 100_000}); err != nil || len(all) < len(list)-3 {
				t.Errorf("decisions after the rebuild: %d, %v; want about %d", len(all), err, len(list))
			}
			if st.Submissions != len(list) || exported != len(list) {
				t.Errorf("stats counts %d submissions, the listing %d, the export %d", st.Submissions, len(list), exported)
			}
			t.Logf("pages %v damaged: %d of %d old rows readable, %d responses after the rebuild", hit, len(readable), n, len(list))
			if left, _ := l.pending(); len(left) > 0 {
				t.Errorf("files left to ingest: %q", left)
			}
		})
	}
}

// TestBigDatabaseIsCheckedOnceADay: a database over checkAlways is
// checked before the first ingest of a day only, a small one before each.
func TestBigDatabaseIsCheckedOnceADay(t *testing.T) {
	defer func(n int64) { checkAlways = n }(checkAlways)
	for _, tc := range []struct {
		name   string
		always int64
		want   []bool // checked before each of four ingests
	}{{"big", 0, []bool{true, false, false, true}}, {"small", 1 << 40, []bool{true, true, true, true}}} {
		t.Run(tc.name, func(t *testing.T) {
			checkAlways = tc.always
			l, _ := testLog(t)
			now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
			l.Now = func() time.Time { return now }
			var last string
			for i, hours := range []int{0, 1, 2, 25} { // hours after the first
				now = time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC).Add(time.Duration(hours) * time.Hour)
				l.Append(Record{Kind: KindRender, TemplateID: "dict", Shape: "s"})
				var at string
				if err := mustRead(t, l).queryRow(`SELECT at FROM checks WHERE id = 1`).Scan(&at); err != nil {
					t.Fatal(err)
				}
				if checked := at != last; checked != tc.want[i] {
					t.Errorf("ingest %d (%d h): checked %v, want %v", i, hours, checked, tc.want[i])
				}
				last = at
			}
		})
	}
}
