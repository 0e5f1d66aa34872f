package deliberation

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/elicit/elicit/internal/infile"
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
	Owner           string        `json:"owner,omitempty"`
	Age             time.Duration `json:"-"`
	AgeSeconds      int64         `json:"age_seconds"`
	// Error says why the file could not be read (it is left untouched).
	Error string `json:"error,omitempty"`
	// Restorable says that rebuilding the state from its transcript mends
	// what Error says (see RestoreError); NameRestores names how.
	Restorable bool `json:"-"`
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
	if st.sh != nil {
		return onShared(st, SharedQuery{Prefixes: []string{statePrefix}}, func(v *Store) ([]Entry, []string, error) {
			entries, err := v.List()
			for i := range entries {
				entries[i].StateFile = st.StatePath(entries[i].ID)
				entries[i].Error = strings.ReplaceAll(entries[i].Error, v.dir, st.dir)
			}
			return entries, nil, err
		})
	}
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
	// The directory is sorted by file name, which is not the order of the
	// IDs ("X-2.json" sorts before "X.json"): the state files and the
	// transcripts are sorted by ID first, like the cache, so that one walk
	// pairs each state file with its cached entry and another finds the
	// transcripts without one.
	var states, transcripts []namedEntry
	for _, de := range des {
		if id, ok := idOf(de.Name(), transcriptPrefix, ".jsonl"); ok {
			transcripts = append(transcripts, namedEntry{id, de})
		} else if id, ok := idOf(de.Name(), statePrefix, ".json"); ok {
			states = append(states, namedEntry{id, de})
		}
	}
	byID := func(a, b namedEntry) int { return compareIDs(a.id, b.id) }
	slices.SortFunc(states, byID)
	slices.SortFunc(transcripts, byID)
	fresh := make([]cachedEntry, 0, len(states))
	next := 0
	for _, se := range states {
		info, err := se.de.Info()
		if err != nil {
			continue
		}
		for next < len(cache) && compareIDs(cache[next].ID, se.id) < 0 {
			next++
		}
		size, mtime := info.Size(), info.ModTime().UnixNano()
		if next < len(cache) && cache[next].ID == se.id && cache[next].Size == size && cache[next].MTime == mtime {
			fresh = append(fresh, cache[next])
			continue
		}
		fresh = append(fresh, cachedEntry{Size: size, MTime: mtime, Entry: st.entry(se.id)})
	}
	if orphans := st.orphans(transcripts, states); len(orphans) > 0 {
		fresh = append(fresh, orphans...)
		slices.SortFunc(fresh, func(a, b cachedEntry) int { return compareIDs(a.ID, b.ID) })
	}
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

// namedEntry is a state file or transcript of the directory and its ID.
type namedEntry struct {
	id string
	de fs.DirEntry
}

// orphans are the transcripts with records but no state file (a crash
// during start), listed as restorable; both lists are sorted by ID.
func (st *Store) orphans(transcripts, states []namedEntry) []cachedEntry {
	var out []cachedEntry
	next := 0
	for _, te := range transcripts {
		for next < len(states) && compareIDs(states[next].id, te.id) < 0 {
			next++
		}
		if next < len(states) && states[next].id == te.id {
			continue
		}
		if info, err := te.de.Info(); err != nil || info.Size() == 0 {
			continue
		}
		out = append(out, cachedEntry{Size: -1, Entry: Entry{ID: te.id, StateFile: st.StatePath(te.id),
			Error: "no state file; rebuild it from the transcript", Restorable: true}})
	}
	return out
}

