package responselog

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Entry is one response or rejected collect as listed and exported.
type Entry struct {
	ID          string          `json:"id"`
	Time        time.Time       `json:"ts"`
	Kind        string          `json:"kind"`
	ResponseID  string          `json:"response_id,omitempty"`
	TemplateID  string          `json:"template_id"`
	Shape       string          `json:"shape"`
	FormID      string          `json:"form_id,omitempty"`
	Title       string          `json:"title"`
	Host        string          `json:"host"`
	HostVersion string          `json:"host_version,omitempty"`
	Via         string          `json:"via"`
	Surface     string          `json:"surface,omitempty"`
	Fields      int             `json:"fields"`
	Inferred    int             `json:"inferred"`
	Kept        int             `json:"kept"`
	Problems    int             `json:"problems,omitempty"`
	Responses   json.RawMessage `json:"responses,omitempty"`
}

// Filter narrows a listing.
type Filter struct {
	// TemplateID keeps one template id ("template:x", "dict"); a bare
	// template name ("x") is taken as its id.
	TemplateID string
	// Shape keeps one form shape, or the shape it is the unique prefix of
	// (as templates save --shape takes it).
	Shape string
	// FormID keeps the responses to forms with this form_id.
	FormID string
	// Limit keeps the newest Limit entries (0: all).
	Limit int
}

// templateID is the template id a --template value means: "dict" and
// "template:NAME" as they are, a bare NAME as "template:NAME".
func templateID(s string) string {
	if s == "" || s == "dict" || strings.HasPrefix(s, "template:") {
		return s
	}
	return "template:" + s
}

// responseShapes matches a shape prefix against the shapes of responses.
const responseShapes = `SELECT shape, max(title) FROM records WHERE kind = 'response' AND substr(shape, 1, length(?1)) = ?1
	GROUP BY shape ORDER BY shape`

// resolve normalizes a filter: the template id, and the shape its prefix
// stands for; found is false when no response has a shape with the prefix.
func (s *Store) resolve(f Filter) (_ Filter, found bool, err error) {
	f.TemplateID = templateID(f.TemplateID)
	if f.Shape == "" {
		return f, true, nil
	}
	full, err := s.matchShape(responseShapes, f.Shape)
	if err != nil || full == "" {
		return f, false, err
	}
	f.Shape = full
	return f, true, nil
}

// NoMatch says why no response matches f (after Responses listed none),
// or "" when some do.
func (s *Store) NoMatch(f Filter) (why string, err error) {
	err = s.retry(func() (err error) {
		why, err = s.noMatch(f)
		return err
	})
	return why, err
}

func (s *Store) noMatch(f Filter) (string, error) {
	f, found, err := s.resolve(f)
	switch {
	case err != nil:
		return "", err
	case !found:
		return fmt.Sprintf("no response in the response log has a shape starting %q", f.Shape), nil
	}
	count := func(f Filter) (int, error) {
		q, args := f.where()
		var n int
		err := s.queryRow("SELECT count(*) FROM records WHERE "+q, args...).Scan(&n)
		return n, err
	}
	if n, err := count(f); err != nil || n > 0 {
		return "", err
	}
	if f.FormID != "" {
		if n, err := count(Filter{FormID: f.FormID}); err != nil || n == 0 {
			return fmt.Sprintf("no response in the response log has form_id %q", f.FormID), err
		}
		if f.TemplateID == "" && f.Shape == "" {
			return "", nil // not reached: the form id alone matched
		}
		return fmt.Sprintf("responses have form_id %q, but none of them %s", f.FormID, f.narrowing()), nil
	}
	if f.TemplateID == "" { // a shape given was found among the responses
		return "the response log has no responses yet", nil
	}
	if n, err := count(Filter{TemplateID: f.TemplateID}); err != nil || n > 0 {
		return fmt.Sprintf("no response of %s has shape %s", f.TemplateID, f.Shape), err
	}
	ids, err := s.templateIDs()
	if err != nil {
		return "", err
	}
	there := "it has no responses yet"
	if len(ids) > 0 {
		there = "template ids there: " + strings.Join(ids, ", ")
	}
	return fmt.Sprintf("no response of %s in the response log (%s)", f.TemplateID, there), nil
}

