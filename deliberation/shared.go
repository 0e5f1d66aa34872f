package deliberation

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/elicit/elicit/problem"
)

// Shared is a database that keeps the deliberations of several processes
// (a team's server replicas, its members' command lines): the files a
// Store keeps in its folder (each deliberation's state file, transcript
// and council file) are rows there. A Store with Shared runs every step
// on a private copy of the files it touches and stores what changed in
// one transaction, holding the deliberations' locks for the whole step:
// no process sees a step half done, and a process that dies mid-step
// loses only that step, as a crash does with the files.
type Shared interface {
	// Step runs fn on the files the query names and, when fn succeeds
	// and the query locks, stores the changes fn returns, in one
	// transaction.
	Step(q SharedQuery, fn func(files []SharedFile) (*SharedChanges, error)) error
	// IDs are the deliberations whose ID starts with prefix.
	IDs(prefix string) ([]string, error)
	// NewLease names a consultation this process is about to run: its
	// lease is held while the process renews it (a heartbeat), and
	// lapses when the process is gone.
	NewLease() string
	// Alive reports whether lease is held (an error when the database
	// cannot tell); Ours whether this process holds it.
	Alive(lease string) (bool, error)
	Ours(lease string) bool
}

// SharedQuery names the files of a step.
type SharedQuery struct {
	// IDs are the deliberations whose files the step reads (nil: every
	// deliberation).
	IDs []string
	// Prefixes keep only the files whose names start with one of them
	// (nil: every file).
	Prefixes []string
	// Lock holds the locks of IDs and Keys for the whole step, which
	// may then change files.
	Lock bool
	// Keys are locks held beside the deliberations' own.
	Keys []string
}

// SharedFile is one file of a deliberation.
type SharedFile struct {
	Name string // as in the folder: codex-ask-state-ID.json, ...
	ID   string
	Data []byte
	// New: the file must not exist yet (a deliberation being created).
	New bool
}

// SharedChanges are what a step changed.
type SharedChanges struct {
	Put    []SharedFile
	Remove []string
	// Leases are the deliberations whose consultation this process now
	// runs, under the lease named (true), or that have no consultation
	// any more (false); the others keep theirs.
	Leases map[string]string
}

// Shared returns st's shared database, nil for a folder of files.
func (st *Store) Shared() Shared { return st.sh }

// sharedStores are the shared databases of this process (usually one
// each), by the tag their leases start with, so that a consultation tells
// from its lease alone whether it is alive and whether it is ours.
var sharedStores struct {
	sync.Mutex
	m map[string][]Shared
}

// leaseTag is the part of a lease naming its database: up to the first
// dot.
func leaseTag(lease string) string {
	tag, _, _ := strings.Cut(lease, ".")
	return tag
}

func registerShared(sh Shared) {
	sharedStores.Lock()
	defer sharedStores.Unlock()
	if sharedStores.m == nil {
		sharedStores.m = map[string][]Shared{}
	}
	tag := leaseTag(sh.NewLease())
	if !slices.Contains(sharedStores.m[tag], sh) {
		sharedStores.m[tag] = append(sharedStores.m[tag], sh)
	}
}

// leaseAlive reports whether the consultation under lease runs, as its
// database says. A database this process does not have cannot tell, and
// the consultation is taken to be gone; one that does not answer cannot
// either, and it is taken to run (nothing takes it over).
func leaseAlive(lease string) bool {
	sharedStores.Lock()
	shs := slices.Clone(sharedStores.m[leaseTag(lease)])
	sharedStores.Unlock()
	for _, sh := range shs {
		if alive, err := sh.Alive(lease); err == nil {
			return alive
		}
	}
	return len(shs) > 0
}

// leaseOurs reports whether this process runs the consultation under
// lease.
func leaseOurs(lease string) bool {
	sharedStores.Lock()
	defer sharedStores.Unlock()
	return slices.ContainsFunc(sharedStores.m[leaseTag(lease)], func(sh Shared) bool { return sh.Ours(lease) })
}

// fileID is the deliberation a file of the folder belongs to: its name is
// a prefix, the ID, then a dot (codex-ask-state-ID.json.replaced-TIME).
func fileID(name string) (string, bool) {
	for _, p := range []string{statePrefix, transcriptPrefix, councilPrefix} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			id, _, _ := strings.Cut(rest, ".")
			return id, validID(id)
		}
	}
	return "", false
}

// onShared runs fn on a private copy of the files q names (a Store over a
// temporary folder, without Shared); with q.Lock the files of written (the
// IDs fn returns, q.IDs when it returns none) that changed are stored.
func onShared[T any](st *Store, q SharedQuery, fn func(v *Store) (T, []string, error)) (T, error) {
	var out T
	err := st.sh.Step(q, func(files []SharedFile) (*SharedChanges, error) {
		dir, err := os.MkdirTemp("", "elicit-deliberation-")
		if err != nil {
			return nil, fmt.Errorf("deliberation store: %w", err)
		}
		defer os.RemoveAll(dir)
		before := make(map[string][]byte, len(files))
		for _, f := range files {
			before[f.Name] = f.Data
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o600); err != nil {
				return nil, fmt.Errorf("deliberation store: %w", err)
			}
		}
		v := &Store{dir: dir, clock: st.clock, scratch: true}
		var written []string
		out, written, err = fn(v)
		if err != nil {
			return nil, relabel(err, dir, st.dir)
		}
		if !q.Lock {
			return nil, nil
		}
		if written == nil {
			written = q.IDs
		}
		return v.changes(before, written)
	})
	return out, err
}

