package responselog

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/elicit/elicit/internal/config"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// postgresDB is a team's PostgreSQL: every member's CLI and server ingest
// their journals into it and read everyone's records from it. Records are
// keyed by their ids, so a record ingested twice (two processes reading
// one journal, a retry after a lost commit) is one row.
type postgresDB struct{}

func (postgresDB) name() string         { return "PostgreSQL" }
func (postgresDB) bind(q string) string { return numbered(q) }

// pgMigrations are the team store's schema versions, in order: version N
// is pgMigrations[N-1], applied once, in a transaction of its own, and
// recorded in elicit_schema. A version is never changed once released:
// a change is a new version.
var pgMigrations = []string{
	// 1: the records, the hand-built forms' shapes, the promoted shapes
	// and the decision ledger with its words (English stemming; the
	// question weighs most, then the title, then the answer).
	`CREATE TABLE records (
	id TEXT COLLATE "C" PRIMARY KEY,
	ts TEXT COLLATE "C" NOT NULL,
	kind TEXT COLLATE "C" NOT NULL,
	template_id TEXT COLLATE "C" NOT NULL,
	shape TEXT COLLATE "C" NOT NULL,
	title TEXT NOT NULL DEFAULT '',
	host TEXT COLLATE "C" NOT NULL DEFAULT '',
	host_version TEXT NOT NULL DEFAULT '',
	via TEXT COLLATE "C" NOT NULL DEFAULT '',
	surface TEXT COLLATE "C" NOT NULL DEFAULT '',
	reason TEXT NOT NULL DEFAULT '',
	fields INTEGER NOT NULL DEFAULT 0,
	inferred INTEGER NOT NULL DEFAULT 0,
	kept INTEGER NOT NULL DEFAULT 0,
	response_id TEXT COLLATE "C" NOT NULL DEFAULT '',
	responses TEXT NOT NULL DEFAULT '',
	problems INTEGER NOT NULL DEFAULT 0,
	form_id TEXT COLLATE "C" NOT NULL DEFAULT '',
	project TEXT COLLATE "C" NOT NULL DEFAULT '',
	"user" TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX records_kind ON records (kind, ts);
CREATE INDEX records_response ON records (response_id);
CREATE INDEX records_ts ON records (ts);
CREATE TABLE shapes (
	shape TEXT COLLATE "C" PRIMARY KEY,
	title TEXT NOT NULL,
	form TEXT NOT NULL,
	last_seen TEXT COLLATE "C" NOT NULL
);
CREATE TABLE promoted (
	shape TEXT COLLATE "C" PRIMARY KEY,
	name TEXT COLLATE "C" NOT NULL,
	ts TEXT COLLATE "C" NOT NULL
);
CREATE TABLE decisions (
	id TEXT COLLATE "C" PRIMARY KEY,
	ts TEXT COLLATE "C" NOT NULL,
	kind TEXT COLLATE "C" NOT NULL,
	template_id TEXT COLLATE "C" NOT NULL DEFAULT '',
	form_id TEXT COLLATE "C" NOT NULL DEFAULT '',
	shape TEXT COLLATE "C" NOT NULL DEFAULT '',
	title TEXT NOT NULL DEFAULT '',
	project TEXT COLLATE "C" NOT NULL DEFAULT '',
	host TEXT COLLATE "C" NOT NULL DEFAULT '',
	via TEXT COLLATE "C" NOT NULL DEFAULT '',
	"user" TEXT COLLATE "C" NOT NULL DEFAULT '',
	ref TEXT COLLATE "C" NOT NULL DEFAULT '',
	body TEXT NOT NULL,
	words tsvector NOT NULL
);
CREATE INDEX decisions_ts ON decisions (ts);
CREATE INDEX decisions_project ON decisions (project, ts);
CREATE INDEX decisions_template ON decisions (template_id, ts);
CREATE INDEX decisions_ref ON decisions (ref);
CREATE INDEX decisions_words ON decisions USING gin (words);`,
	// 2: the tallies stats reads, filled from the records.
	`CREATE TABLE tallies (
	kind TEXT COLLATE "C" NOT NULL,
	dim TEXT COLLATE "C" NOT NULL,
	key TEXT COLLATE "C" NOT NULL,
	sub TEXT COLLATE "C" NOT NULL,
	n BIGINT NOT NULL,
	fields BIGINT NOT NULL,
	inferred BIGINT NOT NULL,
	kept BIGINT NOT NULL,
	title TEXT COLLATE "C" NOT NULL,
	PRIMARY KEY (kind, dim, key, sub)
);
INSERT INTO tallies (kind, dim, key, sub, n, fields, inferred, kept, title) ` + strings.Join(tallySelects("TRUE"), `;
INSERT INTO tallies (kind, dim, key, sub, n, fields, inferred, kept, title) `),
	// 3: the deliberations a team's processes share: their files (state,
	// transcript, council) as rows, the leases of the consultations that
	// run, and the tag that names this database in leases.
	`CREATE TABLE deliberation_files (
	name TEXT COLLATE "C" PRIMARY KEY,
	id TEXT COLLATE "C" NOT NULL,
	data BYTEA NOT NULL,
	updated TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX deliberation_files_id ON deliberation_files (id);
CREATE TABLE deliberation_leases (
	id TEXT COLLATE "C" PRIMARY KEY,
	lease TEXT COLLATE "C" NOT NULL UNIQUE,
	expires TIMESTAMPTZ NOT NULL,
	cancel BOOLEAN NOT NULL DEFAULT FALSE,
	progress TEXT NOT NULL DEFAULT ''
);
CREATE TABLE deliberation_tag (tag TEXT COLLATE "C" NOT NULL);
INSERT INTO deliberation_tag SELECT substr(md5(random()::text || clock_timestamp()::text), 1, 12);`,
}

