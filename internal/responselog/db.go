package responselog

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/ncruces/go-sqlite3"
	_ "github.com/ncruces/go-sqlite3/driver" // SQLite translated to pure Go (no cgo, no init cost); driver "sqlite3"
)

// schemaVersion is the database's PRAGMA user_version: 2 added the
// records' form_id, 3 their project and user and the decision ledger, 4
// the tallies stats reads.
const schemaVersion = 4

const schema = `
CREATE TABLE IF NOT EXISTS records (
	id TEXT PRIMARY KEY,
	ts TEXT NOT NULL,
	kind TEXT NOT NULL,
	template_id TEXT NOT NULL,
	shape TEXT NOT NULL,
	title TEXT NOT NULL DEFAULT '',
	host TEXT NOT NULL DEFAULT '',
	host_version TEXT NOT NULL DEFAULT '',
	via TEXT NOT NULL DEFAULT '',
	surface TEXT NOT NULL DEFAULT '',
	reason TEXT NOT NULL DEFAULT '',
	fields INTEGER NOT NULL DEFAULT 0,
	inferred INTEGER NOT NULL DEFAULT 0,
	kept INTEGER NOT NULL DEFAULT 0,
	response_id TEXT NOT NULL DEFAULT '',
	responses TEXT NOT NULL DEFAULT '',
	problems INTEGER NOT NULL DEFAULT 0,
	form_id TEXT NOT NULL DEFAULT '',
	project TEXT NOT NULL DEFAULT '',
	"user" TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS records_kind ON records (kind, ts);
CREATE INDEX IF NOT EXISTS records_response ON records (response_id);
CREATE INDEX IF NOT EXISTS records_ts ON records (ts);
CREATE TABLE IF NOT EXISTS shapes (
	shape TEXT PRIMARY KEY,
	title TEXT NOT NULL,
	form TEXT NOT NULL,
	last_seen TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS promoted (
	shape TEXT PRIMARY KEY,
	name TEXT NOT NULL,
	ts TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS checks (
	id INTEGER PRIMARY KEY,
	at TEXT NOT NULL
);
` + talliesTable + `;`

// Store is the log's database, with the journal ingested.
type Store struct {
	db *sql.DB
	b  backend // nil: SQLite
	// Partial says the database could not be used: the store holds only
	// the journal's records, in memory.
	Partial bool
	// ReadOnly says the log's folder or database cannot be written (a
	// read-only home): the database is read as it is, without the records
	// not yet in it.
	ReadOnly bool
	// TemplateExists, when set, says whether a template of the name exists
	// (in the folders the caller reads and saves to, or built in): the
	// names Stats suggests avoid them.
	TemplateExists func(name string) bool

	shared  bool        // the pool of a team database, kept open for the process
	log     *Log        // the log the database is rebuilt from; nil when it cannot be
	file    os.FileInfo // the database file opened: another reader may have set it aside
	rebuilt bool        // a store rebuilds its database once at most
}

// Close closes the database.
func (s *Store) Close() error {
	if s.db == nil || s.shared {
		return nil
	}
	return s.db.Close()
}

func (l *Log) dbPath() string { return filepath.Join(l.dir, dbName) }

func (l *Log) busy() time.Duration {
	if l.BusyTimeout <= 0 {
		return 5 * time.Second
	}
	return l.BusyTimeout
}

