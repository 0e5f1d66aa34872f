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
	// TemplateID keeps one template id ("template:x", "dict").
	TemplateID string
	// Shape keeps one form shape.
	Shape string
	// Limit keeps the newest Limit entries (0: all).
	Limit int
}

const entryColumns = `id, ts, kind, response_id, template_id, shape, title, host, host_version, via, surface,
	fields, inferred, kept, problems, responses`

// Responses lists the collected responses, newest first.
func (s *Store) Responses(f Filter) ([]Entry, error) {
	q := "SELECT " + entryColumns + " FROM records WHERE kind = ?"
	args := []any{KindResponse}
	if f.TemplateID != "" {
		q += " AND template_id = ?"
		args = append(args, f.TemplateID)
	}
	if f.Shape != "" {
		q += " AND shape = ?"
		args = append(args, f.Shape)
	}
	q += " ORDER BY ts DESC, id"
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	rows, err := s.db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Entry{}
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// ErrNotFound says no response has the id.
var ErrNotFound = errors.New("no response with this id")

// Response finds one response by its response id (or its record id, or a
// unique prefix of either).
func (s *Store) Response(id string) (Entry, error) {
	rows, err := s.db.Query("SELECT "+entryColumns+` FROM records WHERE kind = ? AND (response_id = ? OR id = ?
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
	var e Entry
	var ts, responses string
	err := rows.Scan(&e.ID, &ts, &e.Kind, &e.ResponseID, &e.TemplateID, &e.Shape, &e.Title, &e.Host, &e.HostVersion,
		&e.Via, &e.Surface, &e.Fields, &e.Inferred, &e.Kept, &e.Problems, &responses)
	if err != nil {
		return e, err
	}
	e.Time, _ = time.Parse(time.RFC3339Nano, ts)
	if responses != "" {
		e.Responses = json.RawMessage(responses)
	}
	return e, nil
}

// Form is the latest definition of a hand-built form of the given shape (or
// a unique prefix of it), with its title.
func (s *Store) Form(shape string) (def []byte, full, title string, err error) {
	rows, err := s.db.Query(`SELECT shape, title, form FROM shapes WHERE substr(shape, 1, length(?)) = ? ORDER BY last_seen DESC LIMIT 2`, shape, shape)
	if err != nil {
		return nil, "", "", err
	}
	defer rows.Close()
	var n int
	for rows.Next() {
		n++
		var form string
		if err := rows.Scan(&full, &title, &form); err != nil {
			return nil, "", "", err
		}
		if n == 1 {
			def = []byte(form)
		}
	}
	switch {
	case n == 0 || shape == "":
		return nil, "", "", fmt.Errorf("no hand-built form of shape %q in the response log (see elicit stats)", shape)
	case n > 1 && !strings.HasPrefix(full, shape):
		return nil, "", "", fmt.Errorf("%q is the start of more than one shape: give more of it", shape)
	}
	return def, full, title, rows.Err()
}

// MarkPromoted records that a shape was saved as template name, so stats
// stops suggesting it.
func (s *Store) MarkPromoted(shape, name string, now time.Time) error {
	_, err := s.db.Exec(`INSERT INTO promoted (shape, name, ts) VALUES (?, ?, ?)
		ON CONFLICT (shape) DO UPDATE SET name = excluded.name, ts = excluded.ts`, shape, name, now.UTC().Format(time.RFC3339Nano))
	return err
}
