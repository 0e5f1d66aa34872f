package formrun

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/codex"
	"github.com/elicit/elicit/form/surfaces"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/elicit/elicit/problem"
)

const scope = `{"title": "Scope", "fields": [
	{"id": "goal", "text": "Goal?", "type": "single_select", "options": ["a", "b", "c", "d"]},
	{"id": "hours", "text": "Hours?", "type": "number"}]}`

func parse(t *testing.T) *form.Form {
	t.Helper()
	f, err := form.Parse([]byte(scope))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// records reads the kinds and surfaces the door logged.
func records(t *testing.T, l *responselog.Log) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(l.Dir(), "journal.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var r responselog.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r.Kind+":"+r.Surface)
	}
	return out
}

// TestCollectedRecords: a submission and answers with problems are logged
// with the surface; an error that is no answer's problem logs nothing.
func TestCollectedRecords(t *testing.T) {
	tests := []struct {
		name string
		r    *form.Response
		err  error
		want []string
	}{
		{"a submission", &form.Response{Responses: map[string]any{"goal": "a"}}, nil, []string{"response:terminal"}},
		{"answers with problems", nil, &surfaces.Failure{Problems: problem.List{{Message: "x"}, {Message: "y"}}}, []string{"rejected:terminal"}},
		{"another error", nil, errors.New("the input ended"), nil},
		{"nothing collected", nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := responselog.Open(t.TempDir())
			d := &Door{Log: l, Who: responselog.MCPHost("test", "1")}
			d.Collected(Form{Form: parse(t)}, form.SurfaceTerminal, tt.r, tt.err)
			if got := records(t, l); !slices.Equal(got, tt.want) {
				t.Errorf("logged %q, want %q", got, tt.want)
			}
		})
	}
}

// TestAnsweredOn: the surface of the last document whose text tells one.
func TestAnsweredOn(t *testing.T) {
	f := parse(t)
	askText := surfaces.Document{Name: "reply", Format: surfaces.FormatAuto, Data: []byte(`"Goal?"="a"`)}
	md := surfaces.Document{Name: "reply", Format: surfaces.FormatMarkdown, Data: []byte("1. a")}
	plain := surfaces.Document{Name: "answers", Format: surfaces.FormatJSON, Data: []byte(`{"goal": "a"}`)}
	tests := []struct {
		docs []surfaces.Document
		want form.Surface
	}{
		{nil, ""},
		{[]surfaces.Document{plain}, ""},
		{[]surfaces.Document{askText, plain}, form.SurfaceAsk},
		{[]surfaces.Document{askText, md}, form.SurfaceMarkdown},
	}
	for _, tt := range tests {
		if got := AnsweredOn(f, tt.docs); got != tt.want {
			t.Errorf("AnsweredOn(%d documents) = %q, want %q", len(tt.docs), got, tt.want)
		}
	}
}

// TestRenderRecordsAndPhrases: a render logs the render, and every "how"
// is in the door's words; routing logs the choice, its "how" in the door's
// words too; a door without a log records nothing and renders all the
// same.
func TestRenderRecordsAndPhrases(t *testing.T) {
	l := responselog.Open(t.TempDir())
	how := func(s form.Surface) string { return "door words for " + string(s) }
	d := &Door{Log: l, How: how}
	f := Form{Form: parse(t)}
	res := d.Render(f, "").(*ask.Result)
	if len(res.Unsupported) != 1 || res.Unsupported[0].How != "door words for markdown" {
		t.Errorf("unsupported = %+v", res.Unsupported)
	}
	if got, want := records(t, l), []string{"render:ask"}; !slices.Equal(got, want) {
		t.Errorf("a render logged %q, want %q", got, want)
	}
	if c := d.Route(f, &form.SurfaceOptions{NoWidgets: true}); c.Surface != form.SurfaceAsk || c.How != "door words for ask" {
		t.Errorf("choice = %+v", c)
	}
	if got, want := records(t, l), []string{"render:ask", "surface:ask"}; !slices.Equal(got, want) {
		t.Errorf("a render and a routing logged %q, want %q", got, want)
	}
	quiet := &Door{}
	if c, ok := quiet.Render(f, form.SurfaceCodex).(*codex.Result); !ok || !c.Success {
		t.Errorf("a door without words rendered %+v", c)
	}
	if c := quiet.Route(f, nil); c.How != "" {
		t.Errorf("a door without words: %+v", c)
	}
}

// TestOneTapKeepAllLogsTheGuessesKept: the one-tap confirm answered "Keep
// all" is a response of the guesses themselves, which the response log
// counts as guesses kept.
func TestOneTapKeepAllLogsTheGuessesKept(t *testing.T) {
	f, err := form.Parse([]byte(`{"title": "T", "fields": [
		{"id": "track", "text": "Which track?", "type": "single_select", "options": ["stable", "beta"], "default": "stable", "inferred_from": "the last release"},
		{"id": "hours", "text": "How many hours?", "type": "number", "default": 8, "inferred_from": "the last release took 8"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	q := ask.Render(f).AskUserQuestion[0].Questions[0].Question
	out, _ := json.Marshal(map[string]any{"answers": map[string]any{q: "Keep all (Recommended)"}})
	l := responselog.Open(t.TempDir())
	d := &Door{Log: l, Who: responselog.MCPHost("test", "1")}
	if _, err := d.Collect(Form{Form: f}, []surfaces.Document{{Name: "answers", Data: out}}, nil); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(l.Dir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var r responselog.Record
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.Kind != responselog.KindResponse || r.Inferred != 2 || r.Kept != 2 {
		t.Errorf("logged %s with %d guessed and %d kept, want a response with 2 and 2", r.Kind, r.Inferred, r.Kept)
	}
}
