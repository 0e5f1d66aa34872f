package responselog

import (
	"cmp"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/elicit/elicit/deliberation"
	"github.com/ncruces/go-sqlite3"
	"github.com/ncruces/go-sqlite3/ext/fts5"
)

// The decision ledger is a view of the log: every valid response and every
// deliberation synthesis is a decision, kept in the decisions table with
// its texts in a full-text index (SQLite's FTS5, Porter stemming), filled
// as the journal is ingested.
const ledgerSchema = `
CREATE TABLE IF NOT EXISTS decisions (
	id TEXT PRIMARY KEY,
	ts TEXT NOT NULL,
	kind TEXT NOT NULL,
	template_id TEXT NOT NULL DEFAULT '',
	form_id TEXT NOT NULL DEFAULT '',
	shape TEXT NOT NULL DEFAULT '',
	title TEXT NOT NULL DEFAULT '',
	project TEXT NOT NULL DEFAULT '',
	host TEXT NOT NULL DEFAULT '',
	via TEXT NOT NULL DEFAULT '',
	"user" TEXT NOT NULL DEFAULT '',
	ref TEXT NOT NULL DEFAULT '',
	body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS decisions_ts ON decisions (ts);
CREATE INDEX IF NOT EXISTS decisions_project ON decisions (project, ts);
CREATE INDEX IF NOT EXISTS decisions_template ON decisions (template_id, ts);
CREATE VIRTUAL TABLE IF NOT EXISTS decisions_text USING fts5(title, asked, answered, content = '', contentless_delete = 1,
	tokenize = 'porter unicode61');`

// registerFTS makes FTS5 part of every connection, once, the first time a
// database is opened (not at start-up: most calls never read the log).
var registerFTS = sync.OnceFunc(func() { sqlite3.AutoExtension(fts5.Register) })

// Decision is one entry of the ledger: what was asked and answered (a
// response), or what a deliberation concluded (a synthesis).
type Decision struct {
	ID   string    `json:"id"`
	Time time.Time `json:"ts"`
	// Kind is "response" or "synthesis".
	Kind string `json:"kind"`
	// TemplateID and FormID say which form was answered ("deliberation"
	// for a synthesis).
	TemplateID string `json:"template_id"`
	FormID     string `json:"form_id,omitempty"`
	Title      string `json:"title,omitempty"`
	Project    string `json:"project,omitempty"`
	Host       string `json:"host,omitempty"`
	Via        string `json:"via,omitempty"`
	User       string `json:"user,omitempty"`
	// ResponseID is the response's id; Deliberation the deliberation's.
	ResponseID   string `json:"response_id,omitempty"`
	Deliberation string `json:"deliberation,omitempty"`
	// Answers are a response's questions and answers, in the form's order.
	Answers []Answer `json:"answers,omitempty"`
	// Synthesis is a synthesis's conclusion.
	Synthesis *Synthesis `json:"synthesis,omitempty"`
}

// Answer is one question of a response and what was answered.
type Answer struct {
	Field    string `json:"field"`
	Question string `json:"question,omitempty"`
	Answer   any    `json:"answer"`
}

// decisionBody is what the decisions table keeps beside its columns.
type decisionBody struct {
	Answers   []Answer   `json:"answers,omitempty"`
	Synthesis *Synthesis `json:"synthesis,omitempty"`
}

// decisionRow is a record as the ledger keeps it.
type decisionRow struct {
	ref, body, asked, answered string
}

// decisionOf is r's decision; ok is false when r is not a decision (a
// response or a synthesis).
func decisionOf(r *Record) (d decisionRow, ok bool, err error) {
	var body decisionBody
	switch r.Kind {
	case KindResponse:
		body.Answers = answersOf(r)
		d.ref = r.ResponseID
	case KindSynthesis:
		if r.Synthesis == nil {
			return d, false, nil
		}
		body.Synthesis = r.Synthesis
		d.ref = r.Synthesis.Deliberation
	default:
		return d, false, nil
	}
	d.asked, d.answered = body.texts()
	data, err := json.Marshal(body)
	d.body = string(data)
	return d, err == nil, err
}

