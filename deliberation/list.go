package deliberation

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/elicit/elicit/problem"
)

// Entry is one deliberation in a listing.
type Entry struct {
	ID              string        `json:"id"`
	StateFile       string        `json:"state_file"`
	Status          Status        `json:"status,omitempty"`
	Mode            Mode          `json:"mode,omitempty"`
	Iteration       int           `json:"iteration,omitempty"`
	Phase           Phase         `json:"phase,omitempty"`
	ExitReason      string        `json:"exit_reason,omitempty"`
	QuestionExcerpt string        `json:"question_excerpt,omitempty"`
	UpdatedAt       string        `json:"updated_at,omitempty"`
	Age             time.Duration `json:"-"`
	AgeSeconds      int64         `json:"age_seconds"`
	// Error says why the file could not be read (it is left untouched).
	Error string `json:"error,omitempty"`
}

// listCacheName is the listing cache: each state file's entry, keyed by
// the file's size and modification time, so that a listing reads only the
// state files that changed since the last one; and the directory's own
// modification time, so that a listing of a directory nothing was added
// to, renamed in or removed from since then reads no state file at all
// (every save renames its state file into place, which changes it).
const listCacheName = ".list-cache"

// listQuiet is how long before the cache was written the directory must
// have been left alone for its modification time to vouch for every
// entry: file times are coarse (a few milliseconds), so a change right
// after the directory was read could leave its time as it was.
const listQuiet = time.Second

// cachedEntry is one entry of the listing cache.
type cachedEntry struct {
	Size, MTime int64 // the state file's size and modification time
	Entry
}

// List returns every deliberation, oldest first. Unreadable files are
// listed with their error, and so is a transcript whose state file a crash
// never wrote. The listing cache spares reading the state files that did
// not change since the last listing.
func (st *Store) List() ([]Entry, error) {
	now := st.clock.Now()
	dirInfo, err := os.Stat(st.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("deliberation store: %w", err)
	}
	cache, quiet := st.readListCache(dirInfo.ModTime().UnixNano())
	if quiet {
		out := make([]Entry, len(cache))
		for i, c := range cache {
			out[i] = aged(c.Entry, now)
		}
		return out, nil
	}
	dirTime := dirInfo.ModTime().UnixNano()
	des, err := os.ReadDir(st.dir)
	if err != nil {
		return nil, fmt.Errorf("deliberation store: %w", err)
	}
	known := make(map[string]cachedEntry, len(cache))
	for _, c := range cache {
		known[c.ID] = c
	}
	var fresh []cachedEntry
	states := make(map[string]bool, len(des)/2)
	for _, de := range des {
		id, ok := idOf(de.Name(), statePrefix, ".json")
		if !ok {
			continue
		}
		states[id] = true
		info, err := de.Info()
		if err != nil {
			continue
		}
		c, hit := known[id]
		if !hit || c.Size != info.Size() || c.MTime != info.ModTime().UnixNano() {
			c = cachedEntry{Size: info.Size(), MTime: info.ModTime().UnixNano(), Entry: st.entry(id)}
		}
		fresh = append(fresh, c)
	}
	fresh = append(fresh, st.orphans(des, states)...)
	st.writeListCache(dirTime, fresh)
	out := make([]Entry, len(fresh))
	for i, c := range fresh {
		out[i] = aged(c.Entry, now)
	}
	return out, nil
}

// idOf is the deliberation ID of a file name with prefix and suffix.
func idOf(name, prefix, suffix string) (string, bool) {
	id, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return "", false
	}
	id, ok = strings.CutSuffix(id, suffix)
	return id, ok && validID(id)
}

// orphans are the transcripts with records but no state file (a crash
// during start): listed with the way to rebuild them.
func (st *Store) orphans(des []fs.DirEntry, states map[string]bool) []cachedEntry {
	var out []cachedEntry
	for _, de := range des {
		id, ok := idOf(de.Name(), transcriptPrefix, ".jsonl")
		if !ok || states[id] {
			continue
		}
		if info, err := de.Info(); err != nil || info.Size() == 0 {
			continue
		}
		out = append(out, cachedEntry{Size: -1, Entry: Entry{ID: id, StateFile: st.StatePath(id),
			Error: fmt.Sprintf("no state file; rebuild it from the transcript with: elicit deliberate recover %s --restore", id)}})
	}
	return out
}

