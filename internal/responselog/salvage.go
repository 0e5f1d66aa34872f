package responselog

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
)

// salvagedTables are the tables read back from a damaged database.
var salvagedTables = []string{"records", "shapes", "promoted", "decisions"}

// maxSkips bounds the damaged stretches a table is read around.
const maxSkips = 10000

// salvage copies into tx every row still readable in the damaged database
// at from, row by row, stepping over the pages that cannot be read, and
// returns how many rows it kept.
func salvage(from string, tx *sql.Tx) (kept int, note string, err error) {
	dsn := fileURI(from) + "?mode=ro&immutable=1"
	if exists(from + "-wal") {
		dsn = fileURI(from) // a -wal holds committed pages: let SQLite read them
	}
	src, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return 0, "", err
	}
	defer src.Close()
	src.SetMaxOpenConns(1)
	var tables int
	if err := src.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&tables); err != nil {
		return 0, "none of its rows (its first page, which holds the schema, cannot be read)", nil
	}
	for _, table := range salvagedTables {
		cols, err := columns(tx, table)
		if err != nil {
			return kept, "", err
		}
		n, err := salvageTable(src, tx, table, cols)
		kept += n
		if err != nil {
			return kept, "", err
		}
	}
	os.Remove(from + "-shm")
	return kept, fmt.Sprintf("the %d rows still readable in it", kept), nil
}

