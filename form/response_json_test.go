package form

import (
	"bytes"
	"encoding/json"
	"testing"
)

// checkAppendJSON fails unless r.AppendJSON writes what encoding/json
// writes for r with HTML escaping off.
func checkAppendJSON(t *testing.T, r *Response) {
	t.Helper()
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	got, err := r.AppendJSON([]byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "x"+string(bytes.TrimSuffix(want.Bytes(), []byte{'\n'})) {
		t.Errorf("AppendJSON:\n%s\nencoding/json:\n%s", got[1:], want.Bytes())
	}
}

func TestResponseAppendJSONMatchesReflection(t *testing.T) {
	for _, r := range []*Response{
		nil,
		{},
		{Success: true, Responses: map[string]any{}, ResponseID: "resp-1", TemplateID: "template:<a&b>"},
		{Success: true, ResponseID: "r", Responses: map[string]any{
			"n": 12.5, "tiny": 1e-9, "s": "a\u2028<b>", "l": []string{"x", "y"}, "none": nil,
			"triage":  map[string]string{"b": "fix now", "a": "defer"},
			"assumed": map[string]any{"db": map[string]any{"edit": "PostgreSQL"}, "go": "accept"},
		}},
	} {
		checkAppendJSON(t, r)
	}
	if _, err := (&Response{Responses: map[string]any{"f": func() {}}}).AppendJSON(nil); err == nil {
		t.Error("a value JSON cannot hold gave no error")
	}
}
