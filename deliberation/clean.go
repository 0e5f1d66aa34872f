package deliberation

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/elicit/elicit/internal/infile"
)

// Cleaned says what Clean did.
type Cleaned struct {
	// Removed are the leftover files removed: temporary state files, and
	// transcripts with no record and no state file (a kill right after the
	// name was claimed).
	Removed []string `json:"removed,omitempty"`
	// Restored are the deliberations whose state file a kill during start
	// never wrote, written now from their transcripts.
	Restored []string `json:"restored,omitempty"`
	// Kept are leftovers that could not be made sense of (a transcript
	// without a state file whose records do not replay), kept for a person
	// to look at.
	Kept []string `json:"kept,omitempty"`
}

// Clean removes what kills left in the store's directory and completes
// what they cut short: temporary state files (a kill between writing and
// renaming) are removed, a transcript with no record and no state file is
// removed, and one with records but no state file gets its state file,
// rebuilt from it. Each deliberation is handled under its lock, so one in
// use is never touched halfway.
func (st *Store) Clean() (*Cleaned, error) {
	if st.sh != nil {
		return &Cleaned{}, nil // a step is a transaction: it leaves nothing behind
	}
	des, err := os.ReadDir(st.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return &Cleaned{}, nil
	}
	if err != nil {
		return nil, err
	}
	names := make(map[string]bool, len(des))
	for _, de := range des {
		names[de.Name()] = true
	}
	c := &Cleaned{}
	temps := map[string]bool{}
	for _, de := range des {
		name := de.Name()
		if rest, ok := strings.CutPrefix(name, "."+statePrefix); ok {
			if id, _, ok := strings.Cut(rest, ".json.tmp-"); ok && validID(id) {
				temps[id] = true
			}
			continue
		}
		id, ok := idOf(name, transcriptPrefix, ".jsonl")
		if ok && !names[statePrefix+id+".json"] {
			st.cleanOrphan(id, c)
		}
	}
	for id := range temps {
		st.cleanTemps(id, c)
	}
	return c, nil
}

// cleanOrphan handles a transcript without a state file.
func (st *Store) cleanOrphan(id string, c *Cleaned) {
	lock, err := st.openLocked(id, 0)
	if err != nil {
		return
	}
	defer lock.Close()
	if _, err := os.Stat(st.StatePath(id)); err == nil {
		return // written meanwhile
	}
	data, err := infile.ReadFile(st.TranscriptPath(id), transcriptInput)
	if err != nil {
		c.Kept = append(c.Kept, st.TranscriptPath(id))
		return
	}
	if len(bytes.TrimSpace(data)) == 0 {
		if os.Remove(st.TranscriptPath(id)) == nil {
			c.Removed = append(c.Removed, st.TranscriptPath(id))
		}
		return
	}
	s, dirty, err := st.current(id, lock)
	if err != nil || !dirty {
		c.Kept = append(c.Kept, st.TranscriptPath(id))
		return
	}
	if st.save(id, s) == nil {
		c.Restored = append(c.Restored, id)
	}
}

// cleanTemps removes id's temporary state files under its lock (none is
// being written then).
func (st *Store) cleanTemps(id string, c *Cleaned) {
	if lock, err := st.openLocked(id, 0); err == nil {
		defer lock.Close()
	}
	for _, name := range st.removeTemps(id) {
		c.Removed = append(c.Removed, filepath.Join(st.dir, filepath.Base(name)))
	}
}