// columns lists a table's columns in the new database.
func columns(tx *sql.Tx, table string) (map[string]bool, error) {
	rows, err := tx.Query(`SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		cols[name] = true
	}
	return cols, rows.Err()
}

// copier copies the rows of one table.
type copier struct {
	src   *sql.DB
	tx    *sql.Tx
	table string
	cols  map[string]bool
	ins   *sql.Stmt
	keep  []int // the indexes of the source's columns the new table has
}

// lookupWindow is how many rowids are looked up one by one past a read
// that failed, before a scan is tried again.
const lookupWindow = 2048

// salvageTable reads table in rowid order. Where a scan fails, the next
// lookupWindow rowids are looked up one at a time (a damaged page can
// still point a scan's seek far away, or hold rows its neighbours' seeks
// reach), then the scan goes on past them; where nothing more can be
// scanned or looked up, it finds the next rowid a seek can reach
// (doubling the step, then halving back) and scans on from there.
func salvageTable(src *sql.DB, tx *sql.Tx, table string, cols map[string]bool) (int, error) {
	c := &copier{src: src, tx: tx, table: table, cols: cols}
	kept := 0
	next := int64(math.MinInt64)
	for range maxSkips {
		n, last, read, readErr, err := c.copyFrom(next)
		kept += n
		if err != nil || readErr == nil {
			return kept, err
		}
		p := next
		if read {
			p = last + 1
		}
		p = max(p, 1) // rowids SQLite gives start at 1
		found := false
		for v := p; v < p+lookupWindow && v > 0; v++ {
			ok, added, err := c.copyAt(v)
			if err != nil {
				return kept, err
			}
			found = found || ok
			if added {
				kept++
			}
		}
		if p > math.MaxInt64-lookupWindow {
			return kept, nil
		}
		next = p + lookupWindow
		if found {
			continue
		}
		if _, _, err := c.probe(next); err == nil {
			continue
		}
		v, ok := c.after(next)
		if !ok {
			return kept, nil
		}
		next = v
	}
	return kept, nil
}

// copyAt copies the row of one rowid: found says it could be read, added
// that it was new.
func (c *copier) copyAt(v int64) (found, added bool, err error) {
	rows, err := c.src.Query(fmt.Sprintf(`SELECT rowid, * FROM %q WHERE rowid = ?`, c.table), v)
	if err != nil {
		return c.copyReadable(v)
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		return c.copyReadable(v)
	}
	if !rows.Next() {
		if rows.Err() != nil {
			return c.copyReadable(v)
		}
		return false, false, nil // no row of this rowid
	}
	if c.ins == nil {
		if err := c.prepare(names); err != nil {
			return false, false, err
		}
	}
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if rows.Scan(ptrs...) != nil {
		return c.copyReadable(v)
	}
	added, err = c.insert(vals)
	return err == nil, added, err
}

// copyReadable copies what can be read of the row of rowid v, a column
// at a time: a row whose long value lies on a damaged overflow page still
// has its other columns. A column that cannot be read takes its default;
// a row that cannot do without it (its id, its time) is left out.
func (c *copier) copyReadable(v int64) (found, added bool, err error) {
	rows, err := c.src.Query(`SELECT name FROM pragma_table_info(?)`, c.table)
	if err != nil {
		return false, false, nil
	}
	var names []string
	for rows.Next() {
		var name string
		if rows.Scan(&name) == nil {
			names = append(names, name)
		}
	}
	rows.Close()
	var cols, marks []string
	var args []any
	for _, name := range names {
		if !c.cols[name] {
			continue
		}
		var val any
		if c.src.QueryRow(fmt.Sprintf(`SELECT %q FROM %q WHERE rowid = ?`, name, c.table), v).Scan(&val) != nil {
			continue
		}
		cols, marks, args = append(cols, fmt.Sprintf("%q", name)), append(marks, "?"), append(args, val)
	}
	if len(args) == 0 {
		return false, false, nil
	}
	res, err := c.tx.Exec(fmt.Sprintf(`INSERT OR IGNORE INTO %q (%s) VALUES (%s)`, c.table, strings.Join(cols, ", "), strings.Join(marks, ", ")), args...)
	if err != nil {
		return false, false, err
	}
	n, _ := res.RowsAffected()
	return true, n > 0, nil
}

// insert adds a row read (rowid first) to the new table.
func (c *copier) insert(vals []any) (bool, error) {
	args := make([]any, len(c.keep))
	for i, k := range c.keep {
		args[i] = vals[k]
	}
	res, err := c.ins.Exec(args...)
	if err != nil {
		return false, err
	}
	added, _ := res.RowsAffected()
	return added > 0, nil
}

// copyFrom copies the rows from rowid next on, until the end or a read
// error (readErr); err is an error writing the new database. n counts the
// rows added, read says whether any row was read, last is the last rowid
// read.
func (c *copier) copyFrom(next int64) (n int, last int64, read bool, readErr, err error) {
	rows, err := c.src.Query(fmt.Sprintf(`SELECT rowid, * FROM %q WHERE rowid >= ? ORDER BY rowid`, c.table), next)
	if err != nil {
		return 0, 0, false, err, nil
	}
	defer rows.Close()
	names, err := rows.Columns()
	if err != nil {
		return 0, 0, false, err, nil
	}
	if c.ins == nil {
		if err := c.prepare(names); err != nil {
			return 0, 0, false, nil, err
		}
	}
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return n, last, read, err, nil
		}
		id, ok := vals[0].(int64)
		if !ok || id < next || (read && id <= last) {
			return n, last, read, errors.New("rows out of order"), nil
		}
		if read && id > last+1 { // a scan can step over rows a lookup still reads
			for v := last + 1; v < id && v <= last+lookupWindow; v++ {
				_, added, err := c.copyAt(v)
				if err != nil {
					return n, last, read, nil, err
				}
				if added {
					n++
				}
			}
		}
		added, err := c.insert(vals)
		if err != nil {
			return n, last, read, nil, err
		}
		if added {
			n++
		}
		last, read = id, true
	}
	return n, last, read, rows.Err(), nil
}

// prepare builds the insert for the source's columns the new table has.
func (c *copier) prepare(names []string) error {
	var cols, marks []string
	c.keep = nil
	for i, name := range names[1:] {
		if c.cols[name] {
			cols = append(cols, fmt.Sprintf("%q", name))
			marks = append(marks, "?")
			c.keep = append(c.keep, i+1)
		}
	}
	if len(cols) == 0 {
		return fmt.Errorf("the damaged database's %s table has no column this elicit knows", c.table)
	}
	ins, err := c.tx.Prepare(fmt.Sprintf(`INSERT OR IGNORE INTO %q (%s) VALUES (%s)`, c.table, strings.Join(cols, ", "), strings.Join(marks, ", ")))
	c.ins = ins
	return err
}

// probe seeks the first rowid at or after v, reading no contents.
func (c *copier) probe(v int64) (rowid int64, found bool, err error) {
	err = c.src.QueryRow(fmt.Sprintf(`SELECT rowid FROM %q WHERE rowid >= ? ORDER BY rowid LIMIT 1`, c.table), v).Scan(&rowid)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return rowid, err == nil, err
}

// after is the smallest rowid past bad that a seek can reach (a row there
// or after it, or the end of the table); false when none can be.
func (c *copier) after(bad int64) (int64, bool) {
	ok := func(v int64) bool { _, _, err := c.probe(v); return err == nil }
	lo := bad // a seek to lo fails, or the row there cannot be read
	var hi int64
	for step := int64(1); ; step *= 2 {
		if lo > math.MaxInt64-step {
			if lo == math.MaxInt64 || !ok(math.MaxInt64) {
				return 0, false
			}
			hi = math.MaxInt64
			break
		}
		if ok(lo + step) {
			hi = lo + step
			break
		}
		lo += step
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}
