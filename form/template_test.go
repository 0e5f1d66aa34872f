package form

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

func TestCastSessionContract(t *testing.T) {
	ts := &Templates{}
	f, err := ts.Cast("session-contract", map[string]string{"project": "elicit"})
	if err != nil {
		t.Fatal(err)
	}
	if f.Title != "Session contract: elicit" || f.Fields[0].Text != "What kind of session is this for elicit?" {
		t.Errorf("slots not filled: %q / %q", f.Title, f.Fields[0].Text)
	}
	var ids []string
	for _, fl := range f.Fields {
		ids = append(ids, fl.ID+":"+string(fl.Type))
	}
	want := []string{"mode:single_select", "outcome:text_input", "done_when:textarea", "effort_cap:text_input"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	if f.Fields[3].Required || f.Fields[2].MaxLength != 500 {
		t.Errorf("effort_cap must be optional and done_when capped at 500")
	}
}

func TestCastProblemsTogether(t *testing.T) {
	folder := fstest.MapFS{
		"broken.json": {Data: []byte(`{"title": "For {project} and {who}", "slots": ["project", "unused", "Bad"],
			"fields": [{"id": "a", "text": "Literal {{x} stays", "type": "boolean", "maximun": 1}]}`)},
	}
	ts := &Templates{Folder: folder}
	_, err := ts.Cast("broken", map[string]string{"extra": "1"})
	want := []string{
		`slots[2]: "Bad" is not a valid slot name (use lowercase letters, digits, '_' and '-')`,
		`title: uses undeclared placeholder {who} (declare it in "slots", or write {{who} for a literal brace)`,
		"slots.project: missing value (pass --slot project=VALUE)",
		"slots.unused: missing value (pass --slot unused=VALUE)",
		"slots.unused: declared but never used in the template",
		"slots.extra: unexpected value: the template declares only project, unused",
		"fields[0].maximun: unknown key (did you mean 'maximum'?)",
	}
	probs, _ := err.(problem.List)
	if diff := cmp.Diff(want, probs.Strings()); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestCastLiteralBraceAndEmptySlot(t *testing.T) {
	ts := &Templates{Folder: fstest.MapFS{"lit.json": {Data: []byte(`{"title": "{{p} is {p}", "slots": ["p"],
		"fields": [{"id": "a", "text": "A {x?", "type": "boolean"}]}`)}}}
	f, err := ts.Cast("lit", map[string]string{"p": "x"})
	if err != nil || f.Title != "{p} is x" || f.Fields[0].Text != "A {x?" {
		t.Fatalf("Cast = %+v, %v", f, err)
	}
	if _, err := ts.Cast("lit", map[string]string{"p": "  "}); err == nil || !strings.Contains(err.Error(), "slots.p: empty value") {
		t.Errorf("empty slot: %v", err)
	}
}

func TestTemplateNamesAndOverrides(t *testing.T) {
	folder := fstest.MapFS{
		"session-contract.json": {Data: []byte(`{"title": "Mine", "fields": [{"id": "a", "text": "A?", "type": "boolean"}]}`)},
		"retro.json":            {Data: []byte(`{"title": "Retro for {team}", "slots": ["team"], "fields": [{"id": "a", "text": "A?", "type": "boolean"}]}`)},
		"bad.json":              {Data: []byte(`[`)},
		"Upper.json":            {Data: []byte(`{}`)},
	}
	ts := &Templates{Folder: folder}
	got := ts.List()
	want := []TemplateInfo{
		{Name: "bad", Source: "folder", Slots: []string{}, Error: "template bad is not valid JSON: at line 1, column 2: unexpected end of input (expected a value)"},
		{Name: "retro", Title: "Retro for {team}", Slots: []string{"team"}, Fields: 1, Source: "folder"},
		{Name: "session-contract", Title: "Mine", Slots: []string{}, Fields: 1, Source: "folder"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	for _, name := range []string{"../etc/passwd", "Upper", "a/b", ""} {
		if _, _, err := ts.Source(name); err == nil || !strings.Contains(err.Error(), "invalid template name") {
			t.Errorf("Source(%q) err = %v", name, err)
		}
	}
	if _, _, err := ts.Source("nope"); err == nil || err.Error() != `unknown template "nope" (available: bad, retro, session-contract)` {
		t.Errorf("unknown: %v", err)
	}
}