// addDecision adds r to an SQLite ledger when it is a decision; a
// decision already in is left as it is.
func addDecision(tx *sql.Tx, r *Record, ts string) error {
	d, err := prepareDecisions(tx)
	if err != nil {
		return err
	}
	defer d.close()
	return d.add(r, ts)
}

// decisionStmts insert decisions into the SQLite ledger and its full-text
// index, prepared once for an ingest.
type decisionStmts struct{ dec, text *sql.Stmt }

func prepareDecisions(tx *sql.Tx) (*decisionStmts, error) {
	dec, err := tx.Prepare(`INSERT INTO decisions (id, ts, kind, template_id, form_id, shape, title, project, host, via, "user", ref, body)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`)
	if err != nil {
		return nil, err
	}
	text, err := tx.Prepare(`INSERT INTO decisions_text (rowid, title, asked, answered) VALUES (?,?,?,?)`)
	if err != nil {
		dec.Close()
		return nil, err
	}
	return &decisionStmts{dec, text}, nil
}

func (s *decisionStmts) close() {
	s.dec.Close()
	s.text.Close()
}

// add inserts r's decision, if it is one and is not in the ledger yet.
func (s *decisionStmts) add(r *Record, ts string) error {
	d, ok, err := decisionOf(r)
	if !ok || err != nil {
		return err
	}
	res, err := s.dec.Exec(r.ID, ts, r.Kind, r.TemplateID, r.FormID, r.Shape, r.Title, r.Project, r.Host, r.Via, r.User, d.ref, d.body)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil
	}
	row, err := res.LastInsertId()
	if err != nil {
		return err
	}
	_, err = s.text.Exec(row, r.Title, d.asked, d.answered)
	return err
}

// texts are the words a decision is found by: its questions, and its
// answers (a synthesis: its answer and points).
func (b *decisionBody) texts() (asked, answered string) {
	if y := b.Synthesis; y != nil {
		return y.Question, strings.Join(slices.Concat([]string{y.Answer}, y.Agreed, y.Dismissed, y.Unresolved), "\n")
	}
	var q, a []string
	for _, an := range b.Answers {
		q = append(q, an.Question)
		a = append(a, textOf(an.Answer))
	}
	return strings.Join(q, "\n"), strings.Join(a, "\n")
}

// reindexDecisions indexes every decision again, after a damaged
// database was salvaged: the decisions still readable come back, and
// those that are not are made again from their records; the index is
// built anew.
func reindexDecisions(tx *sql.Tx) error {
	if _, err := tx.Exec(`DELETE FROM decisions_text`); err != nil {
		return err
	}
	if err := backfillDecisions(tx); err != nil {
		return err
	}
	if _, err := tx.Exec(`DELETE FROM decisions_text`); err != nil { // the backfill indexed its own
		return err
	}
	rows, err := tx.Query(`SELECT rowid, title, body FROM decisions`)
	if err != nil {
		return err
	}
	type row struct {
		id                     int64
		title, asked, answered string
	}
	var all []row
	for rows.Next() {
		var r row
		var body string
		if err := rows.Scan(&r.id, &r.title, &body); err != nil {
			rows.Close()
			return err
		}
		var b decisionBody
		json.Unmarshal([]byte(body), &b)
		r.asked, r.answered = b.texts()
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, r := range all {
		if _, err := tx.Exec(`INSERT INTO decisions_text (rowid, title, asked, answered) VALUES (?,?,?,?)`, r.id, r.title, r.asked, r.answered); err != nil {
			return err
		}
	}
	return nil
}

// pruneDecisions drops the decisions older than cutoff, as the log's
// retention drops its records.
func pruneDecisions(tx *sql.Tx, cutoff string) error {
	if _, err := tx.Exec(`DELETE FROM decisions_text WHERE rowid IN (SELECT rowid FROM decisions WHERE ts < ?)`, cutoff); err != nil {
		return err
	}
	_, err := tx.Exec(`DELETE FROM decisions WHERE ts < ?`, cutoff)
	return err
}

// answersOf pairs a response record's answers with its questions, in the
// form's order (the answers' keys in order when the record has no
// questions: one written before they were kept).
func answersOf(r *Record) []Answer {
	var answers map[string]any
	if len(r.Responses) > 0 {
		json.Unmarshal(r.Responses, &answers)
	}
	questions := r.Questions
	if len(questions) == 0 && len(r.Form) > 0 {
		type field struct {
			ID    string `json:"id"`
			Text  string `json:"text"`
			Label string `json:"label"` // attune-forms' alias of text
		}
		var def struct {
			Fields    []field `json:"fields"`
			Questions []field `json:"questions"` // attune-forms' alias of fields
		}
		if json.Unmarshal(r.Form, &def) == nil {
			for _, q := range append(def.Fields, def.Questions...) {
				questions = append(questions, Question{Field: q.ID, Text: cmp.Or(q.Text, q.Label)})
			}
		}
	}
	var out []Answer
	for _, q := range questions {
		if v, ok := answers[q.Field]; ok {
			out = append(out, Answer{Field: q.Field, Question: q.Text, Answer: v})
		}
	}
	if len(questions) == 0 {
		for _, k := range slices.Sorted(maps.Keys(answers)) {
			out = append(out, Answer{Field: k, Answer: answers[k]})
		}
	}
	return out
}

// textOf is an answer's words: its strings and numbers, in order.
func textOf(v any) string {
	var parts []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			parts = append(parts, v)
		case float64:
			parts = append(parts, strconv.FormatFloat(v, 'f', -1, 64))
		case bool:
			parts = append(parts, strconv.FormatBool(v))
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				parts = append(parts, k)
				walk(v[k])
			}
		}
	}
	walk(v)
	return strings.Join(parts, "; ")
}