// Read ingests the journal into the database and opens it for reading.
//
// A damaged database (SQLite finds it malformed, or it is not a database)
// is set aside as responses.db.corrupt-TIME, with a warning naming both
// files, and a new one is built from the rows still readable in it and
// the journal: the journal's files are removed only once their records are
// committed to a database that passes a check. A read-only folder or
// database is read as it is (ReadOnly), with a warning when records wait
// that could not be moved in. A locked or otherwise unusable database is
// not an error: Read warns and returns a store holding the journal's
// records in memory (Partial), leaving the journal for a later read.
//
// A log file that is not a regular file (a named pipe, a device, a socket,
// a directory, or a link to one) is an error naming it; nothing blocks on
// one.
func (l *Log) Read() (*Store, error) {
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return nil, err
	}
	path := l.dbPath()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := checkPath(p); err != nil {
			return nil, err
		}
	}
	journal := filepath.Join(l.dir, journalName)
	if fi, err := os.Stat(journal); err == nil && !fi.Mode().IsRegular() {
		return nil, notRegular(journal, fi)
	}
	if l.DatabaseErr != nil {
		return nil, l.DatabaseErr
	}
	if l.DatabaseURL != "" {
		return l.team()
	}
	if !writable(l.dir) || (exists(path) && !writable(path)) {
		return l.readOnly()
	}
	s, err := l.open()
	if err == nil {
		return s, nil
	}
	if readOnlyError(err) {
		return l.readOnly()
	}
	l.warn("the database %s cannot be used (%v): answering from the records not yet in it; move the file aside to start a new one", path, err)
	return l.memory()
}