// pgSchemaLock is the advisory lock migrations take, so that members
// starting at once apply each version once.
const pgSchemaLock = 0x656c69636974 // "elicit"

// DatabaseError is a team database that cannot be used: unreachable,
// refusing the connection, or of a schema this elicit does not know.
type DatabaseError struct {
	// URL is the database's address, its password left out.
	URL string
	Err error
}

func (e *DatabaseError) Error() string {
	return fmt.Sprintf("the team database %s cannot be used: %s", e.URL, oneLine(e.Err.Error()))
}

// oneLine is a driver's message on one line: pgx gives one line per
// address it tried (twice each, with and without TLS), so repeats go.
func oneLine(msg string) string {
	var parts []string
	for _, line := range strings.Split(msg, "\n") {
		if line = strings.TrimSpace(line); line != "" && !slices.Contains(parts, line) {
			parts = append(parts, line)
		}
	}
	return strings.Join(parts, " ")
}

func (e *DatabaseError) Unwrap() error { return e.Err }

// pools are the team databases opened by this process, one pool each,
// migrated once.
var pools struct {
	sync.Mutex
	m map[string]*sql.DB
}

// connectWait is how long opening a team database waits for it to
// answer.
const connectWait = 5 * time.Second

// migrateWait is how long a schema migration may take.
const migrateWait = 10 * time.Minute

// openPostgres is the pool of the team database at url, opened, checked
// and migrated the first time; a failure is not kept (the next call
// tries again).
func openPostgres(url string, wait time.Duration) (*sql.DB, error) {
	pools.Lock()
	defer pools.Unlock()
	if db := pools.m[url]; db != nil {
		return db, nil
	}
	fail := func(err error) (*sql.DB, error) {
		return nil, &DatabaseError{URL: redact(url), Err: err}
	}
	db, err := newPool(url, 8)
	if err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return fail(err)
	}
	// A migration fills what it adds from the records: it gets longer
	// than a connection does.
	mctx, mcancel := context.WithTimeout(context.Background(), migrateWait)
	defer mcancel()
	if err := migratePostgres(mctx, db); err != nil {
		db.Close()
		return fail(err)
	}
	if pools.m == nil {
		pools.m = map[string]*sql.DB{}
	}
	pools.m[url] = db
	return db, nil
}

