package deliberation

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/elicit/elicit/internal/config"
	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/problem"
)

// Clock tells the time; tests pass a fixed one.
type Clock interface{ Now() time.Time }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// File names: the seed's codex-ask-state-YYYYMMDD-HHMMSS.json, a suffix
// (-2, -3, ...) on a same-second collision, and the transcript beside it.
const (
	statePrefix      = "codex-ask-state-"
	transcriptPrefix = "codex-ask-transcript-"
	idLayout         = "20060102-150405"
)

// validID accepts the seed's timestamp (with the milliseconds variant of
// its recovery example) and elicit's collision suffix, nothing that could
// leave the directory.
// It is `^[0-9]{8}-[0-9]{6}(?:[0-9]{3})?(?:-[0-9]+)?$` in plain code, so
// that nothing is compiled at package initialisation.
func validID(id string) bool {
	if len(id) < len("20060102-150405") || !digits(id[:8]) || id[8] != '-' {
		return false
	}
	clock, suffix, hasSuffix := strings.Cut(id[9:], "-")
	return (len(clock) == 6 || len(clock) == 9) && digits(clock) && (!hasSuffix || suffix != "" && digits(suffix))
}

// digits reports whether s is ASCII digits only (true when empty).
func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// DefaultDir is $ELICIT_HOME/deliberations, or ~/.elicit/deliberations.
func DefaultDir(getenv func(string) string) (string, error) {
	home, err := config.Home(getenv)
	if err != nil {
		return "", fmt.Errorf("deliberation store: %w", err)
	}
	return filepath.Join(home, "deliberations"), nil
}

// StoreOptions configure a Store; nil means the defaults.
type StoreOptions struct {
	// Clock stamps states and names files; nil is the system clock.
	Clock Clock
	// Shared keeps the deliberations in a database shared by several
	// processes instead of the folder (which is then only named).
	Shared Shared
}

// Store keeps one state file per deliberation in a directory, written
// atomically (temp file, fsync, rename, fsync of the directory) under a
// per-deliberation lock, with a JSON-lines transcript beside it. The
// transcript file is also the lock: it is only ever appended to, never
// replaced, so a flock on it holds across the state file's renames.
type Store struct {
	dir   string
	clock Clock
	sh    Shared
	// scratch: a step's private copy of a shared database's files (see
	// onShared), never synced to the disk.
	scratch bool
}

// NewStore returns a store over dir (created on first write).
func NewStore(dir string, opts *StoreOptions) *Store {
	st := &Store{dir: dir, clock: systemClock{}}
	if opts != nil && opts.Clock != nil {
		st.clock = opts.Clock
	}
	if opts != nil && opts.Shared != nil {
		st.sh = opts.Shared
		registerShared(st.sh)
	}
	return st
}

// In returns a store over dir with st's options.
func (st *Store) In(dir string) *Store {
	return &Store{dir: dir, clock: st.clock, sh: st.sh}
}

// Dir is the store's directory.
func (st *Store) Dir() string { return st.dir }

// StatePath is the state file of deliberation id.
func (st *Store) StatePath(id string) string {
	return filepath.Join(st.dir, statePrefix+id+".json")
}

// TranscriptPath is the transcript of deliberation id.
func (st *Store) TranscriptPath(id string) string {
	return filepath.Join(st.dir, transcriptPrefix+id+".jsonl")
}

// parseID accepts an ID or a state file name (or path) and returns the ID.
// A path's folder is not kept: ParseRef keeps it.
func parseID(arg string) (string, error) {
	_, id, err := ParseRef(arg)
	return id, err
}

// ParseRef accepts an ID, a state file name, or a state file's path, and
// returns the folder the path names ("" for an ID or a bare name) and the
// ID. A caller acts on the deliberation in that folder, or refuses it;
// never on the same ID in another folder.
func ParseRef(arg string) (dir, id string, err error) {
	id = strings.TrimSuffix(strings.TrimPrefix(filepath.Base(arg), statePrefix), ".json")
	if !validID(id) {
		return "", "", problem.List{{Path: "id", Message: fmt.Sprintf("%q is not a deliberation ID (YYYYMMDD-HHMMSS, as in codex-ask-state-YYYYMMDD-HHMMSS.json)", arg)}}
	}
	if strings.ContainsRune(arg, '/') || strings.ContainsRune(arg, filepath.Separator) {
		dir = filepath.Dir(arg)
	}
	return dir, id, nil
}

