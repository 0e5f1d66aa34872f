package surfaces

import (
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/codex"
	"github.com/elicit/elicit/form/markdown"
	"github.com/elicit/elicit/form/native"
)

// TestInvalidFormRefused: every surface refuses a form built in Go that
// breaks a rule, naming its problems, instead of rendering or collecting it.
func TestInvalidFormRefused(t *testing.T) {
	f := &form.Form{Title: "T", Fields: []form.Field{{ID: "n", Text: "N", Type: form.Number, Default: "abc"}}}
	const want = "fields[0].default: must be a number"
	has := func(probs []string) bool { return len(probs) == 1 && strings.Contains(probs[0], want) }
	if r := markdown.Render(f, nil); r.Success || !has(r.Problems) || r.Markdown != "" {
		t.Errorf("markdown.Render = %+v", r)
	}
	if r := codex.Render(f); r.Success || !has(r.Problems) || len(r.RequestUserInput) != 0 {
		t.Errorf("codex.Render = %+v", r)
	}
	if r := native.Render(f); !has(r.Problems) || len(r.Schema.Properties) != 0 {
		t.Errorf("native.Render = %+v", r)
	}
	if _, err := Collect(f, []Document{{Data: []byte(`{"n": 1}`)}}, nil); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("surfaces.Collect = %v", err)
	}
}

// TestNilOrInvalidFormEveryEntry: each entry point that reads answers for
// a form refuses a nil or invalid one with its problem, before reading any
// answer (a nil form was a nil dereference in Collect and ReadResponse).
func TestNilOrInvalidFormEveryEntry(t *testing.T) {
	bogus := &form.Form{Title: "T", Fields: []form.Field{{ID: "a", Text: "Q1", Type: "bogus"}}}
	for _, tc := range []struct {
		name string
		f    *form.Form
		want string
	}{
		{"nil", nil, "form: missing (a nil *Form"},
		{"invalid", bogus, `fields[0].type: unknown type "bogus"`},
	} {
		for _, doc := range []Document{{Name: "json", Data: []byte(`{"a": "x"}`)}, {Name: "reply", Data: []byte("a: x\n")}} {
			check := func(entry string, err error) {
				t.Helper()
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s form, %s document: %s = %v, want %q", tc.name, doc.Name, entry, err, tc.want)
				}
			}
			_, err := Collect(tc.f, []Document{doc}, nil)
			check("Collect", err)
			_, err = ReadResponse(tc.f, doc, nil)
			check("ReadResponse", err)
			_, err = ParseResponse(tc.f, doc.Data, nil)
			check("ParseResponse", err)
			_, err = ParseAnswers(tc.f, doc.Data)
			check("ParseAnswers", err)
		}
	}
	if r := NewReask(nil, nil, ""); r != nil {
		t.Errorf("NewReask(nil) = %+v", r)
	}
}

// TestUnknownFormatRefused: a document format elicit does not read is
// refused, naming the document and the formats, not read as JSON.
func TestUnknownFormatRefused(t *testing.T) {
	f, err := form.Parse([]byte(`{"title": "T", "fields": [{"id": "a", "text": "Q", "type": "text_input"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	const want = `reply.format: unknown format "yaml" (use auto, json, markdown)`
	d := Document{Name: "reply", Format: "yaml", Data: []byte(`{"a": "x"}`)}
	if _, err := Collect(f, []Document{d}, nil); err == nil || err.Error() != want {
		t.Errorf("Collect = %v, want %s", err, want)
	}
	if _, err := ReadResponse(f, d, nil); err == nil || err.Error() != want {
		t.Errorf("ReadResponse = %v, want %s", err, want)
	}
	d.Format = ""
	if _, err := Collect(f, []Document{d}, nil); err != nil {
		t.Errorf("no format (auto): %v", err)
	}
}