// OpenTeam opens a pool of its own on the team database at url (of at
// most conns connections), after bringing the database to the newest
// schema; the caller closes it.
func OpenTeam(url string, conns int) (*sql.DB, error) {
	if _, err := openPostgres(url, connectWait); err != nil {
		return nil, err
	}
	db, err := newPool(url, conns)
	if err != nil {
		return nil, &DatabaseError{URL: redact(url), Err: err}
	}
	return db, nil
}

// newPool is a pool of at most conns connections to url (none made yet).
func newPool(url string, conns int) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "cannot parse `"+url+"`: "))
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = connectWait
	}
	if cfg.RuntimeParams["application_name"] == "" {
		cfg.RuntimeParams["application_name"] = "elicit"
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(conns)
	db.SetConnMaxIdleTime(time.Minute)
	return db, nil
}

// closePools closes every team database pool (the tests' servers stop).
func closePools() {
	pools.Lock()
	defer pools.Unlock()
	for url, db := range pools.m {
		db.Close()
		delete(pools.m, url)
	}
}

// redact is a database address without its password.
func redact(url string) string {
	if cfg, err := pgconn.ParseConfig(url); err == nil && cfg.Password != "" {
		return strings.Replace(url, cfg.Password, "xxxxx", 1)
	}
	return url
}

