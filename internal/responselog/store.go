package responselog

import (
	"database/sql"
	"strconv"
	"strings"
)

// backend is what differs between the two databases a Store can keep the
// log in: the embedded SQLite file (sqliteDB, the default) and a team's
// PostgreSQL (postgresDB, ELICIT_DATABASE_URL). Everything else, every
// query a Store runs for a listing, a search or the figures, is written
// once, with ? for its arguments, and bound by the backend; the two are
// held to one conformance suite (conformance_test.go).
type backend interface {
	// name is the database's name in messages.
	name() string
	// bind rewrites a query's ? and ?N to the database's placeholders.
	bind(q string) string
	// inserter adds records to tx, as the journal is ingested.
	inserter(tx txn) (inserter, error)
	// prune drops what is older than cutoff.
	prune(tx txn, cutoff string) error
	// search is the query ranking the decisions that have every (join "
	// ") or any (join " OR ") of the words, filtered by where and limited;
	// its arguments are the match, then where's, then the limit.
	search(words []string, anyWord bool, where string) (q string, match any)
	// answered is the condition that a decision answered the field ?.
	answered() string
}

// inserter adds the records of the journal to a transaction; a record
// already in is left as it is.
type inserter interface {
	add(r *Record, ts string) error
	// flush writes what add holds back.
	flush() error
}

// txn is a transaction whose queries are bound by its backend.
type txn struct {
	*sql.Tx
	b backend
}

func (t txn) Exec(q string, args ...any) (sql.Result, error) { return t.Tx.Exec(t.b.bind(q), args...) }
func (t txn) Query(q string, args ...any) (*sql.Rows, error) { return t.Tx.Query(t.b.bind(q), args...) }
func (t txn) Prepare(q string) (*sql.Stmt, error)            { return t.Tx.Prepare(t.b.bind(q)) }

// backend is the store's database kind.
func (s *Store) backend() backend {
	if s.b == nil {
		return sqliteDB{}
	}
	return s.b
}

func (s *Store) query(q string, args ...any) (*sql.Rows, error) {
	return s.db.Query(s.backend().bind(q), args...)
}

func (s *Store) queryRow(q string, args ...any) *sql.Row {
	return s.db.QueryRow(s.backend().bind(q), args...)
}

func (s *Store) exec(q string, args ...any) (sql.Result, error) {
	return s.db.Exec(s.backend().bind(q), args...)
}

func (s *Store) begin() (txn, error) {
	tx, err := s.db.Begin()
	return txn{tx, s.backend()}, err
}

// numbered rewrites ? as $1, $2, … in order and ?N as $N, outside
// quoted strings and names.
func numbered(q string) string {
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	var quote byte
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			b.WriteByte('$')
			if j > i+1 {
				// As in SQLite, a bare ? after ?N is ?N+1.
				k, _ := strconv.Atoi(q[i+1 : j])
				n = max(n, k)
				b.WriteString(q[i+1 : j])
			} else {
				n++
				b.WriteString(strconv.Itoa(n))
			}
			i = j - 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
