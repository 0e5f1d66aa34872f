package deliberation

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestListCache: a listing reads only what changed since the last one,
// never shows a stale entry, and ignores a broken cache.
func TestListCache(t *testing.T) {
	st, clock := newTestStore(t)
	a, _, _ := st.Start("first?", nil)
	clock.t = clock.t.Add(time.Second)
	b, _, _ := st.Start("second?", nil)
	ids := func() string {
		t.Helper()
		entries, err := st.List()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.ID+":"+string(e.Status)+":"+e.QuestionExcerpt+":"+e.Error)
		}
		return strings.Join(out, " ")
	}
	want := a + ":active:first?: " + b + ":active:second?:"
	if got := ids(); got != want {
		t.Fatalf("first listing %q, want %q", got, want)
	}
	cache := filepath.Join(st.Dir(), listCacheName)
	if _, err := os.Stat(cache); err != nil {
		t.Fatalf("no cache written: %v", err)
	}

	// A change, a new deliberation and a removed one all show at once.
	st.Abandon(a)
	c, _, _ := st.Start("third?", nil)
	os.Remove(st.StatePath(b))
	os.Remove(st.TranscriptPath(b))
	want = a + ":abandoned:first?: " + c + ":active:third?:"
	if got := ids(); got != want {
		t.Errorf("after changes %q, want %q", got, want)
	}

	// Left alone, the directory's time vouches for the cache: a listing
	// then reads no state file (an edit in place, which changes no
	// directory entry, is not seen).
	old := time.Now().Add(-time.Hour)
	os.Chtimes(st.Dir(), old, old)
	ids()
	os.WriteFile(st.StatePath(c), []byte("edited in place"), 0o600)
	os.Chtimes(st.Dir(), old, old)
	if got := ids(); got != want {
		t.Errorf("quiet listing %q, want the cached %q", got, want)
	}
	// Once the directory changes, the edit is seen.
	os.Chtimes(st.Dir(), time.Now(), time.Now())
	if got := ids(); !strings.Contains(got, c+"::") || !strings.Contains(got, "not a deliberation state file") {
		t.Errorf("after the directory changed: %q", got)
	}

	// A broken cache is no cache.
	os.WriteFile(st.StatePath(c), nil, 0o600)
	os.Remove(st.StatePath(c))
	os.Remove(st.TranscriptPath(c))
	for _, broken := range []string{"", "garbage", listCacheMagic + " 1 2 3\nx\ty\n", listCacheMagic + " 1 2 5\n"} {
		os.WriteFile(cache, []byte(broken), 0o600)
		os.Chtimes(st.Dir(), time.Now(), time.Now())
		if got := ids(); got != a+":abandoned:first?:" {
			t.Errorf("with cache %q: %q", broken, got)
		}
	}
}

// TestListOrphanTranscript: a transcript whose state file a crash never
// wrote is listed as one to rebuild; an empty one is not.
func TestListOrphanTranscript(t *testing.T) {
	st, _ := newTestStore(t)
	id, _, _ := st.Start("first?", nil)
	os.Remove(st.StatePath(id))
	os.WriteFile(st.TranscriptPath("20260131-171501"), nil, 0o600)
	entries, err := st.List()
	if err != nil || len(entries) != 1 || entries[0].ID != id || !entries[0].Restorable || !strings.Contains(entries[0].Error, "rebuild it from the transcript") {
		t.Errorf("entries %+v, %v", entries, err)
	}
}

// TestListSameSecond: deliberations started in the same second (IDs X,
// X-2, ..., X-10, whose file names the directory sorts in another order)
// are each listed once, healthy, oldest first, by a listing that reads
// the state files, by one that pairs them with the cache and by one that
// trusts the cache alone; a transcript without its state file among them
// is listed once, in its place.
func TestListSameSecond(t *testing.T) {
	st, _ := newTestStore(t)
	var want []string
	for i := 1; i <= 10; i++ {
		id, _, err := st.Start(fmt.Sprintf("q%d?", i), nil)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, id+":active:")
	}
	if !strings.HasSuffix(want[9], "-10:active:") {
		t.Fatalf("the tenth start got %s", want[9])
	}
	orphan := want[4][:len(want[4])-len(":active:")]
	os.Remove(st.StatePath(orphan))
	want[4] = orphan + "::no state file"
	list := func(when string) {
		t.Helper()
		entries, err := st.List()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			msg, _, _ := strings.Cut(e.Error, ";")
			got = append(got, e.ID+":"+string(e.Status)+":"+msg)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s listing:\n got %q\nwant %q", when, got, want)
		}
	}
	list("first")
	list("cached")
	old := time.Now().Add(-time.Hour)
	os.Chtimes(st.Dir(), old, old)
	list("refreshed")
	os.Chtimes(st.Dir(), old, old)
	list("quiet")
}

func TestCompareIDs(t *testing.T) {
	sorted := []string{"20260131-171500", "20260131-171500-02", "20260131-171500-2", "20260131-171500-10",
		"20260131-171500123", "20260131-171501", "20260131-171501-3"}
	for i := range sorted {
		for j := range sorted {
			if got, want := compareIDs(sorted[i], sorted[j]), cmp.Compare(i, j); got != want {
				t.Errorf("compareIDs(%s, %s) = %d, want %d", sorted[i], sorted[j], got, want)
			}
		}
	}
}
