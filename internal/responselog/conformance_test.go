package responselog

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/pgtest"
)

// pg is the tests' PostgreSQL server (nil without one: those tests skip,
// or fail when ELICIT_TEST_POSTGRES=required).
var pg *pgtest.Server

// opener opens a new, empty log for a test.
type opener func(t *testing.T) (*Log, *[]string)

// forEachStore runs a test of the Store's behaviour against both
// backends: the embedded SQLite database and a PostgreSQL team database
// (a database of its own on the tests' server). The tests that call it
// are the conformance suite: the two must answer alike.
func forEachStore(t *testing.T, test func(t *testing.T, open opener)) {
	t.Run("SQLite", func(t *testing.T) { test(t, testLog) })
	t.Run("PostgreSQL", func(t *testing.T) {
		pgtest.Need(t, pg)
		test(t, teamLog)
	})
}

// teamLog is a log whose records go to a new team database.
func teamLog(t *testing.T) (*Log, *[]string) {
	t.Helper()
	l, warnings := testLog(t)
	l.DatabaseURL = pg.NewDatabase(t)
	return l, warnings
}

// writerMain appends n records tagged tag to the log in dir (ingested into
// the team database url when given), as one writer process of a test.
func writerMain(dir, url string, n int, tag string) {
	l := Open(dir)
	l.DatabaseURL = url
	l.Warn = func(w string) {
		if url == "" || !strings.Contains(w, "waits in") { // a team database restarting is expected
			fmt.Fprintln(os.Stderr, w)
		}
	}
	for i := range n {
		l.Append(Record{Kind: KindResponse, TemplateID: "dict", Shape: tag, ResponseID: fmt.Sprintf("%s-%d", tag, i)})
		time.Sleep(time.Millisecond) // spread the writes over the reader's ingests
	}
}