// compareIDs orders deliberation IDs oldest first: by their time, then by
// their collision suffix as a number (none, -2, -3, ..., -10), then as
// text, so that distinct IDs never compare equal.
func compareIDs(a, b string) int {
	at, an := splitID(a)
	bt, bn := splitID(b)
	if c := strings.Compare(at, bt); c != 0 {
		return c
	}
	an, bn = strings.TrimLeft(an, "0"), strings.TrimLeft(bn, "0")
	if c := cmp.Compare(len(an), len(bn)); c != 0 {
		return c
	}
	if c := strings.Compare(an, bn); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// splitID splits an ID into its time and its collision suffix ("1" when
// it has none).
func splitID(id string) (time, suffix string) {
	if len(id) < 9 {
		return id, "1"
	}
	clock, suffix, ok := strings.Cut(id[9:], "-")
	if !ok {
		suffix = "1"
	}
	return id[:9] + clock, suffix
}

// entry reads the summary of id's state file.
func (st *Store) entry(id string) Entry {
	e := Entry{ID: id, StateFile: st.StatePath(id)}
	data, err := infile.ReadFile(e.StateFile, stateInput)
	if err == nil {
		var s *State
		if s, err = decodeState(data); err == nil {
			e.Status, e.Mode, e.Iteration, e.Phase = orActive(s.Status), s.Mode, s.Iteration, s.Phase
			e.ExitReason, e.QuestionExcerpt, e.UpdatedAt, e.Owner = s.ExitReason, s.QuestionExcerpt, s.UpdatedAt, s.Owner
			return e
		}
		var probs problem.List
		if errors.As(err, &probs) {
			err = unreadableState(e.StateFile, id, probs)
		}
	} else if errors.Is(err, infile.ErrTooLarge) {
		err = &RestoreError{ID: id, Err: err}
	}
	var re *RestoreError
	e.Error, e.Restorable = err.Error(), errors.As(err, &re)
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

// The listing cache is text: a header line "elicit-list-cache 2 DIRTIME
// WRITTEN COUNT", then one line per entry, tab-separated: size, mtime,
// id, status, mode, iteration, phase, updated_at, exit_reason,
// question_excerpt, error, restorable (true or false) and owner, the texts
// quoted (Go syntax). It is rewritten in place under a lock (a new file
// would change the directory's time). A cache of another version counts
// as none.
const listCacheMagic = "elicit-list-cache 3"

// readListCache reads the cache; quiet reports that nothing changed in the
// directory since (its time is dirTime and was already so a while before
// the cache was written). A cache that does not parse counts as none.
func (st *Store) readListCache(dirTime int64) (cache []cachedEntry, quiet bool) {
	path := filepath.Join(st.dir, listCacheName)
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	if lockShared(f) != nil {
		return nil, false
	}
	info, err := f.Stat()
	if err != nil || info.Size() > maxListCache {
		return nil, false
	}
	buf := make([]byte, info.Size())
	if _, err := io.ReadFull(f, buf); err != nil {
		return nil, false
	}
	data := string(buf)
	head, body, _ := strings.Cut(data, "\n")
	var magic1, magic2 string
	var recorded, written int64
	var count int
	if _, err := fmt.Sscan(head, &magic1, &magic2, &recorded, &written, &count); err != nil || magic1+" "+magic2 != listCacheMagic || count < 0 || count > len(body) {
		return nil, false
	}
	cache = make([]cachedEntry, 0, count)
	prefix := filepath.Join(st.dir, statePrefix)
	for body != "" {
		var line string
		line, body, _ = strings.Cut(body, "\n")
		c, ok := parseCachedEntry(line)
		if !ok || (len(cache) > 0 && compareIDs(c.ID, cache[len(cache)-1].ID) <= 0) {
			return nil, false
		}
		c.StateFile = prefix + c.ID + ".json"
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

// parseCachedEntry parses one line of the cache: thirteen tab-separated
// fields.
func parseCachedEntry(line string) (cachedEntry, bool) {
	var f [13]string
	for i := range f {
		var ok bool
		f[i], line, ok = strings.Cut(line, "\t")
		if ok != (i < len(f)-1) {
			return cachedEntry{}, false
		}
	}
	var c cachedEntry
	var err [6]error
	c.Size, err[0] = strconv.ParseInt(f[0], 10, 64)
	c.MTime, err[1] = strconv.ParseInt(f[1], 10, 64)
	c.ID = f[2]
	c.Iteration, err[2] = strconv.Atoi(f[5])
	var text [7]string
	for i, j := range []int{3, 4, 6, 7, 8, 9, 10} {
		var e error
		if text[i], e = unquote(f[j]); e != nil {
			err[3] = e
		}
	}
	c.Status, c.Mode, c.Phase, c.UpdatedAt = Status(text[0]), Mode(text[1]), Phase(text[2]), text[3]
	c.ExitReason, c.QuestionExcerpt, c.Error = text[4], text[5], text[6]
	c.Restorable, err[4] = strconv.ParseBool(f[11])
	c.Owner, err[5] = unquote(f[12])
	return c, errors.Join(err[:]...) == nil && validID(c.ID)
}

// unquote is strconv.Unquote without an allocation for the empty string.
func unquote(s string) (string, error) {
	if s == `""` {
		return "", nil
	}
	return strconv.Unquote(s)
}

// writeListCache rewrites the cache in place; it is only a cache, so a
// failure is ignored (the next listing reads the state files again).
func (st *Store) writeListCache(dirTime int64, entries []cachedEntry) {
	f, err := os.OpenFile(filepath.Join(st.dir, listCacheName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	if lockFile(f) != nil || f.Truncate(0) != nil {
		return
	}
	w := bufio.NewWriterSize(f, 64<<10)
	fmt.Fprintf(w, "%s %d %d %d\n", listCacheMagic, dirTime, time.Now().UnixNano(), len(entries))
	var line []byte
	for _, c := range entries {
		line = strconv.AppendInt(line[:0], c.Size, 10)
		line = append(line, '\t')
		line = strconv.AppendInt(line, c.MTime, 10)
		line = append(append(line, '\t'), c.ID...)
		line = strconv.AppendQuote(append(line, '\t'), string(c.Status))
		line = strconv.AppendQuote(append(line, '\t'), string(c.Mode))
		line = strconv.AppendInt(append(line, '\t'), int64(c.Iteration), 10)
		line = strconv.AppendQuote(append(line, '\t'), string(c.Phase))
		line = strconv.AppendQuote(append(line, '\t'), c.UpdatedAt)
		line = strconv.AppendQuote(append(line, '\t'), c.ExitReason)
		line = strconv.AppendQuote(append(line, '\t'), c.QuestionExcerpt)
		line = strconv.AppendQuote(append(line, '\t'), c.Error)
		line = strconv.AppendBool(append(line, '\t'), c.Restorable)
		line = strconv.AppendQuote(append(line, '\t'), c.Owner)
		w.Write(append(line, '\n'))
	}
	w.Flush()
}