// DecisionFilter narrows the ledger.
type DecisionFilter struct {
	// Query keeps the decisions whose question, title, answer or
	// conclusion has every word of it (stemmed: "databases" finds
	// "database"), best match first; when none has every word, those with
	// any. "" keeps every decision, newest first.
	Query string
	// TemplateID keeps one template ("x" or "template:x", "dict",
	// "deliberation" for syntheses).
	TemplateID string
	// FormID keeps the responses to forms with this form_id.
	FormID string
	// Field keeps the responses that answered this field id.
	Field string
	// Project keeps one project's decisions; User one person's.
	Project, User string
	// Limit keeps the first Limit decisions (0: 20).
	Limit int
}

// defaultDecisions is how many decisions a listing shows by default.
const defaultDecisions = 20

// searchCandidates is how many of a search's matches are ranked: the
// newest ones. A word most decisions have would otherwise have every one
// of them scored, at a cost that grows with the ledger; among the newest
// 5,000 the best are found in milliseconds, and an older decision that
// matches as well is found by a word it has that fewer others do.
var searchCandidates = 5000 // a variable for the tests

// Decisions lists the ledger's decisions that f keeps.
func (s *Store) Decisions(f DecisionFilter) ([]Decision, error) {
	var out []Decision
	err := s.EachDecision(f, func(d Decision) error {
		out = append(out, d)
		return nil
	})
	return out, err
}

// EachDecision calls fn with each decision f keeps, in order, one row at
// a time (a listing of any length holds one decision in memory); an error
// of fn stops it and is returned.
func (s *Store) EachDecision(f DecisionFilter, fn func(Decision) error) error {
	if f.Limit <= 0 {
		f.Limit = defaultDecisions
	}
	where, args := f.where(s)
	terms := queryTerms(f.Query)
	if len(terms) == 0 {
		_, err := s.eachDecision(`SELECT `+decisionCols+` FROM decisions d`+where+` ORDER BY d.ts DESC LIMIT ?`, fn, append(args, f.Limit)...)
		return err
	}
	for _, anyWord := range []bool{false, true} { // every word, then any
		q, match := s.backend().search(terms, anyWord, where)
		n, err := s.eachDecision(q, fn, append(append([]any{match}, args...), f.Limit)...)
		if err != nil || n > 0 || len(terms) == 1 {
			return err
		}
	}
	return nil
}