// narrowing says what the filter asks beyond a form id: "is of
// template:x with shape abc".
func (f Filter) narrowing() string {
	var parts []string
	if f.TemplateID != "" {
		parts = append(parts, "of "+f.TemplateID)
	}
	if f.Shape != "" {
		parts = append(parts, "with shape "+f.Shape)
	}
	return "is " + strings.Join(parts, " ")
}

// templateIDs lists the template ids of the responses, at most
// listedShapes of them, then how many more.
func (s *Store) templateIDs() ([]string, error) {
	rows, err := s.query(`SELECT DISTINCT template_id FROM records WHERE kind = ? ORDER BY template_id`, KindResponse)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	n := 0
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		if n++; n <= listedShapes {
			ids = append(ids, id)
		}
	}
	if n > listedShapes {
		ids = append(ids, fmt.Sprintf("… %d more", n-listedShapes))
	}
	return ids, rows.Err()
}

// where is the filter's condition on responses and its arguments.
func (f Filter) where() (string, []any) {
	q := "kind = ?"
	args := []any{KindResponse}
	if f.TemplateID != "" {
		q += " AND template_id = ?"
		args = append(args, f.TemplateID)
	}
	if f.Shape != "" {
		q += " AND shape = ?"
		args = append(args, f.Shape)
	}
	if f.FormID != "" {
		q += " AND form_id = ?"
		args = append(args, f.FormID)
	}
	return q, args
}

const entryColumns = `id, ts, kind, response_id, template_id, shape, form_id, title, host, host_version, via, surface,
	fields, inferred, kept, problems, responses`