// open opens the database and ingests the journal, rebuilding a damaged
// database.
func (l *Log) open() (*Store, error) {
	s := &Store{log: l}
	err := s.connect()
	if err == nil {
		_, err = s.fill("")
	}
	if damaged(err) {
		err = s.rebuild(err)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// memory is a store of the journal's records alone, in memory.
func (l *Log) memory() (*Store, error) {
	mem, err := openDB(":memory:", 0)
	if err != nil {
		return nil, err
	}
	if err := l.load(mem); err != nil {
		mem.Close()
		return nil, err
	}
	return &Store{db: mem, Partial: true}, nil
}

// readOnly opens the database read-only, as immutable (nothing can change
// it while the folder cannot be written), or without one the journal's
// records in memory; records waiting in the journal are left out, with a
// warning.
func (l *Log) readOnly() (*Store, error) {
	path := l.dbPath()
	waiting := l.waiting()
	if !exists(path) {
		s, err := l.memory()
		if err == nil {
			s.ReadOnly = true
		}
		return s, err
	}
	registerFTS()
	db, err := sql.Open("sqlite3", fileURI(path)+fmt.Sprintf("?mode=ro&immutable=1&_pragma=busy_timeout(%d)", l.busy().Milliseconds()))
	if err == nil {
		var v int
		if err = db.QueryRow("PRAGMA user_version").Scan(&v); err == nil && v != schemaVersion {
			err = fmt.Errorf("it has schema %d where this elicit reads %d, and cannot be upgraded while it is read-only", v, schemaVersion)
		}
		if err != nil {
			db.Close()
		}
	}
	if err != nil {
		l.warn("the database %s cannot be read (%v): answering from the records not yet in it", path, err)
		return l.memory()
	}
	if waiting > 0 {
		l.warn("%s cannot be written: read as it is; the records of %d journal file(s) not yet in %s could not be moved in, and these figures leave them out", l.dir, waiting, dbName)
	}
	return &Store{db: db, ReadOnly: true}, nil
}

// waiting counts the files of records not yet ingested: the files set
// aside and a journal that is not empty.
func (l *Log) waiting() int {
	files, _ := l.pending()
	n := len(files)
	if fi, err := os.Stat(filepath.Join(l.dir, journalName)); err == nil && fi.Size() > 0 {
		n++
	}
	return n
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// readOnlyError reports an error that says the database cannot be
// written.
func readOnlyError(err error) bool {
	return errors.Is(err, sqlite3.READONLY) || errors.Is(err, sqlite3.CANTOPEN) || errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}

// connect opens the database file, creating and upgrading it.
func (s *Store) connect() error {
	path := s.log.dbPath()
	db, err := openDB(path, s.log.busy())
	if err != nil {
		return err
	}
	s.db = db
	s.file, _ = os.Stat(path)
	return nil
}

// fileURI is path as an SQLite URI, without its query.
func fileURI(path string) string {
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(filepath.ToSlash(path))
}

// queryValue escapes a value for an SQLite URI's query.
func queryValue(v string) string {
	return strings.NewReplacer("%", "%25", "#", "%23", "&", "%26", "=", "%3d").Replace(v)
}

// openDB opens the database at path (or ":memory:"), creating it and its
// tables. Its files are the user's alone: the database is created 0600
// before SQLite opens it, its -wal takes the database's mode (modeof) and
// its -shm is created 0600 beforehand; older files are made 0600.
// Commits are synchronous: the journal's files are removed once their
// records are in, so a commit must outlive a crash.
func openDB(path string, busy time.Duration) (*sql.DB, error) {
	registerFTS()
	dsn := ":memory:"
	if path != ":memory:" {
		if err := prepare(path); err != nil {
			return nil, err
		}
		dsn = fmt.Sprintf("%s?modeof=%s&_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)",
			fileURI(path), queryValue(path), busy.Milliseconds())
	}
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, err
	}
	if path == ":memory:" {
		db.SetMaxOpenConns(1) // one connection is one in-memory database
	}
	if err := migrate(db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// prepare creates the database's files 0600 before SQLite does (it would
// make them 0644), and makes older ones 0600.
func prepare(path string) error {
	for _, p := range []string{path, path + "-shm"} {
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, fileMode)
		switch {
		case err == nil:
			f.Close()
		case !errors.Is(err, fs.ErrExist):
			return err
		}
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := private(p); err != nil {
			return err
		}
	}
	return nil
}

func migrate(db *sql.DB) error {
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v > schemaVersion {
		return fmt.Errorf("it was written by a newer elicit (schema %d, this one knows %d)", v, schemaVersion)
	}
	if _, err := db.Exec(schema); err != nil {
		return err
	}
	if v == 1 { // written before records had a form_id
		if _, err := db.Exec(`ALTER TABLE records ADD COLUMN form_id TEXT NOT NULL DEFAULT ''`); err != nil {
			return err
		}
	}
	if v == schemaVersion {
		return nil
	}
	if err := migrateLedger(db, v); err != nil {
		return err
	}
	if v > 0 && v < 4 { // written before the tallies
		if err := retallyDB(db); err != nil {
			return err
		}
	}
	_, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", schemaVersion))
	return err
}

// errMoved says the database file was set aside by another reader while
// this one had it open.
var errMoved = errors.New("the database was set aside by another reader")

// damagedError is a database that failed SQLite's check.
type damagedError struct{ detail string }

func (e *damagedError) Error() string { return "it fails SQLite's check: " + e.detail }

// damaged reports an error that says the database is damaged: SQLite
// found it malformed, or not a database, or it failed the check.
func damaged(err error) bool {
	var d *damagedError
	return errors.Is(err, sqlite3.CORRUPT) || errors.Is(err, sqlite3.NOTADB) || errors.As(err, &d) || errors.Is(err, errMoved)
}

// damage says what is wrong with a damaged database.
func damage(err error) string {
	switch {
	case errors.Is(err, sqlite3.NOTADB):
		return "it is not an SQLite database"
	case errors.Is(err, sqlite3.CORRUPT):
		return "SQLite finds it malformed"
	}
	return err.Error()
}

// checkAlways is the size up to which a database is checked before every
// ingest (a quick_check reads every page: about 4 ms a megabyte here);
// a bigger one is checked once every checkEvery. At a million records
// (500 MB) a check takes 3.6 s, which would be every stats call's after a
// collect; damage found by any read or write in between is handled as a
// failed check is (the database is rebuilt from what is readable in it).
var checkAlways int64 = 32 << 20 // a variable for the tests

const checkEvery = 24 * time.Hour

// checkDue says whether the database is to be checked before this ingest.
func (s *Store) checkDue() bool {
	if s.file == nil || s.file.Size() <= checkAlways {
		return true
	}
	var at string
	if err := s.db.QueryRow(`SELECT at FROM checks WHERE id = 1`).Scan(&at); err != nil {
		return true
	}
	last, err := time.Parse(time.RFC3339Nano, at)
	return err != nil || s.log.now().Sub(last) >= checkEvery || last.After(s.log.now())
}

// check runs SQLite's quick_check: the structure of every page, without
// the cost of comparing the indexes with the table.
func check(db *sql.DB) error {
	rows, err := db.Query("PRAGMA quick_check(5)")
	if err != nil {
		return err
	}
	defer rows.Close()
	var found []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		for _, part := range strings.Split(line, "\n") { // one line of the warning
			if part != "ok" && !strings.HasPrefix(part, "*** in database") {
				found = append(found, strings.Join(strings.Fields(part), " "))
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(found) > 0 {
		return &damagedError{strings.Join(found, "; ")}
	}
	return nil
}

// fill moves what waits into the database in one transaction: the rows
// still readable in a damaged database set aside (from, when not ""), and
// the records of the journal's files, with the log's retention applied.
// The database is checked first, and the files are removed only once the
// transaction is committed (and the database is still the one at the
// log's path): a damaged database never takes records with it, and is
// not written to before it is set aside. kept counts the rows
// read back from from, note says so.
func (s *Store) fill(from string) (note string, err error) {
	l := s.log
	if err := l.rotate(); err != nil {
		l.warn("%v", err)
	}
	files, err := l.pending()
	if err != nil || (len(files) == 0 && from == "") {
		return "", err
	}
	// Checked before anything is written to it: a write would change a
	// damaged database before it is set aside.
	checked := false
	if s.b == nil && s.checkDue() {
		if err := check(s.db); err != nil {
			return "", err
		}
		checked = true
	}
	tx, err := s.begin()
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	if checked {
		if _, err := tx.Exec(`INSERT INTO checks (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at`,
			l.now().UTC().Format(time.RFC3339Nano)); err != nil {
			return "", err
		}
	}
	if from != "" {
		if _, note, err = salvage(from, tx.Tx); err != nil {
			return "", err
		}
		if err := reindexDecisions(tx.Tx); err != nil {
			return "", err
		}
		if err := retally(tx); err != nil {
			return "", err
		}
	}
	ins, err := s.backend().inserter(tx)
	if err != nil {
		return note, err
	}
	var done []string
	for _, path := range files {
		f, err := openRead(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // another reader ingested it
		}
		if err != nil {
			l.warn("%v (left as it is)", err)
			continue
		}
		err = l.insert(ins, path, f)
		f.Close()
		if err != nil {
			return note, err
		}
		done = append(done, path)
	}
	if err := l.prune(tx); err != nil {
		return note, err
	}
	if err := tx.Commit(); err != nil {
		return note, err
	}
	if s.file != nil && !isPath(s.file, l.dbPath()) {
		return note, errMoved
	}
	for _, path := range done {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return note, err
		}
	}
	return note, nil
}

// rebuild sets a damaged database aside and builds a new one from the
// rows still readable in it and the journal's files. Another reader that
// set it aside first is left to it: this store then uses the new one.
func (s *Store) rebuild(cause error) error {
	l := s.log
	if l == nil || s.rebuilt {
		return cause
	}
	s.rebuilt = true
	unlock := l.lockDir()
	defer unlock()
	opened := s.file
	s.Close()
	s.db, s.file = nil, nil
	path := l.dbPath()
	aside := ""
	if cur, err := os.Stat(path); err == nil && (opened == nil || os.SameFile(opened, cur)) {
		aside = fmt.Sprintf("%s.corrupt-%s", path, time.Now().UTC().Format("20060102T150405.000000000Z"))
		if err := setAside(path, aside); err != nil {
			return fmt.Errorf("%w; setting it aside failed: %v", cause, err)
		}
	}
	if err := s.connect(); err != nil {
		return err
	}
	note, err := s.fill(aside)
	if err != nil {
		return err
	}
	if aside != "" {
		l.warn("the database %s is damaged (%s): it is set aside as %s; the new one holds %s and the journal's records",
			path, damage(cause), aside, note)
	}
	return nil
}

// setAside renames a damaged database (and its -wal) to aside, 0600, and
// removes its -shm, which SQLite rebuilds.
func setAside(path, aside string) error {
	if err := os.Rename(path, aside); err != nil {
		return err
	}
	if err := os.Chmod(aside, fileMode); err != nil {
		return err
	}
	if err := os.Rename(path+"-wal", aside+"-wal"); err == nil {
		os.Chmod(aside+"-wal", fileMode)
	}
	os.Remove(path + "-shm")
	return nil
}

// retry runs fn, and once more after rebuilding the database when fn found
// it damaged.
func (s *Store) retry(fn func() error) error {
	err := fn()
	if err == nil || !damaged(err) || s.log == nil || s.rebuilt {
		return err
	}
	if err := s.rebuild(err); err != nil {
		return err
	}
	return fn()
}

// prune applies the log's retention: records older than Keep go, with
// the definitions of hand-built forms last seen before then.
func (l *Log) prune(tx txn) error {
	if l.Keep <= 0 {
		return nil
	}
	return tx.b.prune(tx, l.now().Add(-l.Keep).UTC().Format(time.RFC3339Nano))
}

// load inserts the records of every pending file and of the live journal
// into an in-memory store, removing nothing.
func (l *Log) load(db *sql.DB) error {
	files, err := l.pending()
	if err != nil {
		return err
	}
	files = append(files, filepath.Join(l.dir, journalName))
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins, err := sqliteDB{}.inserter(txn{tx, sqliteDB{}})
	if err != nil {
		return err
	}
	for _, path := range files {
		f, err := openRead(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // another reader ingested it
		}
		if err != nil {
			return err
		}
		err = l.insert(ins, path, f)
		f.Close()
		if err != nil {
			return err
		}
	}
	return tx.Commit()
}

// insert adds one file's records to the transaction of ins; a record
// already in is skipped. A line that is not a record (torn by a writer that
// was killed, or longer than maxLine) is skipped with a warning, the rest
// kept: it never blocks the file.
func (l *Log) insert(ins inserter, path string, in io.Reader) error {
	bad, long := 0, 0
	err := eachLine(in, maxLine, func(line []byte) error {
		if line == nil {
			long++
			return nil
		}
		if line = bytes.TrimSpace(line); len(line) == 0 {
			return nil
		}
		r, ok := parseRecord(line)
		if !ok {
			bad++
			if r, ok = gluedRecord(line); !ok {
				return nil
			}
		}
		return ins.add(&r, r.Time.UTC().Format(time.RFC3339Nano))
	})
	if err == nil {
		err = ins.flush()
	}
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(path), err)
	}
	if bad+long > 0 {
		var why []string
		if bad > 0 {
			why = append(why, fmt.Sprintf("%d torn or not JSON", bad))
		}
		if long > 0 {
			why = append(why, fmt.Sprintf("%d longer than %d MiB", long, maxLine>>20))
		}
		l.warn("%s: skipped %d line(s) that are not records (%s); the other records are in",
			filepath.Base(path), bad+long, strings.Join(why, ", "))
	}
	return nil
}

func parseRecord(line []byte) (Record, bool) {
	var r Record
	err := json.Unmarshal(line, &r)
	return r, err == nil && r.ID != "" && r.Kind != ""
}

// gluedRecord finds a whole record at the end of a line that is not one:
// an older elicit appended records right after a torn line, on the same
// line. Records start with their id.
func gluedRecord(line []byte) (Record, bool) {
	start := []byte(`{"id":`)
	for i := 1; i < len(line); {
		j := bytes.Index(line[i:], start)
		if j < 0 {
			break
		}
		if r, ok := parseRecord(line[i+j:]); ok {
			return r, true
		}
		i += j + 1
	}
	return Record{}, false
}

// eachLine calls fn with each line of in, its newline left out. A line
// longer than max is not kept in memory: fn gets nil for it.
func eachLine(in io.Reader, max int, fn func(line []byte) error) error {
	br := bufio.NewReaderSize(in, 64<<10)
	var buf []byte
	size := 0
	for {
		chunk, err := br.ReadSlice('\n')
		if size += len(chunk); size <= max+1 {
			buf = append(buf, chunk...)
		} else {
			buf = buf[:0]
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return err
		}
		if size > 0 {
			line := bytes.TrimSuffix(buf, []byte("\n"))
			if size > max+1 || (size == max+1 && len(line) == len(buf)) {
				line = nil
			}
			if err := fn(line); err != nil {
				return err
			}
		}
		if err != nil {
			return nil // io.EOF
		}
		buf, size = buf[:0], 0
	}
}
