package cli

import (
	"bytes"
	"testing"

	"github.com/elicit/elicit/deliberation"
)

// TestWriteJSONListMatchesWriteJSON: the listing, printed one entry at a
// time, is byte for byte what writeJSON prints for {deliberations: list},
// the shape deliberation_list returns.
func TestWriteJSONListMatchesWriteJSON(t *testing.T) {
	for _, entries := range [][]deliberation.Entry{
		nil,
		{{ID: "20260131-171500", Status: "active", QuestionExcerpt: "a <b> & c"}},
		{{ID: "20260131-171500", Iteration: 2}, {ID: "20260131-171501", Error: "unreadable\nfile"}, {ID: "20260131-171502"}},
	} {
		var want, got bytes.Buffer
		list := entries
		if list == nil {
			list = []deliberation.Entry{}
		}
		writeJSON(&want, map[string]any{"deliberations": list})
		if err := writeJSONList(&got, "deliberations", entries); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
		}
	}
}
