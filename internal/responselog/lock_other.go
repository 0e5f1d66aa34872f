//go:build !unix

package responselog

import (
	"os"
	"time"
)

// lockWithin is a no-op where advisory locks are not available: appends
// rely on O_APPEND, and an ingest may then miss a record written while it
// renamed the journal.
func lockWithin(*os.File, time.Duration) (bool, error) { return true, nil }

// openJournal opens (creating it) the journal at path for appending, a
// regular file only.
func openJournal(path string) (*os.File, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, fileMode)
	if err != nil {
		return nil, err
	}
	return checkOpened(f, path)
}

// openRead opens a log file for reading, a regular file only.
func openRead(path string) (*os.File, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return checkOpened(f, path)
}

// writable is true where access(2) is not available: a read-only
// database shows itself when it is written.
func writable(string) bool { return true }

// lockDir is a no-op where advisory locks are not available.
func (l *Log) lockDir() func() { return func() {} }
