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
