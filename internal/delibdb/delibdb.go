// Package delibdb keeps deliberations in a team's PostgreSQL database
// (deliberation.Shared), so that every replica of a server, and every
// member's command line, serves any call of any deliberation.
//
// A deliberation's files are rows of deliberation_files, a step one
// transaction under advisory locks; a transcript that grew is appended to,
// not rewritten. A consultation runs under a lease (deliberation_leases)
// that its process renews every few seconds: when the process is gone,
// the lease lapses and the consultation reads as interrupted everywhere.
// A cancel asked of a consultation that another process runs is a flag
// on its lease, seen at that process's next heartbeat.
package delibdb

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/config"
	"github.com/elicit/elicit/internal/responselog"
)

// LeaseTTL is how long a lease holds without a heartbeat; a heartbeat
// renews it every third of that.
var LeaseTTL = 10 * time.Second

// stepWait bounds a step, its wait for the locks included.
const stepWait = 2 * time.Minute

// DB is a team database's deliberations.
type DB struct {
	steps *sql.DB // steps: a connection each while they run
	side  *sql.DB // leases, heartbeats and lookups made during a step
	tag   string  // names the database in leases
	proc  string  // names this process in its leases
	n     atomic.Int64
	ttl   time.Duration // LeaseTTL when opened

	beat    sync.Once
	closing sync.Once
	stop    chan struct{}
	mu      sync.Mutex
	cancels map[string]func() // by lease: the consultations this process runs
}

var opened struct {
	sync.Mutex
	m map[string]*DB
}

// Open returns the deliberations of the team database at url, opened once
// per process.
func Open(url string) (*DB, error) {
	opened.Lock()
	defer opened.Unlock()
	if d := opened.m[url]; d != nil {
		return d, nil
	}
	d, err := open(url)
	if err != nil {
		return nil, err
	}
	if opened.m == nil {
		opened.m = map[string]*DB{}
	}
	opened.m[url] = d
	return d, nil
}

// open opens the deliberations of the database at url as a process of its
// own would (the tests' replicas).
func open(url string) (*DB, error) {
	steps, err := responselog.OpenTeam(url, 16)
	if err != nil {
		return nil, err
	}
	side, err := responselog.OpenTeam(url, 4)
	if err != nil {
		steps.Close()
		return nil, err
	}
	d := &DB{steps: steps, side: side, cancels: map[string]func(){}, stop: make(chan struct{}), ttl: LeaseTTL}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := side.QueryRowContext(ctx, `SELECT tag FROM deliberation_tag`).Scan(&d.tag); err != nil {
		d.Close()
		return nil, &responselog.DatabaseError{URL: config.Redact(url), Err: err}
	}
	var b [6]byte
	rand.Read(b[:])
	d.proc = hex.EncodeToString(b[:])
	return d, nil
}

// Close stops the heartbeat (this process's leases lapse) and closes the
// connections.
func (d *DB) Close() {
	d.closing.Do(func() { close(d.stop) })
	d.steps.Close()
	d.side.Close()
}