// Record is one line of the transcript.
type Record struct {
	Time      string          `json:"time"`
	Kind      string          `json:"kind"` // start, response, evaluation, abandon
	Iteration int             `json:"iteration"`
	Text      string          `json:"text,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
}

// Start creates a deliberation, saves it and returns its ID and state.
func (st *Store) Start(question string, opts *StartOptions) (string, *State, error) {
	if st.sh != nil {
		type started struct {
			id string
			s  *State
		}
		out, err := sharedStart(st, func(v *Store) (started, []string, error) {
			id, s, err := v.Start(question, opts)
			return started{id, s}, []string{id}, err
		})
		return out.id, out.s, err
	}
	now := st.clock.Now()
	s, err := New(question, opts, now)
	if err != nil {
		return "", nil, err
	}
	if err := os.MkdirAll(st.dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("deliberation store: %w", err)
	}
	id, lock, err := st.reserve(now)
	if err != nil {
		return "", nil, err
	}
	defer lock.Close()
	s.Transcript = filepath.Base(st.TranscriptPath(id))
	start, err := json.Marshal(startData{Question: question, Options: startOptions(opts)})
	if err != nil {
		return "", nil, fmt.Errorf("deliberation store: %w", err)
	}
	rec := Record{Kind: "start", Iteration: 1, Text: s.Next.Prompt, Data: start}
	if err := st.commit(id, lock, now, s, []Record{rec}); err != nil {
		if info, serr := lock.Stat(); serr == nil && info.Size() == 0 {
			os.Remove(st.TranscriptPath(id)) // nothing was written: no deliberation
		}
		return "", nil, err
	}
	return id, s, nil
}

// reserve claims a fresh ID by creating its transcript exclusively, and
// returns it open and locked.
func (st *Store) reserve(now time.Time) (string, *os.File, error) {
	base := now.UTC().Format(idLayout)
	for n := 1; n < 1000; n++ {
		id := base
		if n > 1 {
			id = fmt.Sprintf("%s-%d", base, n)
		}
		if _, err := os.Stat(st.StatePath(id)); err == nil {
			continue
		}
		f, err := os.OpenFile(st.TranscriptPath(id), os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", nil, fmt.Errorf("deliberation store: %w", err)
		}
		if err := lockFile(f); err != nil {
			f.Close()
			return "", nil, err
		}
		return id, f, nil
	}
	return "", nil, fmt.Errorf("deliberation store: no free name for %s", base)
}

// Load reads and strictly decodes the state of id, brought up to date with
// its transcript: records a crash left behind the state (the transcript is
// written first) are applied, and a deliberation whose state file a crash
// never wrote is rebuilt from its transcript; nothing is written. A
// corrupted or foreign file is reported with what is wrong and left
// untouched.
func (st *Store) Load(id string) (*State, error) {
	if st.sh != nil {
		return st.loadShared(id)
	}
	s, _, err := st.current(id, nil)
	return s, err
}

// unreadableState names the state file in every problem and says, after
// the last one, that the state can be rebuilt from the transcript.
func unreadableState(path, id string, probs problem.List) problem.List {
	out := prefixed(path, probs)
	if n := len(out); n > 0 {
		out[n-1].Message += "; rebuild the state file from its transcript"
		out[n-1] = restorable(id, out[n-1])
	}
	return out
}

// prefixed names the file in every problem.
func prefixed(path string, probs problem.List) problem.List {
	out := make(problem.List, len(probs))
	for i, p := range probs {
		out[i] = problem.Problem{Path: path + ": " + p.Path, Message: p.Message}
		if p.Path == "" {
			out[i].Path = path
		}
	}
	return out
}

// Update runs fn on the state of id under the lock, appends fn's records
// to the transcript (stamped with the time fn was given, and synced), then
// saves the state atomically. The transcript is written first, so a crash
// between the two leaves records the next Load applies again: fn's change
// to the state must follow from its records (Replay runs them). When fn
// fails nothing is written.
func (st *Store) Update(id string, fn func(s *State, now time.Time) ([]Record, error)) (*State, error) {
	if st.sh != nil {
		return sharedWrite(st, id, func(v *Store) (*State, error) { return v.Update(id, fn) })
	}
	lock, err := st.lock(id)
	if err != nil {
		return nil, err
	}
	defer lock.Close()
	s, dirty, err := st.current(id, lock)
	if err != nil {
		return nil, err
	}
	now := st.clock.Now()
	recs, err := fn(s, now)
	if err != nil {
		if dirty {
			// keep what the transcript brought, even though fn refused
			if serr := st.save(id, s); serr != nil {
				return nil, errors.Join(err, serr)
			}
		}
		return nil, err
	}
	if err := st.commit(id, lock, now, s, recs); err != nil {
		return nil, err
	}
	return s, nil
}

// lock opens (creating if need be: a state file of the original skill has
// none) and locks the transcript of an existing deliberation; a transcript
// whose state file a crash never wrote counts.
func (st *Store) lock(id string) (*os.File, error) {
	if _, err := os.Stat(st.StatePath(id)); errors.Is(err, fs.ErrNotExist) {
		f, err := st.openLocked(id, 0)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, problem.List{{Path: "id", Message: fmt.Sprintf("no deliberation %s in %s", id, st.dir)}}
		}
		return f, err
	}
	return st.openLocked(id, os.O_CREATE)
}

// lockTranscript locks the transcript of id, which must exist.
func (st *Store) lockTranscript(id string) (*os.File, error) {
	f, err := st.openLocked(id, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, problem.List{{Path: "id", Message: fmt.Sprintf("no transcript for %s in %s", id, st.dir)}}
	}
	return f, err
}

func (st *Store) openLocked(id string, create int) (*os.File, error) {
	// A transcript that is not a regular file (a FIFO would block the open)
	// is refused before it is opened.
	if fi, err := os.Lstat(st.TranscriptPath(id)); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("deliberation store: %w", &infile.NotRegularError{Name: st.TranscriptPath(id), Mode: fi.Mode()})
	}
	f, err := os.OpenFile(st.TranscriptPath(id), create|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("deliberation store: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (st *Store) save(id string, s *State) error {
	data, err := st.encodeState(id, s)
	if err != nil {
		return err
	}
	return st.writeAtomic(st.StatePath(id), data)
}

// encodeState is s as its state file. A state over MaxStateFile is
// refused: it could never be read back.
func (st *Store) encodeState(id string, s *State) ([]byte, error) {
	s.normalize()
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("deliberation store: %w", err)
	}
	data = append(data, '\n')
	if len(data) > MaxStateFile {
		return nil, tooLong(st.StatePath(id), int64(len(data)), stateInput)
	}
	return data, nil
}

// tooLong is the refusal of a write that would make a file larger than
// the cap it is read with.
func tooLong(path string, n int64, l infile.Limit) error {
	return problem.List{{Path: path, Message: fmt.Sprintf("would grow to %d bytes, over the cap of %d MiB for %s, and could not be read back: the step is refused and nothing was written (synthesize the deliberation now, or start a new one on what is left)", n, l.Max>>20, l.What)}}
}

// commit appends recs to the transcript (open and locked as lock), then
// writes s, which includes them. A transcript or state that would grow
// past the cap it is read with is refused before anything is written.
func (st *Store) commit(id string, lock *os.File, now time.Time, s *State, recs []Record) error {
	var buf []byte
	for _, r := range recs {
		r.Time = now.UTC().Format(time.RFC3339)
		line, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("deliberation transcript: %w", err)
		}
		buf = append(append(buf, line...), '\n')
	}
	info, err := lock.Stat()
	if err != nil {
		return fmt.Errorf("deliberation transcript: %w", err)
	}
	end := info.Size() + int64(len(buf))
	if end > MaxTranscript {
		return tooLong(st.TranscriptPath(id), end, transcriptInput)
	}
	s.TranscriptOffset = end
	data, err := st.encodeState(id, s)
	if err != nil {
		return err
	}
	if len(buf) > 0 {
		if _, err := lock.Write(buf); err != nil {
			return fmt.Errorf("deliberation transcript %s: %w", lock.Name(), err)
		}
		if err := st.sync(lock); err != nil {
			return fmt.Errorf("deliberation transcript %s: %w", lock.Name(), err)
		}
	}
	return st.writeAtomic(st.StatePath(id), data)
}

// writeAtomic replaces path with data: a temp file in the same directory,
// fsync, rename, fsync of the directory. A crash leaves the old file or
// the new one, never a mix.
func (st *Store) writeAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("deliberation store: %w", err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err == nil {
		err = st.sync(tmp)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("deliberation store: %w", err)
	}
	if st.scratch {
		return nil
	}
	return syncDir(dir)
}

// sync flushes f to the disk, unless st is a step's private copy, whose
// files are stored by the step's transaction.
func (st *Store) sync(f *os.File) error {
	if st.scratch {
		return nil
	}
	return f.Sync()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("deliberation store: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("deliberation store: sync %s: %w", dir, err)
	}
	return nil
}

func orActive(s Status) Status {
	if s == "" {
		return StatusActive
	}
	return s
}

// Prune removes the deliberations of any status (state file and
// transcript) last updated more than olderThan ago and returns their IDs,
// after cleaning what kills left behind (Clean). Files that cannot be read
// are never removed. olderThan must be positive: zero would remove every
// deliberation, the active ones in use included.
func (st *Store) Prune(olderThan time.Duration) ([]string, error) {
	if olderThan <= 0 {
		return nil, problem.List{{Path: "older_than", Message: fmt.Sprintf("is %s, want a positive age such as 72h (zero or less would remove every deliberation, active ones included)", olderThan)}}
	}
	if _, err := st.Clean(); err != nil {
		return nil, err
	}
	entries, err := st.List()
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		if e.Error != "" || e.UpdatedAt == "" || e.Age <= olderThan {
			continue
		}
		if err := st.remove(e.ID); err != nil {
			return removed, err
		}
		removed = append(removed, e.ID)
	}
	return removed, nil
}

func (st *Store) remove(id string) error {
	if st.sh != nil {
		_, err := sharedWrite(st, id, func(v *Store) (struct{}, error) { return struct{}{}, v.remove(id) })
		return err
	}
	lock, err := st.lock(id)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := os.Remove(st.StatePath(id)); err != nil {
		return fmt.Errorf("deliberation store: %w", err)
	}
	if err := os.Remove(st.TranscriptPath(id)); err != nil {
		return fmt.Errorf("deliberation store: %w", err)
	}
	// A council goes with its first member, whose ID it has.
	for _, name := range []string{st.CouncilPath(id), filepath.Join(st.dir, "."+councilPrefix+id+".lock")} {
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("deliberation store: %w", err)
		}
	}
	return nil
}
