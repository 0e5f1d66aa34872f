package deliberation

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fixedClock is a clock tests move by hand.
type fixedClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fixedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fixedClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newTestStore(t *testing.T) (*Store, *fixedClock) {
	t.Helper()
	clock := &fixedClock{t: t0}
	return NewStore(filepath.Join(t.TempDir(), "deliberations"), &StoreOptions{Clock: clock}), clock
}

func TestDefaultDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	got, _ := DefaultDir(env(map[string]string{"ELICIT_HOME": "/e", "HOME": "/h"}))
	if got != "/e/deliberations" {
		t.Errorf("with ELICIT_HOME: %s", got)
	}
	got, _ = DefaultDir(env(map[string]string{"HOME": "/h"}))
	if got != "/h/.elicit/deliberations" {
		t.Errorf("with HOME: %s", got)
	}
	if _, err := DefaultDir(env(nil)); err == nil {
		t.Error("no error without HOME")
	}
}

func TestStoreStartNamesAndCollision(t *testing.T) {
	st, _ := newTestStore(t)
	var ids []string
	for range 3 {
		id, _, err := st.Start("q", nil)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	want := []string{"20260131-171500", "20260131-171500-2", "20260131-171500-3"}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("ids = %v, want %v", ids, want)
	}
	for _, id := range ids {
		if _, err := os.Stat(filepath.Join(st.Dir(), "codex-ask-state-"+id+".json")); err != nil {
			t.Error(err)
		}
	}
	s, err := st.Load(ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if s.Transcript != "codex-ask-transcript-20260131-171500.jsonl" {
		t.Errorf("transcript = %q", s.Transcript)
	}
	recs := readTranscript(t, st, ids[0])
	if len(recs) != 1 || recs[0].Kind != "start" || !strings.Contains(recs[0].Text, "Iteration 1/8.") {
		t.Errorf("transcript = %+v", recs)
	}
}

func readTranscript(t *testing.T, st *Store, id string) []Record {
	t.Helper()
	f, err := os.Open(st.TranscriptPath(id))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("transcript line %q: %v", sc.Text(), err)
		}
		out = append(out, r)
	}
	return out
}

func TestStoreUpdateFailureWritesNothing(t *testing.T) {
	st, _ := newTestStore(t)
	id, _, _ := st.Start("q", nil)
	before, _ := os.ReadFile(st.StatePath(id))
	_, err := st.Update(id, func(s *State, _ time.Time) ([]Record, error) {
		s.Iteration = 5
		return nil, os.ErrInvalid
	})
	if err == nil {
		t.Fatal("error lost")
	}
	after, _ := os.ReadFile(st.StatePath(id))
	if string(before) != string(after) {
		t.Error("a failed update changed the file")
	}
}

func TestStoreConcurrentUpdatesLoseNothing(t *testing.T) {
	st, _ := newTestStore(t)
	id, _, _ := st.Start("q", nil)
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := st.Update(id, func(s *State, _ time.Time) ([]Record, error) {
				s.SurfacedQuestions = append(s.SurfacedQuestions, "q"+string(rune('a'+i)))
				return []Record{{Kind: "note"}}, nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	s, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.SurfacedQuestions) != n {
		t.Errorf("%d updates kept, want %d", len(s.SurfacedQuestions), n)
	}
	if got := len(readTranscript(t, st, id)); got != n+1 {
		t.Errorf("%d transcript lines, want %d", got, n+1)
	}
}

func TestStoreCorruptedFileUntouched(t *testing.T) {
	st, _ := newTestStore(t)
	id, _, _ := st.Start("q", nil)
	bad := []byte(`{"version": 1, "iteration": `)
	if err := os.WriteFile(st.StatePath(id), bad, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := st.Update(id, func(s *State, _ time.Time) ([]Record, error) { return nil, nil })
	if err == nil || !strings.Contains(err.Error(), st.StatePath(id)) || !strings.Contains(err.Error(), "invalid JSON") {
		t.Errorf("error = %v, want the path and what is wrong", err)
	}
	after, _ := os.ReadFile(st.StatePath(id))
	if string(after) != string(bad) {
		t.Error("corrupted file was modified")
	}
	entries, _ := st.List()
	if len(entries) != 1 || entries[0].Error == "" {
		t.Errorf("list = %+v, want the file with its error", entries)
	}
	removed, _ := st.Prune(time.Nanosecond)
	if len(removed) != 0 {
		t.Error("prune removed an unreadable file")
	}
}

func TestStoreReadsSeedFile(t *testing.T) {
	st, _ := newTestStore(t)
	os.MkdirAll(st.Dir(), 0o700)
	data, _ := os.ReadFile("testdata/seed-state.json")
	name := filepath.Join(st.Dir(), "codex-ask-state-20260131-171500123.json")
	os.WriteFile(name, data, 0o600)
	id, err := parseID(name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if s.Iteration != 3 {
		t.Errorf("iteration = %d", s.Iteration)
	}
}

func TestParseID(t *testing.T) {
	for _, ok := range []string{"20260131-171500", "20260131-171500-2", "codex-ask-state-20260131-171500.json", "/x/codex-ask-state-20260131-171500123.json"} {
		if _, err := parseID(ok); err != nil {
			t.Errorf("ParseID(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "../../etc/passwd", "2026-01-31", "20260131-171500/../x"} {
		if _, err := parseID(bad); err == nil {
			t.Errorf("ParseID(%q) accepted", bad)
		}
	}
}

func TestStoreListAndPrune(t *testing.T) {
	st, clock := newTestStore(t)
	old, _, _ := st.Start("old question", nil)
	clock.advance(48 * time.Hour)
	fresh, _, _ := st.Start("fresh question", nil)
	clock.advance(time.Hour)
	entries, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].ID != old || entries[0].Age != 49*time.Hour || entries[1].Status != StatusActive {
		t.Errorf("entries = %+v", entries)
	}
	removed, err := st.Prune(24 * time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0] != old {
		t.Errorf("removed %v, want [%s]", removed, old)
	}
	if _, err := os.Stat(st.TranscriptPath(old)); !os.IsNotExist(err) {
		t.Error("transcript of a pruned deliberation left behind")
	}
	if _, err := st.Load(fresh); err != nil {
		t.Error(err)
	}
}

// TestStorePruneRefusesNonPositiveAge: an age of zero or less would remove
// every deliberation, the active ones in use included; it is refused and
// nothing is removed.
func TestStorePruneRefusesNonPositiveAge(t *testing.T) {
	for _, age := range []time.Duration{0, -time.Hour, math.MinInt64} {
		t.Run(age.String(), func(t *testing.T) {
			st, clock := newTestStore(t)
			id, _, err := st.Start("q?", nil)
			if err != nil {
				t.Fatal(err)
			}
			clock.advance(time.Hour)
			removed, err := st.Prune(age)
			assertProblems(t, err, []string{"older_than: is " + age.String() + ", want a positive age such as 72h (zero or less would remove every deliberation, active ones included)"})
			if len(removed) != 0 {
				t.Errorf("removed %v", removed)
			}
			if _, err := st.Load(id); err != nil {
				t.Errorf("the deliberation is gone: %v", err)
			}
		})
	}
}
