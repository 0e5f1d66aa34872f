package cli

import (
	"bytes"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/internal/golden"
)

// TestWriteJSONAppender checks that a value writeJSON writes itself (a
// jsonenc.Appender, indented without encoding/json) comes out byte for byte
// as encoding/json's encoder writes it.
func TestWriteJSONAppender(t *testing.T) {
	for name, data := range formtest.Forms(t) {
		r := ask.Render(formtest.MustParse(t, data))
		var got bytes.Buffer
		if err := writeJSON(&got, r); err != nil {
			t.Fatal(err)
		}
		if want := golden.JSON(t, r); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: writeJSON wrote\n%s\nencoding/json writes\n%s", name, got.Bytes(), want)
		}
	}
}

// TestWriteJSONResponse checks form collect's output path: a response
// writeJSON writes itself comes out as encoding/json's encoder writes it,
// and a nil one as null.
func TestWriteJSONResponse(t *testing.T) {
	for _, r := range []*form.Response{
		nil,
		{Success: true, Responses: map[string]any{}, ResponseID: "resp-1", TemplateID: "dict"},
		{Success: true, ResponseID: "resp-2", TemplateID: "template:<t>", Responses: map[string]any{
			"budget": 3.0, "areas": []string{"a&b", "c"}, "why": "line\nbreak \u2028",
			"findings": map[string]string{"sqli": "fix now", "race": "defer"},
			"assumed":  map[string]any{"db": map[string]any{"edit": "PostgreSQL"}, "go": "accept"},
		}},
	} {
		var got bytes.Buffer
		if err := writeJSON(&got, r); err != nil {
			t.Fatal(err)
		}
		if want := golden.JSON(t, r); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("writeJSON wrote\n%s\nencoding/json writes\n%s", got.Bytes(), want)
		}
	}
}

// TestWriteJSONNilResult checks that a nil result is written as encoding/json
// writes it (null), not dereferenced.
func TestWriteJSONNilResult(t *testing.T) {
	var got bytes.Buffer
	if err := writeJSON(&got, (*ask.Result)(nil)); err != nil || got.String() != "null\n" {
		t.Errorf("writeJSON(nil result) = %q, %v; want null", got.String(), err)
	}
}