// Responses lists the collected responses, newest first.
// A shape prefix of several shapes is an error listing them.
func (s *Store) Responses(f Filter) ([]Entry, error) {
	out := []Entry{}
	err := s.EachResponse(f, false, func(e Entry) error {
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// errStop wraps an error of an EachResponse callback.
type errStop struct{ err error }

func (e errStop) Error() string { return e.err.Error() }

// EachResponse calls fn with each collected response, one row at a time
// (memory does not grow with the log), newest first or, with oldestFirst,
// oldest first; an error of fn stops it and is returned. A database found
// damaged midway is rebuilt and the listing goes on after the last entry
// given.
func (s *Store) EachResponse(f Filter, oldestFirst bool, fn func(Entry) error) error {
	var lastTS, lastID string
	given := 0
	err := s.retry(func() error {
		f, found, err := s.resolve(f)
		if err != nil || !found {
			return err
		}
		if f.Limit > 0 && given >= f.Limit {
			return nil
		}
		where, args := f.where()
		order := " ORDER BY ts DESC, id"
		after := " AND (ts < ? OR (ts = ? AND id > ?))"
		if oldestFirst {
			order, after = " ORDER BY ts, id DESC", " AND (ts > ? OR (ts = ? AND id < ?))"
		}
		if given > 0 {
			where += after
			args = append(args, lastTS, lastTS, lastID)
		}
		q := "SELECT " + entryColumns + " FROM records WHERE " + where + order
		if f.Limit > 0 {
			q += fmt.Sprintf(" LIMIT %d", f.Limit-given)
		}
		rows, err := s.query(q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			e, ts, err := scanEntryTS(rows)
			if err != nil {
				return err
			}
			if err := fn(e); err != nil {
				return errStop{err}
			}
			lastTS, lastID, given = ts, e.ID, given+1
		}
		return rows.Err()
	})
	if stop, ok := err.(errStop); ok {
		return stop.err
	}
	return err
}

// ErrNotFound says no response has the id.
var ErrNotFound = errors.New("no response with this id")

// Response finds one response by its response id (or its record id, or a
// unique prefix of either).
func (s *Store) Response(id string) (e Entry, err error) {
	err = s.retry(func() (err error) {
		e, err = s.response(id)
		return err
	})
	return e, err
}

func (s *Store) response(id string) (Entry, error) {
	rows, err := s.query("SELECT "+entryColumns+` FROM records WHERE kind = ? AND (response_id = ? OR id = ?
		OR substr(response_id, 1, length(?)) = ? OR substr(id, 1, length(?)) = ?) ORDER BY ts DESC LIMIT 2`,
		KindResponse, id, id, id, id, id, id)
	if err != nil {
		return Entry{}, err
	}
	defer rows.Close()
	var found []Entry
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return Entry{}, err
		}
		found = append(found, e)
	}
	if err := rows.Err(); err != nil {
		return Entry{}, err
	}
	switch {
	case len(found) == 0 || id == "":
		return Entry{}, ErrNotFound
	case len(found) > 1 && found[0].ResponseID != id && found[0].ID != id:
		return Entry{}, fmt.Errorf("%q is the start of more than one response id: give more of it", id)
	}
	return found[0], nil
}

func scanEntry(rows *sql.Rows) (Entry, error) {
	e, _, err := scanEntryTS(rows)
	return e, err
}

// scanEntryTS is scanEntry with the row's time as stored.
func scanEntryTS(rows *sql.Rows) (Entry, string, error) {
	var e Entry
	var ts, responses string
	err := rows.Scan(&e.ID, &ts, &e.Kind, &e.ResponseID, &e.TemplateID, &e.Shape, &e.FormID, &e.Title, &e.Host, &e.HostVersion,
		&e.Via, &e.Surface, &e.Fields, &e.Inferred, &e.Kept, &e.Problems, &responses)
	if err != nil {
		return e, ts, err
	}
	e.Time, _ = time.Parse(time.RFC3339Nano, ts)
	if responses != "" {
		e.Responses = json.RawMessage(responses)
	}
	return e, ts, nil
}

// Form is the latest definition of a hand-built form of the given shape (or
// a unique prefix of it), with its full shape and its title. A prefix of
// several shapes is an error listing them.
func (s *Store) Form(shape string) (def []byte, full, title string, err error) {
	err = s.retry(func() (err error) {
		def, full, title, err = s.form(shape)
		return err
	})
	return def, full, title, err
}

func (s *Store) form(shape string) (def []byte, full, title string, err error) {
	notFound := fmt.Errorf("no hand-built form of shape %q in the response log (see elicit stats)", shape)
	if shape == "" {
		return nil, "", "", notFound
	}
	full, err = s.matchShape(`SELECT shape, title FROM shapes WHERE substr(shape, 1, length(?1)) = ?1 ORDER BY shape`, shape)
	if err != nil {
		return nil, "", "", err
	}
	if full == "" {
		return nil, "", "", notFound
	}
	var form string
	if err := s.queryRow(`SELECT title, form FROM shapes WHERE shape = ?`, full).Scan(&title, &form); err != nil {
		return nil, "", "", err
	}
	return []byte(form), full, title, nil
}

// listedShapes is how many candidates an ambiguous shape's error lists:
// reference lists in messages stop at 20 items, then say how many more.
const listedShapes = 20

// matchShape resolves a shape prefix with q, a query of (shape, title)
// rows whose shape starts with ?1: the shape itself when it is one, the
// only match, "" for none, or an error listing the matches.
func (s *Store) matchShape(q, prefix string) (string, error) {
	rows, err := s.query(q, prefix)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var shapes, titles []string
	for rows.Next() {
		var shape, title string
		if err := rows.Scan(&shape, &title); err != nil {
			return "", err
		}
		if shape == prefix {
			return shape, nil
		}
		shapes, titles = append(shapes, shape), append(titles, title)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	switch len(shapes) {
	case 0:
		return "", nil
	case 1:
		return shapes[0], nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "shape %q is the start of %d shapes in the response log: ", prefix, len(shapes))
	for i := range min(len(shapes), listedShapes) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%s)", shapes[i], titles[i])
	}
	if more := len(shapes) - listedShapes; more > 0 {
		fmt.Fprintf(&b, ", … %d more", more)
	}
	b.WriteString("; give more of it")
	return "", errors.New(b.String())
}

// MarkPromoted records that a shape was saved as template name, so stats
// stops suggesting it.
func (s *Store) MarkPromoted(shape, name string, now time.Time) error {
	return s.retry(func() error { return s.markPromoted(shape, name, now) })
}

func (s *Store) markPromoted(shape, name string, now time.Time) error {
	_, err := s.exec(`INSERT INTO promoted (shape, name, ts) VALUES (?, ?, ?)
		ON CONFLICT (shape) DO UPDATE SET name = excluded.name, ts = excluded.ts`, shape, name, now.UTC().Format(time.RFC3339Nano))
	return err
}
