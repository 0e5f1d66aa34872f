package widget

import (
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
)

// TestRenderInvalidForm: a form built in Go that breaks a rule is not
// rendered (its type has no template): no panic, Success false, the
// problems named and shown.
func TestRenderInvalidForm(t *testing.T) {
	f := &form.Form{Title: "T", Fields: []form.Field{{ID: "a", Text: "Q1", Type: "bogus"}}}
	r := Render(f, nil)
	if r.Success || len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "fields[0].type: unknown type") {
		t.Fatalf("Render = success %v, problems %q", r.Success, r.Problems)
	}
	if !strings.Contains(r.HTML, "cannot be shown") || !strings.Contains(r.HTML, "unknown type &#34;bogus&#34;") {
		t.Errorf("HTML does not name the problem: %s", r.HTML)
	}
}
