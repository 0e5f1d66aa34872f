package deliberation

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/problem"
)

func door(id string) string { return "DOOR-REBUILD " + id }

// TestNameRestore: a door's words for the rebuild go after each problem
// (or error) that rebuilding mends, once however often the error is named,
// and nowhere else; what the error wraps stays reachable.
func TestNameRestore(t *testing.T) {
	plain := errors.New("plain")
	list := problem.List{{Path: "a", Message: "fine"}, restorable("X", problem.Problem{Path: "b", Message: "broken; rebuild it"})}
	tooLarge := fmt.Errorf("deliberation store: %w", &RestoreError{ID: "Y", Err: &infile.TooLargeError{Name: "f", Limit: stateInput}})
	tests := []struct {
		name string
		err  error
		want []string
	}{
		{"no error", nil, nil},
		{"another error", plain, []string{"plain"}},
		{"a list without one", problem.List{{Path: "a", Message: "fine"}}, []string{"a: fine"}},
		{"a list with one", list, []string{"a: fine", "b: broken; rebuild it with: DOOR-REBUILD X"}},
		{"an error of its own", tooLarge, []string{tooLarge.Error() + " with: DOOR-REBUILD Y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NameRestore(tt.err, door)
			if again := NameRestore(got, door); fmt.Sprint(again) != fmt.Sprint(got) {
				t.Errorf("named twice: %v", again)
			}
			var lines []string
			var probs problem.List
			switch {
			case got == nil:
			case errors.As(got, &probs):
				lines = probs.Strings()
			default:
				lines = []string{got.Error()}
			}
			if !slices.Equal(lines, tt.want) {
				t.Errorf("NameRestore = %q, want %q", lines, tt.want)
			}
		})
	}
	if got := NameRestore(tooLarge, door); !errors.Is(got, infile.ErrTooLarge) {
		t.Errorf("the named error %v no longer is ErrTooLarge", got)
	}
	if got := NameRestore(plain, door); got != plain {
		t.Errorf("an error without a rebuild came back as %v", got)
	}
}

// TestWhatRestoreMends: each way a state can be beyond use but rebuildable
// says so with a RestoreError of its deliberation: a missing state file (in
// a listing), one that does not decode, a transcript shorter than its
// state says, one whose records do not replay; a listing marks them.
func TestWhatRestoreMends(t *testing.T) {
	fresh := func(t *testing.T) (*Store, string) {
		st, id := started(t, "rebuild?")
		st.Respond(id, "1. a")
		return st, id
	}
	tests := []struct {
		name  string
		spoil func(st *Store, id string)
		want  string
	}{
		{"a state that does not decode", func(st *Store, id string) { os.WriteFile(st.StatePath(id), []byte(`{"version": "x"}`), 0o600) },
			"; rebuild the state file from its transcript"},
		{"a transcript shorter than its state says", func(st *Store, id string) { os.Truncate(st.TranscriptPath(id), 10) },
			"records are missing; rebuild the state from what the transcript has"},
		{"a transcript whose new records do not replay", func(st *Store, id string) {
			f, _ := os.OpenFile(st.TranscriptPath(id), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("not a record\n")
			f.Close()
		}, "the state cannot be brought up to date: rebuild it from the transcript's readable records"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, id := fresh(t)
			tt.spoil(st, id)
			_, err := st.Load(id)
			var re *RestoreError
			if !errors.As(err, &re) || re.ID != id || !strings.Contains(fmt.Sprint(err), tt.want) {
				t.Fatalf("Load: %v, want a RestoreError for %s saying %q", err, id, tt.want)
			}
			if named := NameRestore(err, door); !strings.HasSuffix(fmt.Sprint(named), " with: DOOR-REBUILD "+id) {
				t.Errorf("named: %v", named)
			}
		})
	}
	st, id := fresh(t)
	os.WriteFile(st.StatePath(id), []byte(`{"version": "x"}`), 0o600)
	entries, err := st.List()
	if err != nil || len(entries) != 1 || !entries[0].Restorable {
		t.Fatalf("a listing of an unreadable state: %+v, %v", entries, err)
	}
	again, _ := st.List() // from the listing cache
	NameRestores(again, door)
	if again[0].Restorable || !strings.HasSuffix(again[0].Error, "rebuild the state file from its transcript with: DOOR-REBUILD "+id) {
		t.Errorf("the cached entry, named: %+v", again[0])
	}
}