// Step runs fn on the files q names; with q.Lock, in one transaction that
// holds the locks of q's IDs and keys (taken in order, so that two steps
// never wait on each other) and stores fn's changes.
func (d *DB) Step(q deliberation.SharedQuery, fn func([]deliberation.SharedFile) (*deliberation.SharedChanges, error)) error {
	ctx, cancel := context.WithTimeout(context.Background(), stepWait)
	defer cancel()
	if !q.Lock {
		files, err := d.files(ctx, d.steps, q)
		if err != nil {
			return err
		}
		_, err = fn(files)
		return err
	}
	tx, err := d.steps.BeginTx(ctx, nil)
	if err != nil {
		return d.fail(err)
	}
	defer tx.Rollback()
	keys := slices.Sorted(slices.Values(append(slices.Clone(q.IDs), q.Keys...)))
	for _, k := range slices.Compact(keys) {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, "elicit deliberation "+k); err != nil {
			return d.fail(err)
		}
	}
	files, err := d.files(ctx, tx, q)
	if err != nil {
		return err
	}
	ch, err := fn(files)
	if err != nil || ch == nil {
		return err
	}
	old := make(map[string][]byte, len(files))
	for _, f := range files {
		old[f.Name] = f.Data
	}
	if err := d.apply(ctx, tx, old, ch); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return d.fail(err)
	}
	for _, lease := range ch.Leases {
		if lease != "" {
			d.beat.Do(func() { go d.heartbeat() })
		}
	}
	return nil
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// files are the files q names.
func (d *DB) files(ctx context.Context, db querier, q deliberation.SharedQuery) ([]deliberation.SharedFile, error) {
	if q.IDs != nil && len(q.IDs) == 0 {
		return nil, nil
	}
	var where []string
	var args []any
	if q.IDs != nil {
		args = append(args, q.IDs)
		where = append(where, fmt.Sprintf("id = ANY($%d)", len(args)))
	}
	if len(q.Prefixes) > 0 {
		pats := make([]string, len(q.Prefixes))
		for i, p := range q.Prefixes {
			pats[i] = p + "%"
		}
		args = append(args, pats)
		where = append(where, fmt.Sprintf("name LIKE ANY($%d)", len(args)))
	}
	query := `SELECT name, id, data FROM deliberation_files`
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	rows, err := db.QueryContext(ctx, query+" ORDER BY name", args...)
	if err != nil {
		return nil, d.fail(err)
	}
	defer rows.Close()
	var out []deliberation.SharedFile
	for rows.Next() {
		var f deliberation.SharedFile
		if err := rows.Scan(&f.Name, &f.ID, &f.Data); err != nil {
			return nil, d.fail(err)
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, d.fail(err)
	}
	return out, nil
}

// apply stores a step's changes: a file that only grew (a transcript)
// gets what was added.
func (d *DB) apply(ctx context.Context, tx *sql.Tx, old map[string][]byte, ch *deliberation.SharedChanges) error {
	for _, f := range ch.Put {
		prev, had := old[f.Name]
		var err error
		var res sql.Result
		switch {
		case !had:
			res, err = tx.ExecContext(ctx, `INSERT INTO deliberation_files (name, id, data) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`, f.Name, f.ID, f.Data)
			if err == nil {
				if n, _ := res.RowsAffected(); n == 0 {
					return fmt.Errorf("deliberation %s: its file %s was written by another process at the same moment; nothing was stored: try again", f.ID, f.Name)
				}
			}
		case len(prev) > 0 && bytes.HasPrefix(f.Data, prev):
			_, err = tx.ExecContext(ctx, `UPDATE deliberation_files SET data = data || $2, updated = now() WHERE name = $1`, f.Name, f.Data[len(prev):])
		default:
			_, err = tx.ExecContext(ctx, `UPDATE deliberation_files SET data = $2, updated = now() WHERE name = $1`, f.Name, f.Data)
		}
		if err != nil {
			return d.fail(err)
		}
	}
	for _, name := range ch.Remove {
		if _, err := tx.ExecContext(ctx, `DELETE FROM deliberation_files WHERE name = $1`, name); err != nil {
			return d.fail(err)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(ch.Leases)) {
		lease := ch.Leases[id]
		var err error
		if lease == "" {
			_, err = tx.ExecContext(ctx, `DELETE FROM deliberation_leases WHERE id = $1`, id)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO deliberation_leases (id, lease, expires) VALUES ($1, $2, now() + make_interval(secs => $3))
ON CONFLICT (id) DO UPDATE SET lease = excluded.lease, expires = excluded.expires, cancel = FALSE, progress = ''`, id, lease, d.ttl.Seconds())
		}
		if err != nil {
			return d.fail(err)
		}
	}
	return nil
}

// IDs are the deliberations whose ID starts with prefix.
func (d *DB) IDs(prefix string) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), stepWait)
	defer cancel()
	rows, err := d.side.QueryContext(ctx, `SELECT DISTINCT id FROM deliberation_files WHERE id LIKE $1 || '%'`, prefix)
	if err != nil {
		return nil, d.fail(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, d.fail(err)
		}
		out = append(out, id)
	}
	return out, d.fail(rows.Err())
}

// NewLease names a consultation of this process: the database's tag, the
// process, a number.
func (d *DB) NewLease() string {
	return fmt.Sprintf("%s.%s/%d", d.tag, d.proc, d.n.Add(1))
}

// Ours reports whether this process holds lease.
func (d *DB) Ours(lease string) bool {
	return strings.HasPrefix(lease, d.tag+"."+d.proc+"/")
}

// Alive reports whether lease is held and not lapsed.
func (d *DB) Alive(lease string) (bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var alive bool
	err := d.side.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM deliberation_leases WHERE lease = $1 AND expires > now())`, lease).Scan(&alive)
	return alive, d.fail(err)
}

// heartbeat renews this process's leases every third of LeaseTTL, and
// cancels the consultations whose cancel was asked elsewhere.
func (d *DB) heartbeat() {
	t := time.NewTicker(d.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
			d.renew()
		}
	}
}

func (d *DB) renew() {
	ctx, cancel := context.WithTimeout(context.Background(), d.ttl/3)
	defer cancel()
	rows, err := d.side.QueryContext(ctx, `UPDATE deliberation_leases SET expires = now() + make_interval(secs => $2)
WHERE starts_with(lease, $1) RETURNING lease, cancel`, d.tag+"."+d.proc+"/", d.ttl.Seconds())
	if err != nil {
		fmt.Fprintf(os.Stderr, "elicit: deliberation leases: %v\n", err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var lease string
		var stop bool
		if rows.Scan(&lease, &stop) == nil && stop {
			d.mu.Lock()
			fn := d.cancels[lease]
			d.mu.Unlock()
			if fn != nil {
				fn()
			}
		}
	}
}

// OnCancel runs fn when a cancel of the consultation under lease is asked
// by any process, until the returned function is called.
func (d *DB) OnCancel(lease string, fn func()) (stop func()) {
	d.mu.Lock()
	d.cancels[lease] = fn
	d.mu.Unlock()
	return func() {
		d.mu.Lock()
		delete(d.cancels, lease)
		d.mu.Unlock()
	}
}

// Cancel asks the process that holds lease to cancel its consultation.
func (d *DB) Cancel(lease string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := d.side.ExecContext(ctx, `UPDATE deliberation_leases SET cancel = TRUE WHERE lease = $1`, lease)
	return d.fail(err)
}

// Progress records how the consultation under lease goes; Progressed reads
// it (empty when none is known).
func (d *DB) Progress(lease, p string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := d.side.ExecContext(ctx, `UPDATE deliberation_leases SET progress = $2 WHERE lease = $1`, lease, p)
	return d.fail(err)
}

// Progressed is the progress last recorded for lease.
func (d *DB) Progressed(lease string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var p string
	d.side.QueryRowContext(ctx, `SELECT progress FROM deliberation_leases WHERE lease = $1`, lease).Scan(&p)
	return p
}

// fail names the database in an error of the driver.
func (d *DB) fail(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("deliberations in the team database: %w", err)
}

// For is the shared database of a project's deliberations: its team
// database (ELICIT_DATABASE_URL, or database_url in its settings), nil
// when it has none (the deliberations are files).
func For(project string, getenv func(string) string) (deliberation.Shared, error) {
	d, err := config.DatabaseFor(project, getenv)
	if err != nil {
		return nil, fmt.Errorf("the team database setting cannot be used: %w", err)
	}
	if d.URL == "" {
		return nil, nil
	}
	return Open(d.URL)
}