// TestTeamWritersLoseNothingAcrossARestart runs 20 writer processes, each
// with a home of its own, ingesting into one team database at once, while
// the server is killed and started again: afterwards every record is in
// exactly once, and the records written while it was down waited in their
// writers' journals.
func TestTeamWritersLoseNothingAcrossARestart(t *testing.T) {
	pgtest.Need(t, pg)
	const writers, each = 20, 30
	url := pg.NewDatabase(t)
	homes := make([]string, writers)
	var wg sync.WaitGroup
	for w := range writers {
		homes[w] = t.TempDir()
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("ELICIT_TEST_WRITER=%s,%d,w%02d", homes[w], each, w), "ELICIT_TEST_WRITER_DB="+url)
			if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
				t.Errorf("writer %d: %v %s", w, err, out)
			}
		}()
	}
	time.Sleep(150 * time.Millisecond)
	if err := pg.Kill(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if err := pg.Restart(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	waited := 0
	for _, home := range homes { // what waits in a journal goes in at the next read
		l := Open(home)
		l.DatabaseURL = url
		if files, _ := l.pending(); len(files) > 0 || l.waiting() > 0 {
			waited++
		}
		s, err := l.Read()
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if n := l.waiting(); n > 0 {
			t.Errorf("%s: %d journal files left after a read", home, n)
		}
	}
	l := Open(t.TempDir())
	l.DatabaseURL = url
	s := mustRead(t, l)
	var total, distinct int
	if err := s.queryRow("SELECT count(*), count(DISTINCT response_id) FROM records").Scan(&total, &distinct); err != nil {
		t.Fatal(err)
	}
	if total != writers*each || distinct != writers*each {
		t.Errorf("%d records (%d distinct), want %d", total, distinct, writers*each)
	}
	if n, err := s.Decisions(DecisionFilter{Limit: 10000}); err != nil || len(n) != writers*each {
		t.Errorf("%d decisions, %v; want %d", len(n), err, writers*each)
	}
	if st, err := s.Stats(false); err != nil || st.Records != writers*each || st.Submissions != writers*each {
		t.Errorf("stats: %+v, %v; want %d records and submissions", st, err, writers*each)
	}
	t.Logf("%d of %d writers had records waiting in their journal after the restart", waited, writers)
}

// TestTwoMembersSeeEachOthersRecords checks the team store's point: two
// homes (two people's machines) on one team database read each other's
// decisions at once, each record carrying who made it.
func TestTwoMembersSeeEachOthersRecords(t *testing.T) {
	pgtest.Need(t, pg)
	url := pg.NewDatabase(t)
	ana, _ := testLog(t)
	ben, _ := testLog(t)
	ana.DatabaseURL, ben.DatabaseURL = url, url
	f := mustForm(t, `{"title": "Storage", "fields": [{"id": "store", "text": "Which database?", "type": "text_input"}]}`)
	ana.Append(New(f, Event{Kind: KindResponse, Template: "storage", Response: &form.Response{ResponseID: "r-ana", Responses: map[string]any{"store": "PostgreSQL"}}},
		Who{Host: "cli", Project: "/home/ana/app", User: "ana"}))
	got, err := mustRead(t, ben).Decisions(DecisionFilter{Query: "database"})
	if err != nil || len(got) != 1 || got[0].User != "ana" || got[0].ResponseID != "r-ana" {
		t.Fatalf("ben sees %+v, %v", got, err)
	}
	ben.Append(New(f, Event{Kind: KindResponse, Template: "storage", Response: &form.Response{ResponseID: "r-ben", Responses: map[string]any{"store": "SQLite"}}},
		Who{Host: "cli", Project: "/home/ben/app", User: "ben"}))
	got, err = mustRead(t, ana).Decisions(DecisionFilter{User: "ben"})
	if err != nil || len(got) != 1 || got[0].ResponseID != "r-ben" {
		t.Fatalf("ana sees %+v, %v", got, err)
	}
}

// TestUnreachableTeamDatabaseKeepsTheRecord checks that a team database
// that cannot be reached is an error naming it (its password left out) on
// reading, and a warning on writing, with the record kept in the journal
// and ingested once the database answers.
func TestUnreachableTeamDatabaseKeepsTheRecord(t *testing.T) {
	l, warnings := testLog(t)
	l.DatabaseURL = "postgres://elicit:s3cret@127.0.0.1:1/team?connect_timeout=2"
	l.Append(Record{Kind: KindResponse, TemplateID: "dict", Shape: "s", ResponseID: "kept"})
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0], "the team database postgres://elicit:xxxxx@127.0.0.1:1/team") ||
		!strings.Contains((*warnings)[0], "waits in "+l.Dir()) || strings.Contains((*warnings)[0], "s3cret") {
		t.Errorf("warnings = %q", *warnings)
	}
	_, err := l.Read()
	var de *DatabaseError
	if !errors.As(err, &de) || strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "127.0.0.1:1/team") {
		t.Errorf("read: %v", err)
	}
	if l.waiting() != 1 {
		t.Fatalf("%d journal files wait, want the journal", l.waiting())
	}
	pgtest.Need(t, pg)
	l.DatabaseURL = pg.NewDatabase(t)
	if e, err := mustRead(t, l).Response("kept"); err != nil || e.ResponseID != "kept" {
		t.Errorf("after the database answers: %+v, %v", e, err)
	}
	if l.waiting() != 0 {
		t.Errorf("%d journal files left", l.waiting())
	}
}

// TestNewerTeamSchemaIsRefused checks that a team database written by a
// newer elicit is an error that says so, and nothing is written to it.
func TestNewerTeamSchemaIsRefused(t *testing.T) {
	pgtest.Need(t, pg)
	l, _ := teamLog(t)
	mustRead(t, l)
	if err := pg.Exec(teamDatabaseName(l.DatabaseURL), fmt.Sprintf("INSERT INTO elicit_schema (version) VALUES (%d)", len(pgMigrations)+1)); err != nil {
		t.Fatal(err)
	}
	closePools()
	_, err := l.Read()
	want := fmt.Sprintf("written by a newer elicit (schema %d, this one knows %d): upgrade elicit", len(pgMigrations)+1, len(pgMigrations))
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "the team database "+l.DatabaseURL) {
		t.Errorf("read: %v, want %q", err, want)
	}
}

// TestTeamStoreKeepsEveryRecord checks that one member's retention does
// not remove the team's records.
func TestTeamStoreKeepsEveryRecord(t *testing.T) {
	pgtest.Need(t, pg)
	l, _ := teamLog(t)
	l.Append(Record{Time: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), Kind: KindResponse, TemplateID: "dict", Shape: "s", ResponseID: "old"})
	l.Keep = 24 * time.Hour
	l.Append(Record{Kind: KindResponse, TemplateID: "dict", Shape: "s", ResponseID: "new"})
	if list, err := mustRead(t, l).Responses(Filter{}); err != nil || len(list) != 2 {
		t.Errorf("%d responses, %v; want both", len(list), err)
	}
}

