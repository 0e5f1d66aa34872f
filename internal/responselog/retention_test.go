package responselog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRetentionPrunesOldRecords checks that ingesting removes the records
// (and hand-built form definitions) older than Keep, and that Keep 0
// keeps every record.
func TestRetentionPrunesOldRecords(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		keep time.Duration
		want string
	}{
		{30 * 24 * time.Hour, "new recent"},
		{0, "new old recent"},
	} {
		t.Run(tt.keep.String(), func(t *testing.T) {
			l, _ := testLog(t)
			l.Now = func() time.Time { return now }
			l.Keep = tt.keep
			f := mustForm(t, bigForm)
			old := responseRecord(t, f, "old", map[string]any{"a": "x"})
			old.Time = now.Add(-40 * 24 * time.Hour)
			recent := responseRecord(t, f, "recent", map[string]any{"a": "x"})
			recent.Time = now.Add(-20 * 24 * time.Hour)
			l.Append(old)
			l.Append(recent)
			mustRead(t, l).Close()
			l.Append(responseRecord(t, f, "new", map[string]any{"a": "x"}))
			s, ids := readIDs(t, l)
			defer s.Close()
			if got := strings.Join(ids, " "); got != tt.want {
				t.Errorf("kept %q, want %q", got, tt.want)
			}
		})
	}
}

// TestLogFilesArePrivate checks that every file the log writes is 0600:
// the journal, the database with its -wal and -shm while it is open, and
// a database an older elicit left 0644.
func TestLogFilesArePrivate(t *testing.T) {
	l, _ := testLog(t)
	f := mustForm(t, bigForm)
	l.Append(responseRecord(t, f, "r1", map[string]any{"a": "x"}))
	s := mustRead(t, l)
	check := func(when string) {
		t.Helper()
		entries, err := os.ReadDir(l.Dir())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			fi, err := e.Info()
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("%s: %s is %v, want 0600", when, e.Name(), fi.Mode().Perm())
			}
		}
	}
	if !exists(filepath.Join(l.Dir(), dbName+"-wal")) || !exists(filepath.Join(l.Dir(), dbName+"-shm")) {
		t.Fatalf("no -wal or -shm beside the open database")
	}
	l.Append(responseRecord(t, f, "r2", map[string]any{"a": "x"}))
	check("with the database open")
	s.Close()
	os.Chmod(filepath.Join(l.Dir(), dbName), 0o644)
	mustRead(t, l).Close()
	check("after a read of a 0644 database")
}
