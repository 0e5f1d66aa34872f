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

// TestUnknownTypeFails: a field type the template has no block for is an
// error from render, never a panic, and Render reports a problem.
func TestUnknownTypeFails(t *testing.T) {
	f := &form.Form{Title: "T", Fields: []form.Field{{ID: "a", Text: "A", Type: "bogus"}}}
	if _, err := render(f, &Options{}); err == nil || !strings.Contains(err.Error(), `"bogus"`) {
		t.Errorf("render = %v, want an error naming the type", err)
	}
	if r := Render(f, nil); r.Success || len(r.Problems) == 0 {
		t.Errorf("Render = %+v, want a failure", r)
	}
}