// changes are the files of ids in st's folder that differ from before,
// and the leases their states hold.
func (st *Store) changes(before map[string][]byte, ids []string) (*SharedChanges, error) {
	des, err := os.ReadDir(st.dir)
	if err != nil {
		return nil, fmt.Errorf("deliberation store: %w", err)
	}
	ch := &SharedChanges{Leases: map[string]string{}}
	seen := map[string]bool{}
	for _, de := range des {
		id, ok := fileID(de.Name())
		if !ok || !slices.Contains(ids, id) || !de.Type().IsRegular() {
			continue
		}
		seen[de.Name()] = true
		data, err := os.ReadFile(filepath.Join(st.dir, de.Name()))
		if err != nil {
			return nil, fmt.Errorf("deliberation store: %w", err)
		}
		old, had := before[de.Name()]
		if !had || !bytes.Equal(old, data) {
			ch.Put = append(ch.Put, SharedFile{Name: de.Name(), ID: id, Data: data, New: !had})
		}
	}
	for name := range before {
		if id, ok := fileID(name); ok && slices.Contains(ids, id) && !seen[name] {
			ch.Remove = append(ch.Remove, name)
		}
	}
	slices.Sort(ch.Remove)
	for _, id := range ids {
		s, err := st.Load(id)
		switch {
		case err != nil || s.Consultation == nil:
			ch.Leases[id] = ""
		case s.Consultation.Lease != "" && leaseOurs(s.Consultation.Lease):
			ch.Leases[id] = s.Consultation.Lease
		}
	}
	return ch, nil
}

// relabel names st's folder instead of the private copy's in a problem
// list: the copy is gone when the caller reads it.
func relabel(err error, from, to string) error {
	var probs problem.List
	if !errors.As(err, &probs) {
		return err
	}
	out := make(problem.List, len(probs))
	for i, p := range probs {
		out[i] = problem.Problem{Path: strings.ReplaceAll(p.Path, from, to), Message: strings.ReplaceAll(p.Message, from, to)}
	}
	return out
}

// loadShared reads the state of id from the shared database and judges
// its consultation then: the state and the lease are read one after the
// other, and a consultation that ends between the two reads would look
// interrupted (its end removes its lease), so a lease found lapsed is
// believed only when a second read still shows the consultation.
func (st *Store) loadShared(id string) (*State, error) {
	var prev *Consultation
	for range 3 {
		s, err := sharedRead(st, id, func(v *Store) (*State, error) { return v.Load(id) })
		if err != nil {
			return nil, err
		}
		c := s.Consultation
		switch {
		case c == nil || c.Lease == "":
			return s, nil
		case prev != nil && prev.Lease == c.Lease:
			c.judged = judgedGone
			return s, nil
		case leaseAlive(c.Lease):
			c.judged = judgedAlive
			return s, nil
		}
		prev = c
	}
	return nil, fmt.Errorf("deliberation %s: its consultation keeps changing; try again", id)
}

// one is a query of one deliberation (locked for a write).
func one(id string, lock bool) SharedQuery { return SharedQuery{IDs: []string{id}, Lock: lock} }

// sharedRead runs a read of id on a copy of its files.
func sharedRead[T any](st *Store, id string, fn func(v *Store) (T, error)) (T, error) {
	return onShared(st, one(id, false), func(v *Store) (T, []string, error) {
		out, err := fn(v)
		return out, nil, err
	})
}

// sharedWrite runs a step of id on a copy of its files and stores it.
func sharedWrite[T any](st *Store, id string, fn func(v *Store) (T, error)) (T, error) {
	return onShared(st, one(id, true), func(v *Store) (T, []string, error) {
		out, err := fn(v)
		return out, nil, err
	})
}

// sharedCouncil runs a step of the council of id on a copy of its files
// and its members', and stores it.
func sharedCouncil[T any](st *Store, id string, lock bool, fn func(v *Store) (T, error)) (T, error) {
	var zero T
	c, err := st.Council(id)
	if err != nil {
		return zero, err
	}
	if c == nil {
		return zero, councilOrNot(id, st, nil)
	}
	ids := make([]string, len(c.Members))
	for i, m := range c.Members {
		ids[i] = m.ID
	}
	return onShared(st, SharedQuery{IDs: ids, Lock: lock}, func(v *Store) (T, []string, error) {
		out, err := fn(v)
		return out, nil, err
	})
}

// startKey is the lock every start holds, so that two processes never
// give one ID to two deliberations. A start knows the IDs taken in its
// second and the next (a clock running ahead of this one's by more than
// that could take an ID first: the start's transaction then refuses to
// overwrite it).
const startKey = "start"

// sharedStart creates deliberations on a copy that knows the IDs already
// taken this minute; fn returns the IDs it created.
func sharedStart[T any](st *Store, fn func(v *Store) (T, []string, error)) (T, error) {
	return onShared(st, SharedQuery{IDs: []string{}, Lock: true, Keys: []string{startKey}}, func(v *Store) (T, []string, error) {
		var zero T
		now := st.clock.Now().UTC()
		var taken []string
		for _, t := range []time.Time{now, now.Add(time.Second)} {
			ids, err := st.sh.IDs(t.Format(idLayout))
			if err != nil {
				return zero, nil, err
			}
			taken = append(taken, ids...)
		}
		for _, id := range taken {
			if err := os.WriteFile(v.TranscriptPath(id), nil, 0o600); err != nil {
				return zero, nil, fmt.Errorf("deliberation store: %w", err)
			}
		}
		return fn(v)
	})
}
