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

// openJournal opens (creating it) the journal at path for appending.
func openJournal(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
}
