package responselog

import (
	"database/sql"
	"strconv"
	"strings"
)

// sqliteDB is the embedded database: one file under the log's folder,
// the decisions' words in an FTS5 index.
type sqliteDB struct{}

func (sqliteDB) name() string         { return "SQLite" }
func (sqliteDB) bind(q string) string { return q }

// sqliteInserter holds the statements that add records to a transaction.
type sqliteInserter struct {
	tx         txn
	rec, shape *sql.Stmt
	dec        *decisionStmts
	tallies    tallies
}

func (sqliteDB) inserter(tx txn) (inserter, error) {
	rec, err := tx.Prepare(`INSERT INTO records (id, ts, kind, template_id, shape, title, host, host_version, via,
		surface, reason, fields, inferred, kept, response_id, responses, problems, form_id, project, "user") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT DO NOTHING`)
	if err != nil {
		return nil, err
	}
	shape, err := tx.Prepare(shapeUpsert)
	if err != nil {
		return nil, err
	}
	dec, err := prepareDecisions(tx.Tx)
	if err != nil {
		return nil, err
	}
	return &sqliteInserter{tx, rec, shape, dec, tallies{}}, nil
}

// shapeUpsert keeps the newest definition of each hand-built form's shape.
const shapeUpsert = `INSERT INTO shapes (shape, title, form, last_seen) VALUES (?,?,?,?)
		ON CONFLICT (shape) DO UPDATE SET title = excluded.title, form = excluded.form, last_seen = excluded.last_seen
		WHERE excluded.last_seen >= shapes.last_seen`

func (ins *sqliteInserter) add(r *Record, ts string) error {
	res, err := ins.rec.Exec(r.ID, ts, r.Kind, r.TemplateID, r.Shape, r.Title, r.Host, r.HostVersion, r.Via,
		r.Surface, r.Reason, r.Fields, r.Inferred, r.Kept, r.ResponseID, string(r.Responses), r.Problems, r.FormID, r.Project, r.User)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		ins.tallies.add(r)
	}
	if err := ins.dec.add(r, ts); err != nil {
		return err
	}
	if len(r.Form) > 0 {
		if _, err := ins.shape.Exec(r.Shape, r.Title, string(r.Form), ts); err != nil {
			return err
		}
	}
	return nil
}

// flush adds up the tallies; every row went in as it was added (the
// statements close with the transaction).
func (ins *sqliteInserter) flush() error { return ins.tallies.apply(ins.tx) }

func (sqliteDB) prune(tx txn, cutoff string) error {
	if err := untally(tx, "ts < ?", cutoff); err != nil {
		return err
	}
	if _, err := tx.Exec(`DELETE FROM records WHERE ts < ?`, cutoff); err != nil {
		return err
	}
	if _, err := tx.Exec(`DELETE FROM shapes WHERE last_seen < ?`, cutoff); err != nil {
		return err
	}
	return pruneDecisions(tx.Tx, cutoff)
}

// search ranks by BM25, the question weighted above the title and the
// answer, the newest searchCandidates matches that pass the filters (the
// full-text index gives its matches newest first, so the rest are never
// scored); only the rows kept are read whole.
func (sqliteDB) search(words []string, anyWord bool, where string) (string, any) {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = `"` + w + `"`
	}
	join := " "
	if anyWord {
		join = " OR "
	}
	cond := strings.Replace(where, " WHERE ", " AND ", 1)
	return `SELECT ` + decisionCols + ` FROM (SELECT rid, score, ts FROM
			(SELECT t.rowid AS rid, bm25(decisions_text, 2, 4, 1) AS score, d.ts AS ts FROM decisions_text t
				JOIN decisions d ON d.rowid = t.rowid WHERE decisions_text MATCH ?` + cond + `
				ORDER BY t.rowid DESC LIMIT ` + strconv.Itoa(searchCandidates) + `)
			ORDER BY score, ts DESC LIMIT ?) top
			JOIN decisions d ON d.rowid = top.rid ORDER BY top.score, top.ts DESC`, strings.Join(quoted, join)
}

func (sqliteDB) answered() string {
	return "EXISTS (SELECT 1 FROM json_each(d.body, '$.answers') WHERE json_extract(value, '$.field') = ?)"
}