// migratePostgres brings the team database to the newest schema this
// elicit knows, under an advisory lock; a database of a newer schema is an
// error saying so.
func migratePostgres(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, pgSchemaLock); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS elicit_schema (version INTEGER PRIMARY KEY, applied TIMESTAMPTZ NOT NULL DEFAULT now())`); err != nil {
		return err
	}
	var v int
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM elicit_schema`).Scan(&v); err != nil {
		return err
	}
	if v > len(pgMigrations) {
		return fmt.Errorf("it was written by a newer elicit (schema %d, this one knows %d): upgrade elicit", v, len(pgMigrations))
	}
	for ; v < len(pgMigrations); v++ {
		if _, err := tx.ExecContext(ctx, pgMigrations[v]); err != nil {
			return fmt.Errorf("schema %d: %w", v+1, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO elicit_schema (version) VALUES ($1)`, v+1); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// team opens the team database and ingests the journal into it. Two
// members' transactions that wait on each other's rows (one is chosen
// to fail) are tried again.
func (l *Log) team() (*Store, error) { return l.teamWithin(connectWait) }

// teamWithin is team, waiting at most wait for a first connection.
func (l *Log) teamWithin(wait time.Duration) (*Store, error) {
	db, err := openPostgres(l.DatabaseURL, wait)
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, b: postgresDB{}, log: l, shared: true}
	for try := 0; ; try++ {
		_, err = s.fill("")
		if err == nil || try == 4 || !retryable(err) {
			break
		}
		time.Sleep(time.Duration(try+1) * 20 * time.Millisecond)
	}
	if err != nil {
		return nil, &DatabaseError{URL: redact(l.DatabaseURL), Err: err}
	}
	os.Remove(filepath.Join(l.dir, unreachableName)) // pushes try again at once
	return s, nil
}

// retryable is a PostgreSQL error a transaction tried again can avoid: a
// deadlock or a serialization failure.
func retryable(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

// pushWait is how long a push waits for the team database to answer:
// the caller (a collect, a render) has its answer already, and the record
// waits in the journal anyway. After a push that could not reach it, the
// pushes of the next pushPause do not try (each would wait again): a
// member whose VPN is down renders and collects at full speed.
const (
	pushWait  = time.Second
	pushPause = time.Minute
)

// unreachableName is the file whose time says when a push last could not
// reach the team database.
const unreachableName = "team-unreachable"

// push ingests the journal into the team database right after a record
// is appended, so that the team sees it at once; when the database
// cannot be used, the record waits in the journal for the next read.
func (l *Log) push() {
	mark := filepath.Join(l.dir, unreachableName)
	if fi, err := os.Stat(mark); err == nil && l.now().Sub(fi.ModTime()) < pushPause && !fi.ModTime().After(l.now()) {
		l.warn("the team database %s could not be reached at %s; the record waits in %s and goes in at the next read",
			redact(l.DatabaseURL), fi.ModTime().Local().Format("15:04:05"), l.dir)
		return
	}
	if _, err := l.teamWithin(pushWait); err != nil {
		l.warn("%v; the record waits in %s and goes in at the next read", err, l.dir)
		if f, err := os.OpenFile(mark, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fileMode); err == nil {
			f.Close()
			os.Chtimes(mark, l.now(), l.now())
		}
	}
}

// The team store keeps every record: retention is one member's setting,
// and a member's setting does not remove the team's records.
func (postgresDB) prune(txn, string) error { return nil }

// pgBatch is how many rows one statement inserts.
const pgBatch = 500

// pgInserter holds records back and inserts them a batch at a time, each
// batch ordered by id (and the shapes by shape), so that members ingesting
// at once take their rows' locks in one order.
type pgInserter struct {
	tx      txn
	recs    []pgRecord
	shapes  map[string]pgShape
	tallies tallies
	added   int // records inserted since the planner's statistics were refreshed
}

// pgAnalyzeAfter is how many records one ingest inserts before it
// refreshes the planner's statistics itself: a search right after a big
// ingest would otherwise be planned for the table as it was (autovacuum
// comes a minute later), and fetch every match of a common word to find
// the newest (290 ms at a million decisions, against 20 ms walking the
// time index back).
var pgAnalyzeAfter = 10_000 // a variable for the tests

type pgRecord struct {
	r  *Record
	ts string
	d  decisionRow
	ok bool // a decision
}

type pgShape struct{ title, form, ts string }

func (postgresDB) inserter(tx txn) (inserter, error) {
	return &pgInserter{tx: tx, shapes: map[string]pgShape{}, tallies: tallies{}}, nil
}

func (ins *pgInserter) add(r *Record, ts string) error {
	d, ok, err := decisionOf(r)
	if err != nil {
		return err
	}
	rc := *r
	ins.recs = append(ins.recs, pgRecord{&rc, ts, d, ok})
	if len(r.Form) > 0 {
		if old, seen := ins.shapes[r.Shape]; !seen || ts >= old.ts {
			ins.shapes[r.Shape] = pgShape{r.Title, string(r.Form), ts}
		}
	}
	if len(ins.recs) >= pgBatch {
		return ins.flushRecords()
	}
	return nil
}

func (ins *pgInserter) flush() error {
	if err := ins.flushRecords(); err != nil {
		return err
	}
	if err := ins.tallies.apply(ins.tx); err != nil {
		return err
	}
	if ins.added >= pgAnalyzeAfter {
		if _, err := ins.tx.Exec(`ANALYZE records, decisions`); err != nil {
			return err
		}
		ins.added = 0
	}
	if len(ins.shapes) == 0 {
		return nil
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range ins.shapes {
			if !yield(k) {
				return
			}
		}
	})
	cols := make([][]string, 4)
	for _, k := range keys {
		sh := ins.shapes[k]
		for i, v := range []string{k, sh.title, sh.form, sh.ts} {
			cols[i] = append(cols[i], v)
		}
	}
	clear(ins.shapes)
	_, err := ins.tx.Exec(`INSERT INTO shapes (shape, title, form, last_seen)
		SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[])
		ON CONFLICT (shape) DO UPDATE SET title = excluded.title, form = excluded.form, last_seen = excluded.last_seen
		WHERE excluded.last_seen >= shapes.last_seen`, cols[0], cols[1], cols[2], cols[3])
	return err
}

func (ins *pgInserter) flushRecords() error {
	if len(ins.recs) == 0 {
		return nil
	}
	slices.SortFunc(ins.recs, func(a, b pgRecord) int { return cmp.Compare(a.r.ID, b.r.ID) })
	n := len(ins.recs)
	text := make([][]string, 17)
	ints := make([][]int32, 4)
	var dec [][]string
	for _, p := range ins.recs {
		r := p.r
		for i, v := range []string{r.ID, p.ts, r.Kind, r.TemplateID, r.Shape, r.Title, r.Host, r.HostVersion, r.Via,
			r.Surface, r.Reason, r.ResponseID, string(r.Responses), r.FormID, r.Project, r.User} {
			if text[i] == nil {
				text[i] = make([]string, 0, n)
			}
			text[i] = append(text[i], v)
		}
		for i, v := range []int{r.Fields, r.Inferred, r.Kept, r.Problems} {
			ints[i] = append(ints[i], int32(v))
		}
		if p.ok {
			if dec == nil {
				dec = make([][]string, 15)
			}
			for i, v := range []string{r.ID, p.ts, r.Kind, r.TemplateID, r.FormID, r.Shape, r.Title, r.Project, r.Host, r.Via,
				r.User, p.d.ref, p.d.body, p.d.asked, p.d.answered} {
				dec[i] = append(dec[i], v)
			}
		}
	}
	rows, err := ins.tx.Query(`INSERT INTO records (id, ts, kind, template_id, shape, title, host, host_version, via,
		surface, reason, response_id, responses, form_id, project, "user", fields, inferred, kept, problems)
		SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
			?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::int[], ?::int[], ?::int[])
		ON CONFLICT DO NOTHING RETURNING id`,
		text[0], text[1], text[2], text[3], text[4], text[5], text[6], text[7], text[8], text[9], text[10], text[11], text[12],
		text[13], text[14], text[15], ints[0], ints[1], ints[2], ints[3])
	if err != nil {
		return err
	}
	// Only the records that went in are counted: one already in is
	// another member's, or this journal's ingested before.
	in := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		in[id] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, p := range ins.recs {
		if in[p.r.ID] {
			ins.tallies.add(p.r)
		}
	}
	ins.added += len(in)
	ins.recs = ins.recs[:0]
	if err != nil || dec == nil {
		return err
	}
	args := make([]any, len(dec))
	for i := range dec {
		args[i] = dec[i]
	}
	_, err = ins.tx.Exec(`INSERT INTO decisions (id, ts, kind, template_id, form_id, shape, title, project, host, via, "user", ref, body, words)
		SELECT id, ts, kind, template_id, form_id, shape, title, project, host, via, u, ref, body,
			setweight(to_tsvector('english', asked), 'A') || setweight(to_tsvector('english', title), 'B') ||
			setweight(to_tsvector('english', answered), 'C')
		FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
			?::text[], ?::text[], ?::text[], ?::text[], ?::text[])
			AS t(id, ts, kind, template_id, form_id, shape, title, project, host, via, u, ref, body, asked, answered)
		ON CONFLICT DO NOTHING`, args...)
	return err
}

// search ranks by ts_rank over the decisions' words, the question
// weighted above the title and the answer, as SQLite's BM25 does, among
// the newest searchCandidates matches.
func (postgresDB) search(words []string, anyWord bool, where string) (string, any) {
	join := " & "
	if anyWord {
		join = " | "
	}
	cond := " WHERE "
	if where != "" {
		cond = where + " AND "
	}
	return `SELECT ` + decisionCols + ` FROM (SELECT ` + decisionCols + `, ts_rank(d.words, m.q) AS score
		FROM (SELECT to_tsquery('english', ?) AS q) m, decisions d` + cond + `d.words @@ m.q
		ORDER BY d.ts DESC LIMIT ` + strconv.Itoa(searchCandidates) + `) d ORDER BY d.score DESC, d.ts DESC LIMIT ?`, strings.Join(words, join)
}

func (postgresDB) answered() string {
	return `EXISTS (SELECT 1 FROM jsonb_array_elements(CAST(d.body AS jsonb) -> 'answers') a WHERE a ->> 'field' = ?)`
}

// UseDatabase points l at the project's team database, if one is set
// (ELICIT_DATABASE_URL, or database_url in the project's settings), its
// warnings passed to l.Warn; a setting that cannot be used is kept as
// DatabaseErr, so that reads fail naming it and records wait.
func (l *Log) UseDatabase(project string, getenv func(string) string) {
	d, err := config.DatabaseFor(project, getenv)
	for _, w := range d.Warnings {
		l.warn("%s", w)
	}
	if err != nil {
		l.DatabaseErr = fmt.Errorf("the team database setting cannot be used: %w", err)
		return
	}
	l.DatabaseURL = d.URL
}
