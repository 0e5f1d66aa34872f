package readme

import (
	"os"
	"regexp"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/responselog"
)

var (
	scopeBlock = regexp.MustCompile("(?s)```json\n(\\{\"title\": \"Scope this work\".*?)```")
	shapeRef   = regexp.MustCompile(`(?:dict|--shape) ([0-9a-f]{12})\b`)
)

// TestREADMEShapesMatchItsForm checks that the shape the README's stats
// example shows (and passes to templates save --shape) is the shape of the
// README's own "Scope this work" form, so that the example works as
// written.
func TestREADMEShapesMatchItsForm(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := scopeBlock.FindSubmatch(data)
	if m == nil {
		t.Fatal(`README.md has no json block with the "Scope this work" form`)
	}
	f, err := form.Parse(m[1])
	if err != nil {
		t.Fatalf("the README's Scope this work form: %v", err)
	}
	want := responselog.Shape(f)
	refs := shapeRef.FindAllSubmatch(data, -1)
	if len(refs) == 0 {
		t.Fatal("README.md shows no shape")
	}
	for _, r := range refs {
		if string(r[1]) != want {
			t.Errorf("README shows shape %s; its Scope this work form has shape %s", r[1], want)
		}
	}
}