func TestNumberedPlaceholders(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT ? , ?", "SELECT $1 , $2"},
		{"WHERE substr(x, 1, length(?1)) = ?1 AND y = '?' AND \"a?\" = ?", "WHERE substr(x, 1, length($1)) = $1 AND y = '?' AND \"a?\" = $2"},
		{"no arguments", "no arguments"},
	} {
		if got := numbered(tc.in); got != tc.want {
			t.Errorf("numbered(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestVersion1TeamDatabaseGainsTheTallies checks the team store's second
// migration: a database of schema 1 gets its records counted.
func TestVersion1TeamDatabaseGainsTheTallies(t *testing.T) {
	pgtest.Need(t, pg)
	l, _ := teamLog(t)
	for i := range 3 {
		l.Append(Record{Kind: KindResponse, TemplateID: "template:a", Shape: "s", ResponseID: fmt.Sprint("r", i)})
	}
	mustRead(t, l)
	if err := pg.Exec(teamDatabaseName(l.DatabaseURL), "DROP TABLE tallies, deliberation_files, deliberation_leases, deliberation_tag; DELETE FROM elicit_schema WHERE version >= 2"); err != nil {
		t.Fatal(err)
	}
	closePools()
	if st, err := mustRead(t, l).Stats(false); err != nil || st.Records != 3 || st.Submissions != 3 {
		t.Errorf("stats: %+v, %v; want the 3 records", st, err)
	}
}

// teamDatabaseName is the name of the tests' database at url
// (postgres://postgres@/NAME?host=…).
func teamDatabaseName(url string) string {
	_, rest, _ := strings.Cut(url, "@/")
	name, _, _ := strings.Cut(rest, "?")
	return name
}

// TestBigIngestRefreshesThePlannersStatistics checks that an ingest of
// many records analyzes the team database's tables, so that the next
// search is planned for them as they are.
func TestBigIngestRefreshesThePlannersStatistics(t *testing.T) {
	pgtest.Need(t, pg)
	defer func(n int) { pgAnalyzeAfter = n }(pgAnalyzeAfter)
	analyzed := func(l *Log) bool {
		var n int
		if err := mustRead(t, l).queryRow(`SELECT count(*) FROM pg_stat_user_tables WHERE relname IN ('records', 'decisions') AND last_analyze IS NOT NULL`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 2
	}
	for _, tc := range []struct {
		after int
		want  bool
	}{{1000, false}, {20, true}} {
		pgAnalyzeAfter = tc.after
		l, _ := teamLog(t)
		url := l.DatabaseURL
		l.DatabaseURL = "" // the records wait in the journal: one ingest takes them all
		for i := range 30 {
			l.Append(Record{Kind: KindResponse, TemplateID: "dict", Shape: "s", ResponseID: fmt.Sprint("r", i)})
		}
		l.DatabaseURL = url
		if got := analyzed(l); got != tc.want {
			t.Errorf("30 records with an analyze after %d: analyzed %v", tc.after, got)
		}
	}
}

// TestPushesPauseWhileTheTeamDatabaseIsAway: a team database that
// accepts connections and never answers (a VPN half up) costs the first
// record pushWait, and the next ones of the minute nothing; they all wait
// in the journal, and go in once it answers.
func TestPushesPauseWhileTheTeamDatabaseIsAway(t *testing.T) {
	pgtest.Need(t, pg)
	hole, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hole.Close()
	go func() {
		for {
			c, err := hole.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	l, warnings := testLog(t)
	l.DatabaseURL = "postgres://elicit@" + hole.Addr().String() + "/team?sslmode=disable"
	for i := range 3 {
		began := time.Now()
		l.Append(Record{Kind: KindResponse, TemplateID: "dict", Shape: "s", ResponseID: fmt.Sprint("r", i)})
		took := time.Since(began)
		if i == 0 && (took < pushWait-100*time.Millisecond || took > 4*pushWait) {
			t.Errorf("the first push took %s, want about %s", took, pushWait)
		}
		if i > 0 && took > pushWait/2 {
			t.Errorf("push %d took %s: it should not try again within %s", i, took, pushPause)
		}
	}
	if n := len(*warnings); n != 3 || !strings.Contains((*warnings)[2], "could not be reached at") {
		t.Errorf("warnings: %q", *warnings)
	}
	l.DatabaseURL = pg.NewDatabase(t) // it answers: the records go in
	if list, err := mustRead(t, l).Responses(Filter{}); err != nil || len(list) != 3 {
		t.Errorf("%d responses, %v; want the 3 that waited", len(list), err)
	}
	if _, err := os.Stat(filepath.Join(l.dir, unreachableName)); err == nil {
		t.Error("the pause is still on after the database answered")
	}
}
