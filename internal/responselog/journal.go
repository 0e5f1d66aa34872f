package responselog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// File names under the log folder.
const (
	journalName = "journal.jsonl"
	dbName      = "responses.db"
	// Journals renamed aside for ingesting end in pendingExt; records a
	// writer could not append under the lock in time go to a file of their
	// own ending in sideExt.
	pendingExt = ".ingest"
	sideExt    = ".side.jsonl"
)

// lockWait is how long a writer waits for the journal's lock before it
// writes its record to a file of its own instead: writing never blocks
// longer than this.
const lockWait = 50 * time.Millisecond

// Log is the response log under a folder. A nil *Log records nothing.
type Log struct {
	dir string
	// Now gives the time of records; default time.Now.
	Now func() time.Time
	// Warn receives what went wrong while writing or reading; default
	// none. It is how errors reach people: they never reach the caller.
	Warn func(string)
	// BusyTimeout is how long a reader waits for a database another
	// process holds locked; default 5 seconds.
	BusyTimeout time.Duration
	// Keep is how long records are kept: when records are ingested,
	// those older than Keep are removed. 0 keeps every record. A team
	// database keeps every record.
	Keep time.Duration
	// DatabaseURL, when set (postgres://…), is the team database the
	// journal is ingested into and read from, instead of the folder's
	// SQLite file; each record appended goes in at once, or waits in the
	// journal while the database cannot be reached.
	DatabaseURL string
	// DatabaseErr, when set, is why the team database setting cannot be
	// used: a read returns it, and a record appended waits in the journal.
	DatabaseErr error
}

// Open returns the log in dir ($ELICIT_HOME/log). It touches nothing on
// disk until a record is written or read.
func Open(dir string) *Log { return &Log{dir: dir} }

// Dir is the log's folder.
func (l *Log) Dir() string { return l.dir }

func (l *Log) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

func (l *Log) warn(format string, args ...any) {
	if l.Warn != nil {
		l.Warn("response log: " + fmt.Sprintf(format, args...))
	}
}

// Append adds a record to the journal. It never fails and never blocks for
// long: a problem becomes a warning, and a journal locked for more than
// lockWait gets the record in a file of its own, ingested all the same.
func (l *Log) Append(r Record) {
	if l == nil {
		return
	}
	if r.ID == "" {
		r.ID = newID()
	}
	if r.Time.IsZero() {
		r.Time = l.now().UTC()
	}
	line := l.line(&r)
	if len(line) >= maxRecord {
		line = l.fit(&r, line)
	}
	if line == nil {
		return
	}
	if err := l.append(append(line, '\n')); err != nil {
		l.warn("%v (the record is lost; set ELICIT_LOG=off to stop logging)", err)
		return
	}
	switch {
	case l.DatabaseErr != nil:
		l.warn("%v; the record waits in %s and goes in at the next read", l.DatabaseErr, l.dir)
	case l.DatabaseURL != "":
		l.push()
	}
}

func (l *Log) append(line []byte) error {
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return err
	}
	path := filepath.Join(l.dir, journalName)
	for range 3 {
		f, err := openJournal(path)
		if err != nil {
			return err
		}
		locked, err := lockWithin(f, lockWait)
		if err != nil || !locked {
			f.Close()
			if err != nil {
				return err
			}
			return l.writeSide(line)
		}
		// An ingest may have renamed the journal away between open and
		// lock: then this file is being read, and the record belongs in
		// the new journal.
		fi, err := f.Stat()
		if err != nil || !isPath(fi, path) {
			f.Close()
			continue
		}
		_, err = f.Write(freshLine(f, fi.Size(), line))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	return l.writeSide(line)
}

// freshLine is line with a newline before it when f does not end in one
// (a writer killed mid-write left a torn line): the record starts a line of
// its own instead of being glued onto the torn one.
func freshLine(f *os.File, size int64, line []byte) []byte {
	if size == 0 {
		return line
	}
	var last [1]byte
	if _, err := f.ReadAt(last[:], size-1); err != nil || last[0] == '\n' {
		return line
	}
	return append([]byte{'\n'}, line...)
}

// samePath reports whether f is still the file at path.
func samePath(f *os.File, path string) bool {
	fi, err := f.Stat()
	return err == nil && isPath(fi, path)
}

// isPath reports whether fi describes the file at path.
func isPath(fi os.FileInfo, path string) bool {
	b, err := os.Stat(path)
	return err == nil && os.SameFile(fi, b)
}

// writeSide writes a record to a file of its own, complete before it gets
// the name readers look for.
func (l *Log) writeSide(line []byte) error {
	tmp, err := os.CreateTemp(l.dir, ".side-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(line)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), tmp.Name()+sideExt)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// rotate renames the journal aside for ingesting, under its lock, so that
// writers go on appending to a new one. It is a no-op when the journal is
// missing or empty.
func (l *Log) rotate() error {
	path := filepath.Join(l.dir, journalName)
	f, err := openRead(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	locked, err := lockWithin(f, time.Second)
	if err != nil {
		return err
	}
	if !locked {
		return errors.New("the journal stayed locked for a second; its records wait for the next read")
	}
	if fi, err := f.Stat(); err != nil || fi.Size() == 0 || !samePath(f, path) {
		return err
	}
	name := "journal-" + strconv.FormatInt(l.now().UnixNano(), 10) + "-" + strconv.Itoa(os.Getpid()) + pendingExt
	return os.Rename(path, filepath.Join(l.dir, name))
}

// pending lists the files waiting to be ingested, oldest first.
func (l *Log) pending() ([]string, error) {
	var out []string
	for _, pat := range []string{"*" + pendingExt, "*" + sideExt} {
		m, err := filepath.Glob(filepath.Join(l.dir, pat))
		if err != nil {
			return nil, err
		}
		out = append(out, m...)
	}
	return out, nil
}
