package responselog

import (
	"cmp"
	"database/sql"
	"maps"
	"slices"
)

// The tallies are what stats reads: the records counted by kind and by
// each dimension stats shows, kept up to date as records go in and out,
// so that stats reads a few hundred rows whatever the log's size. A
// tally row is (kind, dim, key, sub) with a count, the sums of the
// records' fields, inferred and kept, and the greatest title.
//
// dims:
//
//	all       key "", sub "": every record of the kind, with the sums
//	surface   key: the record's surface
//	host      key: its host
//	form      key: its form_id, when it has one
//	template  key: its template_id, sub: its shape for a hand-built form
//	shape     key: a hand-built form's shape
//
// A record's rows come from tallyOf as it is inserted; tallySelects
// computes the same rows from the records table, to rebuild the tallies
// and to take out the records pruned. TestTalliesMatchTheRecords checks
// that the two agree.

const talliesTable = `CREATE TABLE IF NOT EXISTS tallies (
	kind TEXT NOT NULL,
	dim TEXT NOT NULL,
	key TEXT NOT NULL,
	sub TEXT NOT NULL,
	n INTEGER NOT NULL,
	fields INTEGER NOT NULL,
	inferred INTEGER NOT NULL,
	kept INTEGER NOT NULL,
	title TEXT NOT NULL,
	PRIMARY KEY (kind, dim, key, sub)
)`

type tallyKey struct{ kind, dim, key, sub string }

type tallyVal struct {
	n, fields, inferred, kept int64
	title                     string
}

// tallies are tally rows to add to (or, negative, take from) the table.
type tallies map[tallyKey]*tallyVal

func (t tallies) bump(k tallyKey, v tallyVal) {
	old := t[k]
	if old == nil {
		t[k] = &v
		return
	}
	old.n += v.n
	old.fields += v.fields
	old.inferred += v.inferred
	old.kept += v.kept
	old.title = max(old.title, v.title)
}

// add counts a record that went in.
func (t tallies) add(r *Record) {
	one := tallyVal{n: 1}
	all := tallyVal{n: 1, fields: int64(r.Fields), inferred: int64(r.Inferred), kept: int64(r.Kept)}
	titled := tallyVal{n: 1, title: r.Title}
	t.bump(tallyKey{r.Kind, "all", "", ""}, all)
	t.bump(tallyKey{r.Kind, "surface", r.Surface, ""}, one)
	t.bump(tallyKey{r.Kind, "host", r.Host, ""}, one)
	if r.FormID != "" {
		t.bump(tallyKey{r.Kind, "form", r.FormID, ""}, one)
	}
	if r.TemplateID == "dict" {
		t.bump(tallyKey{r.Kind, "template", r.TemplateID, r.Shape}, titled)
		t.bump(tallyKey{r.Kind, "shape", r.Shape, ""}, titled)
	} else {
		t.bump(tallyKey{r.Kind, "template", r.TemplateID, ""}, titled)
	}
}

// tallySelects compute the tally rows of the records where cond holds, in
// the columns of the tallies table.
func tallySelects(cond string) []string {
	from := ` FROM records WHERE ` + cond
	return []string{
		`SELECT kind, 'all', '', '', count(*), coalesce(sum(fields), 0), coalesce(sum(inferred), 0), coalesce(sum(kept), 0), ''` + from + ` GROUP BY kind`,
		`SELECT kind, 'surface', surface, '', count(*), 0, 0, 0, ''` + from + ` GROUP BY kind, surface`,
		`SELECT kind, 'host', host, '', count(*), 0, 0, 0, ''` + from + ` GROUP BY kind, host`,
		`SELECT kind, 'form', form_id, '', count(*), 0, 0, 0, ''` + from + ` AND form_id != '' GROUP BY kind, form_id`,
		`SELECT kind, 'template', template_id, CASE WHEN template_id = 'dict' THEN shape ELSE '' END, count(*), 0, 0, 0, max(title)` + from +
			` GROUP BY kind, template_id, CASE WHEN template_id = 'dict' THEN shape ELSE '' END`,
		`SELECT kind, 'shape', shape, '', count(*), 0, 0, 0, max(title)` + from + ` AND template_id = 'dict' GROUP BY kind, shape`,
	}
}

// retally rebuilds the tallies from the records.
func retally(tx txn) error {
	if _, err := tx.Exec(`DELETE FROM tallies`); err != nil {
		return err
	}
	for _, q := range tallySelects("1 = 1") {
		if _, err := tx.Exec(`INSERT INTO tallies (kind, dim, key, sub, n, fields, inferred, kept, title) ` + q); err != nil {
			return err
		}
	}
	return nil
}

// retallyDB rebuilds an SQLite database's tallies in a transaction of
// their own (a migration).
func retallyDB(db *sql.DB) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := retally(txn{tx, sqliteDB{}}); err != nil {
		return err
	}
	return tx.Commit()
}

// untally takes out of the tallies the records where cond holds (before
// they are deleted).
func untally(tx txn, cond string, args ...any) error {
	t := tallies{}
	for _, q := range tallySelects(cond) {
		rows, err := tx.Query(q, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var k tallyKey
			var v tallyVal
			if err := rows.Scan(&k.kind, &k.dim, &k.key, &k.sub, &v.n, &v.fields, &v.inferred, &v.kept, &v.title); err != nil {
				rows.Close()
				return err
			}
			v.n, v.fields, v.inferred, v.kept, v.title = -v.n, -v.fields, -v.inferred, -v.kept, ""
			t.bump(k, v)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	if len(t) == 0 {
		return nil
	}
	if err := t.apply(tx); err != nil {
		return err
	}
	_, err := tx.Exec(`DELETE FROM tallies WHERE n <= 0`)
	return err
}

// apply adds t to the table, in key order (members applying at once take
// the rows' locks in one order), and empties t.
func (t tallies) apply(tx txn) error {
	if len(t) == 0 {
		return nil
	}
	stmt, err := tx.Prepare(`INSERT INTO tallies (kind, dim, key, sub, n, fields, inferred, kept, title) VALUES (?,?,?,?,?,?,?,?,?)
		ON CONFLICT (kind, dim, key, sub) DO UPDATE SET n = tallies.n + excluded.n, fields = tallies.fields + excluded.fields,
		inferred = tallies.inferred + excluded.inferred, kept = tallies.kept + excluded.kept,
		title = CASE WHEN excluded.title > tallies.title THEN excluded.title ELSE tallies.title END`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	keys := slices.SortedFunc(maps.Keys(t), func(a, b tallyKey) int {
		return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.dim, b.dim), cmp.Compare(a.key, b.key), cmp.Compare(a.sub, b.sub))
	})
	for _, k := range keys {
		v := t[k]
		if _, err := stmt.Exec(k.kind, k.dim, k.key, k.sub, v.n, v.fields, v.inferred, v.kept, v.title); err != nil {
			return err
		}
	}
	clear(t)
	return nil
}
