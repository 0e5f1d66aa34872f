package cli

import (
	"bytes"
	"testing"
	"time"

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

// TestHumanAge: list says an age in its largest whole unit, singular for 1.
func TestHumanAge(t *testing.T) {
	for _, tt := range []struct {
		age  time.Duration
		want string
	}{
		{0, "0 seconds"},
		{time.Second, "1 second"},
		{59 * time.Second, "59 seconds"},
		{3*time.Minute + 20*time.Second, "3 minutes"},
		{time.Hour, "1 hour"},
		{5*time.Hour + 59*time.Minute, "5 hours"},
		{24 * time.Hour, "1 day"},
		{7262*time.Hour + 34*time.Minute + 23*time.Second, "302 days"},
	} {
		if got := humanAge(tt.age); got != tt.want {
			t.Errorf("humanAge(%v) = %q, want %q", tt.age, got, tt.want)
		}
	}
}