// Decision is the decision with id (a record id, a response id, or a
// deliberation id: its newest synthesis), or the one whose id starts with
// id; ErrNotFound when there is none.
func (s *Store) Decision(id string) (Decision, error) {
	out, err := s.decisions(`SELECT `+decisionCols+` FROM decisions d WHERE d.id = ?1 OR d.ref = ?1 ORDER BY d.ts DESC LIMIT 1`, id)
	if err == nil && len(out) == 0 {
		out, err = s.decisions(`SELECT `+decisionCols+` FROM decisions d WHERE substr(d.id, 1, length(?1)) = ?1 LIMIT 2`, id)
	}
	switch {
	case err != nil:
		return Decision{}, err
	case len(out) == 0:
		return Decision{}, ErrNotFound
	case len(out) > 1:
		return Decision{}, fmt.Errorf("%q is the start of more than one decision id: give more of it", id)
	}
	return out[0], nil
}

const decisionCols = `d.id, d.ts, d.kind, d.template_id, d.form_id, d.title, d.project, d.host, d.via, d."user", d.ref, d.body`

func (f DecisionFilter) where(s *Store) (string, []any) {
	var conds []string
	var args []any
	add := func(cond string, v any) {
		conds = append(conds, cond)
		args = append(args, v)
	}
	if f.TemplateID != "" {
		id := f.TemplateID
		if id != "deliberation" {
			id = templateID(id)
		}
		add("d.template_id = ?", id)
	}
	if f.FormID != "" {
		add("d.form_id = ?", f.FormID)
	}
	if f.Field != "" {
		add(s.backend().answered(), f.Field)
	}
	if f.Project != "" {
		add("d.project = ?", f.Project)
	}
	if f.User != "" {
		add(`d."user" = ?`, f.User)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

func (s *Store) decisions(q string, args ...any) ([]Decision, error) {
	var out []Decision
	_, err := s.eachDecision(q, func(d Decision) error {
		out = append(out, d)
		return nil
	}, args...)
	return out, err
}

// eachDecision calls fn with each decision q reads, and counts them.
func (s *Store) eachDecision(q string, fn func(Decision) error, args ...any) (int, error) {
	rows, err := s.query(q, args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var d Decision
		var ts, ref, body string
		if err := rows.Scan(&d.ID, &ts, &d.Kind, &d.TemplateID, &d.FormID, &d.Title, &d.Project, &d.Host, &d.Via, &d.User, &ref, &body); err != nil {
			return n, err
		}
		d.Time, _ = time.Parse(time.RFC3339Nano, ts)
		var b decisionBody
		if err := json.Unmarshal([]byte(body), &b); err != nil {
			return n, fmt.Errorf("decision %s: %w", d.ID, err)
		}
		d.Answers, d.Synthesis = b.Answers, b.Synthesis
		if d.Kind == KindSynthesis {
			d.Deliberation = ref
		} else {
			d.ResponseID = ref
		}
		n++
		if err := fn(d); err != nil {
			return n, err
		}
	}
	return n, rows.Err()
}

// queryTerms are the words of a search, lower-cased: letters and digits
// only, so no character of a person's query is search syntax.
func queryTerms(q string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		out = append(out, strings.ToLower(w))
	}
	return out
}

// Recalled is a field's last answer, as a recall offers it.
type Recalled struct {
	Field      string    `json:"field"`
	Answer     any       `json:"answer"`
	ResponseID string    `json:"response_id"`
	Time       time.Time `json:"ts"`
}

// LastAnswers is the newest answer to each of fields in the project's
// responses to the same form: the same template, else the same form_id,
// else (a hand-built form) the same shape. A field no response answered is
// left out.
func (s *Store) LastAnswers(templateID, formID, shape, project string, fields []string) (map[string]Recalled, error) {
	cond, key := "template_id = ?", templateID
	switch {
	case strings.HasPrefix(templateID, "template:"):
	case formID != "":
		cond, key = "form_id = ?", formID
	default:
		cond, key = "template_id = 'dict' AND shape = ?", shape
	}
	rows, err := s.query(`SELECT ts, ref, body FROM decisions WHERE kind = 'response' AND project = ? AND `+cond+` ORDER BY ts DESC LIMIT 200`, project, key)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]Recalled{}
	for rows.Next() && len(out) < len(fields) {
		var ts, ref, body string
		if err := rows.Scan(&ts, &ref, &body); err != nil {
			return nil, err
		}
		var b decisionBody
		if json.Unmarshal([]byte(body), &b) != nil {
			continue
		}
		when, _ := time.Parse(time.RFC3339Nano, ts)
		for _, a := range b.Answers {
			if _, done := out[a.Field]; !done && slices.Contains(fields, a.Field) {
				out[a.Field] = Recalled{Field: a.Field, Answer: a.Answer, ResponseID: ref, Time: when}
			}
		}
	}
	return out, rows.Err()
}

