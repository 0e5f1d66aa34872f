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
	"time"

	_ "github.com/ncruces/go-sqlite3/driver" // SQLite translated to pure Go (no cgo, no init cost); driver "sqlite3"
)

// schemaVersion is the database's PRAGMA user_version: 2 added the
// records' form_id, 3 their project and user and the decision ledger.
const schemaVersion = 3

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
	user TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS records_kind ON records (kind, ts);
CREATE INDEX IF NOT EXISTS records_response ON records (response_id);
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
);`

// Store is the log's database, with the journal ingested.
type Store struct {
	db *sql.DB
	// Partial says the database could not be used: the store holds only
	// the journal's records, in memory.
	Partial bool
	// TemplateExists, when set, says whether a template of the name exists
	// (in the folders the caller reads and saves to, or built in): the
	// names Stats suggests avoid them.
	TemplateExists func(name string) bool
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Read ingests the journal into the database and opens it for reading. A
// locked or broken database is not an error: Read warns and returns a
// store holding the journal's records in memory (Partial), leaving the
// journal for a later read.
func (l *Log) Read() (*Store, error) {
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return nil, err
	}
	busy := l.BusyTimeout
	if busy <= 0 {
		busy = 5 * time.Second
	}
	db, err := openDB(filepath.Join(l.dir, dbName), busy)
	if err == nil {
		if err = l.ingest(db); err == nil {
			return &Store{db: db}, nil
		}
		db.Close()
	}
	l.warn("the database %s cannot be used (%v): answering from the records not yet in it; move the file aside to start a new one", filepath.Join(l.dir, dbName), err)
	mem, merr := openDB(":memory:", 0)
	if merr != nil {
		return nil, merr
	}
	if merr := l.load(mem, false); merr != nil {
		mem.Close()
		return nil, merr
	}
	return &Store{db: mem, Partial: true}, nil
}

func openDB(path string, busy time.Duration) (*sql.DB, error) {
	registerFTS()
	dsn := fmt.Sprintf("file:%s?_pragma=busy_timeout(%d)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)", path, busy.Milliseconds())
	if path == ":memory:" {
		dsn = ":memory:"
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
	if err := migrateLedger(db, v); err != nil {
		return err
	}
	_, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", schemaVersion))
	return err
}

// ingest moves the journal into the database.
func (l *Log) ingest(db *sql.DB) error {
	if err := l.rotate(); err != nil {
		l.warn("%v", err)
	}
	return l.load(db, true)
}

// load inserts the records of every pending file (and, for an in-memory
// store, of the live journal too); with remove, each file is removed once
// its records are in.
func (l *Log) load(db *sql.DB, remove bool) error {
	files, err := l.pending()
	if err != nil {
		return err
	}
	if !remove {
		files = append(files, filepath.Join(l.dir, journalName))
	}
	for _, path := range files {
		f, err := os.Open(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue // another reader ingested it
		}
		if err != nil {
			return err
		}
		err = l.insert(db, path, f)
		f.Close()
		if err != nil {
			return err
		}
		if remove {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// insert adds one file's records in one transaction; a record already in
// is skipped. A line that is not a record (torn by a writer that was
// killed, or longer than maxLine) is skipped with a warning, the rest kept:
// it never blocks the file.
func (l *Log) insert(db *sql.DB, path string, in io.Reader) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	rec, err := tx.Prepare(`INSERT OR IGNORE INTO records (id, ts, kind, template_id, shape, title, host, host_version, via,
		surface, reason, fields, inferred, kept, response_id, responses, problems, form_id, project, user) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	shape, err := tx.Prepare(`INSERT INTO shapes (shape, title, form, last_seen) VALUES (?,?,?,?)
		ON CONFLICT (shape) DO UPDATE SET title = excluded.title, form = excluded.form, last_seen = excluded.last_seen
		WHERE excluded.last_seen >= shapes.last_seen`)
	if err != nil {
		return err
	}
	bad, long := 0, 0
	err = eachLine(in, maxLine, func(line []byte) error {
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
		ts := r.Time.UTC().Format(time.RFC3339Nano)
		if _, err := rec.Exec(r.ID, ts, r.Kind, r.TemplateID, r.Shape, r.Title, r.Host, r.HostVersion, r.Via,
			r.Surface, r.Reason, r.Fields, r.Inferred, r.Kept, r.ResponseID, string(r.Responses), r.Problems, r.FormID, r.Project, r.User); err != nil {
			return err
		}
		if err := addDecision(tx, &r, ts); err != nil {
			return err
		}
		if len(r.Form) > 0 {
			if _, err := shape.Exec(r.Shape, r.Title, string(r.Form), ts); err != nil {
				return err
			}
		}
		return nil
	})
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
	return tx.Commit()
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
