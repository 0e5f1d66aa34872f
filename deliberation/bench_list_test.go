package deliberation

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// listDir fills a directory with n deliberations, each a copy of one real
// state file (with its own ID) and an empty transcript, and returns it.
func listDir(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "deliberations")
	st := NewStore(dir, &StoreOptions{Clock: &fixedClock{t: t0}})
	id, _, err := st.Start("Should the importer retry on HTTP 429?", &StartOptions{Facts: []string{"no new infrastructure"}})
	if err != nil {
		b.Fatal(err)
	}
	steps := []func() error{
		func() error { _, err := st.Respond(id, "1. a 2. b 3. c"); return err },
		func() error {
			_, err := st.Evaluate(id, []byte(`{"iteration":1,"response":"valid","points":[
				{"text":"honour Retry-After","triage":"in-scope","classification":"AGREE","claim_type":"value"},
				{"text":"retry 5 times","triage":"in-scope","classification":"SKEPTICAL","flaw":"arbitrary"}]}`))
			return err
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			b.Fatal(err)
		}
	}
	state, err := os.ReadFile(st.StatePath(id))
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		other := fmt.Sprintf("20250101-%06d", i)
		if err := os.WriteFile(st.StatePath(other), state, 0o600); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(st.TranscriptPath(other), nil, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkList10000 lists 10,000 deliberations, as deliberate list does
// once a listing is cached and nothing changed since.
func BenchmarkList10000(b *testing.B) {
	benchList(b, nil)
}

// BenchmarkList10000OneChanged lists 10,000 deliberations one of which
// changed since the last listing (so every state file is looked at, and
// one is read).
func BenchmarkList10000OneChanged(b *testing.B) {
	i := 0
	benchList(b, func(st *Store) {
		i++
		path := st.StatePath(fmt.Sprintf("20250101-%06d", i%10000))
		at := time.Now().Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(path, at, at); err != nil {
			b.Fatal(err)
		}
		if err := os.Chtimes(st.Dir(), at, at); err != nil {
			b.Fatal(err)
		}
	})
}

func benchList(b *testing.B, change func(*Store)) {
	st := NewStore(listDir(b, 10000), &StoreOptions{Clock: &fixedClock{t: t0}})
	// Listed once, then left alone for a while, then listed again.
	if _, err := st.List(); err != nil {
		b.Fatal(err)
	}
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(st.Dir(), hourAgo, hourAgo); err != nil {
		b.Fatal(err)
	}
	if _, err := st.List(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if change != nil {
			b.StopTimer()
			change(st)
			b.StartTimer()
		}
		entries, err := st.List()
		if err != nil || len(entries) != 10001 || entries[0].Error != "" {
			b.Fatalf("%d entries, %v", len(entries), err)
		}
	}
}
