package readme

import (
	"regexp"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/responselog"
)

var (
	scopeBlock = regexp.MustCompile("(?s)```json\n(\\{\"title\": \"Scope this work\".*?)```")
	shapeRef   = regexp.MustCompile(`(?:dict|--shape) ([0-9a-f]{12})\b`)
)

// TestDocsShapesMatchTheREADMEForm checks that every shape the docs show
// (the stats example, and what it passes to templates save --shape) is the
// shape of the README's own "Scope this work" form, so that the example
// works as written.
func TestDocsShapesMatchTheREADMEForm(t *testing.T) {
	all := pages(t)
	m := scopeBlock.FindSubmatch(all["README.md"])
	if m == nil {
		t.Fatal(`README.md has no json block with the "Scope this work" form`)
	}
	f, err := form.Parse(m[1])
	if err != nil {
		t.Fatalf("the README's Scope this work form: %v", err)
	}
	want := responselog.Shape(f)
	n := 0
	for page, data := range all {
		for _, r := range shapeRef.FindAllSubmatch(data, -1) {
			n++
			if string(r[1]) != want {
				t.Errorf("%s shows shape %s; the README's Scope this work form has shape %s", page, r[1], want)
			}
		}
	}
	if n == 0 {
		t.Fatal("neither README.md nor docs/*.md shows a shape")
	}
}
