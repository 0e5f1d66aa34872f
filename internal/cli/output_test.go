package cli

import (
	"bytes"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
)

// TestWriteJSON pins what a command prints: two-space indentation, members
// in struct order and map keys sorted, <, > and & as themselves (answers are
// often code), U+2028 and control characters escaped, numbers as Go's
// shortest round-trip form, a nil result as null.
func TestWriteJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"nil result", (*ask.Result)(nil), "null\n"},
		{"nil response", (*form.Response)(nil), "null\n"},
		{"response", &form.Response{Success: true, ResponseID: "resp-2", TemplateID: "template:<t>", Responses: map[string]any{
			"budget": 3.0, "tiny": 1e-7, "big": 1e21, "areas": []string{"a&b", "c"}, "why": "line\nbreak \u2028\x01",
			"findings": map[string]string{"sqli": "fix now", "race": "defer"}, "empty": []string{},
		}}, `{
  "success": true,
  "responses": {
    "areas": [
      "a&b",
      "c"
    ],
    "big": 1e+21,
    "budget": 3,
    "empty": [],
    "findings": {
      "race": "defer",
      "sqli": "fix now"
    },
    "tiny": 1e-7,
    "why": "line\nbreak \u2028\u0001"
  },
  "response_id": "resp-2",
  "template_id": "template:<t>"
}
`},
	} {
		var got bytes.Buffer
		if err := writeJSON(&got, tc.v); err != nil {
			t.Fatal(err)
		}
		if got.String() != tc.want {
			t.Errorf("%s: writeJSON wrote\n%s\nwant\n%s", tc.name, got.String(), tc.want)
		}
	}
}
