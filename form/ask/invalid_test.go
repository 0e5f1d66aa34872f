package ask

import (
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
)

// TestRenderInvalidForm: an unknown type is not rendered as a success.
func TestRenderInvalidForm(t *testing.T) {
	f := &form.Form{Title: "T", Fields: []form.Field{{ID: "a", Text: "Q1", Type: "bogus"}}}
	for name, r := range map[string]*Result{"Render": Render(f), "RenderOnly": RenderOnly(f, "a")} {
		if r.Success || len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "fields[0].type: unknown type") || len(r.AskUserQuestion) != 0 {
			t.Errorf("%s = success %v, problems %q, %d inputs", name, r.Success, r.Problems, len(r.AskUserQuestion))
		}
	}
}