// migrateLedger brings a database of schema before to the ledger's: the
// records' project and user, the decisions tables, and the decisions of
// the responses already logged.
func migrateLedger(db *sql.DB, before int) error {
	if before >= 1 && before < 3 {
		for _, col := range []string{"project", `"user"`} {
			if _, err := db.Exec(`ALTER TABLE records ADD COLUMN ` + col + ` TEXT NOT NULL DEFAULT ''`); err != nil && !strings.Contains(err.Error(), "duplicate column") {
				return err
			}
		}
	}
	if _, err := db.Exec(ledgerSchema); err != nil {
		return err
	}
	if before >= 3 || before == 0 {
		return nil
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := backfillDecisions(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// backfillDecisions adds the decision of every response record that has
// none: a database written before the ledger, or one salvaged, whose
// decisions could not all be read back (a template's questions are then
// its field ids; a hand-built form's come from its shape).
func backfillDecisions(tx *sql.Tx) error {
	rows, err := tx.Query(`SELECT r.id, r.ts, r.template_id, r.form_id, r.shape, r.title, r.host, r.via, r.response_id, r.responses,
		r.project, r."user", coalesce(s.form, '') FROM records r LEFT JOIN shapes s ON s.shape = r.shape AND r.template_id = 'dict'
		WHERE r.kind = 'response' AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.id = r.id)`)
	if err != nil {
		return err
	}
	var old []Record
	var times []string
	for rows.Next() {
		var r Record
		var ts, responses, def string
		if err := rows.Scan(&r.ID, &ts, &r.TemplateID, &r.FormID, &r.Shape, &r.Title, &r.Host, &r.Via, &r.ResponseID, &responses,
			&r.Project, &r.User, &def); err != nil {
			rows.Close()
			return err
		}
		r.Kind, r.Responses = KindResponse, json.RawMessage(responses)
		if def != "" {
			r.Form = json.RawMessage(def)
		}
		old, times = append(old, r), append(times, ts)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(old) == 0 {
		return nil
	}
	d, err := prepareDecisions(tx)
	if err != nil {
		return err
	}
	defer d.close()
	for i := range old {
		if err := d.add(&old[i], times[i]); err != nil {
			return err
		}
	}
	return nil
}

// Summary is the decision in one line: its day, then each question and
// what was answered (a synthesis: the question and its answer).
func (d *Decision) Summary() string {
	var parts []string
	if d.Synthesis != nil {
		parts = append(parts, d.Synthesis.Question+" "+d.Synthesis.Answer)
	}
	for _, a := range d.Answers {
		q := a.Question
		if q == "" {
			q = a.Field + ":"
		}
		parts = append(parts, q+" "+textOf(a.Answer))
	}
	return d.Time.UTC().Format(time.DateOnly) + ": " + strings.Join(parts, "; ")
}

// SynthesisRecord is the ledger's record of deliberation id's synthesis y.
// Its id follows from the deliberation and the answer, so a synthesis
// asked for again is one decision, and a new answer another.
func SynthesisRecord(id string, y *deliberation.Synthesis, who Who) Record {
	s := Synthesis{Deliberation: id, Question: y.Question, Answer: y.Answer}
	for _, p := range y.Agreed {
		s.Agreed = append(s.Agreed, p.Point)
	}
	for _, p := range y.Dismissed {
		s.Dismissed = append(s.Dismissed, p.Point)
	}
	for _, p := range y.Unresolved {
		s.Unresolved = append(s.Unresolved, p.Point)
	}
	r := NewSynthesis(s, who)
	sum := sha256.Sum256([]byte(id + "\x00" + y.Answer))
	r.ID = "syn-" + hex.EncodeToString(sum[:8])
	return r
}
