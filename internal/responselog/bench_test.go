package responselog

import (
	"testing"

	"github.com/elicit/elicit/form"
)

// BenchmarkAppend is one CLI call's logging: build the record from the
// form and append it to the journal.
func BenchmarkAppend(b *testing.B) {
	f, err := form.Parse([]byte(`{"title": "Scope this work", "fields": [
		{"id": "goal", "text": "What are you trying to accomplish?", "type": "single_select",
		 "options": ["Fix a bug", "Add a feature"], "default": "Fix a bug", "inferred_from": "the failing test"},
		{"id": "focus", "text": "Which areas?", "type": "multi_select", "options": ["tests", "docs"]}]}`))
	if err != nil {
		b.Fatal(err)
	}
	l := Open(b.TempDir())
	who := Who{Host: "cli", Via: "cli"}
	for b.Loop() {
		l.Append(New(f, Event{Kind: KindRender, Surface: "ask"}, who))
	}
}
