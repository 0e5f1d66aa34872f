package responselog

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/form"
)

// TestFormIDIsRecordedAndListed checks that a form's form_id goes into its
// records, comes back in the listing, filters it and is counted in stats.
func TestFormIDIsRecordedAndListed(t *testing.T) {
	l, _ := testLog(t)
	f := mustForm(t, `{"title": "Audit scope", "form_id": "audit-scope", "fields": [{"id": "p", "text": "Which file?", "type": "text_input", "path_kind": "file"}]}`)
	plain := mustForm(t, `{"title": "Other", "fields": [{"id": "x", "text": "Q", "type": "boolean"}]}`)
	for i, fm := range []*form.Form{f, f, plain} {
		r := New(fm, Event{Kind: KindResponse, Response: &form.Response{ResponseID: fmt.Sprint("resp-", i), FormID: fm.FormID}}, Who{Host: "test", Via: "mcp"})
		r.ID, r.Time = fmt.Sprint("r", i), time.Date(2026, 12, 1, 0, 0, i, 0, time.UTC)
		if i == 0 && r.FormID != "audit-scope" {
			t.Fatalf("record form_id %q", r.FormID)
		}
		l.Append(r)
	}
	s := mustRead(t, l)
	list, err := s.Responses(Filter{FormID: "audit-scope"})
	if err != nil || len(list) != 2 || list[0].FormID != "audit-scope" {
		t.Fatalf("Responses(form_id) = %+v, %v; want the 2 responses of audit-scope", list, err)
	}
	why, _ := s.NoMatch(Filter{FormID: "nope"})
	if why != `no response in the response log has form_id "nope"` {
		t.Errorf("NoMatch = %q", why)
	}
	why, _ = s.NoMatch(Filter{FormID: "audit-scope", TemplateID: "review"})
	if why != `responses have form_id "audit-scope", but none of them is of template:review` {
		t.Errorf("NoMatch = %q", why)
	}
	st, err := s.Stats(false)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.ByFormID) != 1 || st.ByFormID["audit-scope"] != 2 {
		t.Errorf("submissions_by_form_id = %v, want audit-scope: 2", st.ByFormID)
	}
}

// TestVersion1DatabaseGainsFormID opens a database an elicit before form_id
// wrote: its records are kept, with an empty form_id, and new ones have
// theirs.
func TestVersion1DatabaseGainsFormID(t *testing.T) {
	l, _ := testLog(t)
	path := filepath.Join(l.dir, dbName)
	old := strings.Replace(schema, ",\n\tform_id TEXT NOT NULL DEFAULT ''", "", 1)
	if old == schema {
		t.Fatal("the test's version 1 schema is the current one")
	}
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{old, "PRAGMA user_version = 1",
		`INSERT INTO records (id, ts, kind, template_id, shape, response_id) VALUES ('old', '2026-01-01T00:00:00Z', 'response', 'dict', 'abc', 'resp-old')`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	l.Append(Record{ID: "new", Time: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC), Kind: KindResponse, TemplateID: "dict", Shape: "abc", FormID: "f1", ResponseID: "resp-new"})
	s := mustRead(t, l)
	if s.Partial {
		t.Fatal("the version 1 database could not be used")
	}
	list, err := s.Responses(Filter{})
	if err != nil || len(list) != 2 || list[0].FormID != "f1" || list[1].FormID != "" || list[1].ResponseID != "resp-old" {
		t.Errorf("responses %+v, %v", list, err)
	}
}