// entry reads the summary of id's state file.
func (st *Store) entry(id string) Entry {
	e := Entry{ID: id, StateFile: st.StatePath(id)}
	data, err := os.ReadFile(e.StateFile)
	if err == nil {
		var s *State
		if s, err = DecodeState(data); err == nil {
			e.Status, e.Mode, e.Iteration, e.Phase = orActive(s.Status), s.Mode, s.Iteration, s.Phase
			e.ExitReason, e.QuestionExcerpt, e.UpdatedAt = s.ExitReason, s.QuestionExcerpt, s.UpdatedAt
			return e
		}
		var probs problem.List
		if errors.As(err, &probs) {
			err = prefixed(e.StateFile, probs)
		}
	}
	e.Error = err.Error()
	return e
}

// aged fills in an entry's age at time now.
func aged(e Entry, now time.Time) Entry {
	if t, err := time.Parse(time.RFC3339, e.UpdatedAt); err == nil {
		e.Age = now.Sub(t).Truncate(time.Second)
		e.AgeSeconds = int64(e.Age / time.Second)
	}
	return e
}

// The listing cache is text: a header line "elicit-list-cache 1 DIRTIME
// WRITTEN COUNT", then one line per entry, tab-separated: size, mtime,
// id, status, mode, iteration, phase, updated_at and, quoted, exit_reason,
// question_excerpt and error. It is rewritten in place under a lock (a new
// file would change the directory's time).
const listCacheMagic = "elicit-list-cache 1"

// readListCache reads the cache; quiet reports that nothing changed in the
// directory since (its time is dirTime and was already so a while before
// the cache was written). A cache that does not parse counts as none.
func (st *Store) readListCache(dirTime int64) (cache []cachedEntry, quiet bool) {
	f, err := os.Open(filepath.Join(st.dir, listCacheName))
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if lockShared(f) != nil {
		return nil, false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxListCache))
	if err != nil {
		return nil, false
	}
	head, body, _ := strings.Cut(string(data), "\n")
	var magic1, magic2 string
	var recorded, written int64
	var count int
	if _, err := fmt.Sscan(head, &magic1, &magic2, &recorded, &written, &count); err != nil || magic1+" "+magic2 != listCacheMagic {
		return nil, false
	}
	cache = make([]cachedEntry, 0, count)
	for line := range strings.SplitSeq(body, "\n") {
		if line == "" {
			continue
		}
		c, ok := parseCachedEntry(line)
		if !ok {
			return nil, false
		}
		c.StateFile = st.StatePath(c.ID)
		cache = append(cache, c)
	}
	if len(cache) != count {
		return nil, false
	}
	return cache, recorded == dirTime && time.Duration(written-recorded) >= listQuiet
}

// maxListCache bounds the listing cache read (about 2 KB an entry at
// most: 32,000 deliberations and more just skip the cache).
const maxListCache = 64 << 20

func parseCachedEntry(line string) (cachedEntry, bool) {
	f := strings.Split(line, "\t")
	if len(f) != 11 {
		return cachedEntry{}, false
	}
	var c cachedEntry
	var err [6]error
	c.Size, err[0] = strconv.ParseInt(f[0], 10, 64)
	c.MTime, err[1] = strconv.ParseInt(f[1], 10, 64)
	c.ID, c.Status, c.Mode, c.Phase, c.UpdatedAt = f[2], Status(f[3]), Mode(f[4]), Phase(f[6]), f[7]
	c.Iteration, err[2] = strconv.Atoi(f[5])
	c.ExitReason, err[3] = strconv.Unquote(f[8])
	c.QuestionExcerpt, err[4] = strconv.Unquote(f[9])
	c.Error, err[5] = strconv.Unquote(f[10])
	return c, errors.Join(err[:]...) == nil
}

// writeListCache rewrites the cache in place; it is only a cache, so a
// failure is ignored (the next listing reads the state files again).
func (st *Store) writeListCache(dirTime int64, entries []cachedEntry) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d %d %d\n", listCacheMagic, dirTime, time.Now().UnixNano(), len(entries))
	for _, c := range entries {
		fmt.Fprintf(&b, "%d\t%d\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", c.Size, c.MTime, c.ID, c.Status, c.Mode, c.Iteration, c.Phase,
			c.UpdatedAt, strconv.Quote(c.ExitReason), strconv.Quote(c.QuestionExcerpt), strconv.Quote(c.Error))
	}
	f, err := os.OpenFile(filepath.Join(st.dir, listCacheName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	if lockFile(f) != nil {
		return
	}
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(b.String()), 0)
	}
}
