package term

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/internal/golden"
	"github.com/elicit/elicit/internal/termui/termuitest"
	"github.com/google/go-cmp/cmp"
)

// Keys as a terminal sends them.
const (
	enter = "\r"
	down  = "\x1b[B"
	up    = "\x1b[A"
	esc   = "\x1b"
	ctrlD = "\x04"
)

// TestAsk answers every type on the interactive widgets and checks the
// answers collect gets, and the screen a person saw.
func TestAsk(t *testing.T) {
	tests := []struct {
		form, keys string
		want       map[string]any
	}{
		// track: keep the guess; platforms: toggle linux and windows;
		// notify: n; budget: a bad number, then 12; date; notes.
		{"six", enter + " " + down + down + " " + enter + "n" + "x" + enter + "\x7f12" + enter + "2026-02-30" + enter +
			strings.Repeat("\x7f", 2) + "28" + enter + "line one" + enter + "line two" + ctrlD,
			map[string]any{"track": "stable", "platforms": []string{"linux", "windows"}, "notify": "No", "budget": 12.0,
				"ship_date": "2026-02-28", "notes": "line one\nline two"}},
		{"decision", down + down + enter, map[string]any{"approach": "Non-LLM backlog"}},
		{"pushback", enter, map[string]any{"retries": "Exponential backoff + jitter"}},
		{"progress", down + enter, map[string]any{"exec": "T7 docs"}},
		{"digest", down + down + enter, map[string]any{}}, // (skip)
		{"status-only", "y", map[string]any{"next": "Yes"}},
		{"attune", "3" + enter + "\t\t" + enter + enter, map[string]any{"goal": "Configure settings", "scope": "tests/"}},
		// drop: Enter alone is refused (a confirm is never a default), up
		// goes to the last option; deploy: its number.
		{"confirm", enter + up + enter + "1" + enter, map[string]any{"drop": "Abort", "deploy": "Deploy"}},
		{"deliberation", enter, map[string]any{"engine": "PostgreSQL"}},
	}
	forms := formtest.Forms(t)
	for _, tt := range tests {
		t.Run(tt.form, func(t *testing.T) {
			f := formtest.MustParse(t, forms[tt.form])
			scr := &termuitest.Screen{}
			ui := NewSession(strings.NewReader(tt.keys), scr, 81)
			got, err := Ask(f, ui)
			if err != nil {
				t.Fatalf("Ask: %v\n%s", err, scr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
			if _, err := form.Collect(f, got, nil); err != nil {
				t.Errorf("Collect: %v", err)
			}
			golden.Check(t, tt.form+".txt", []byte(scr.String()))
		})
	}
}

// TestAskLive shows each widget while it waits (the keys end inside it).
func TestAskLive(t *testing.T) {
	forms := formtest.Forms(t)
	for _, name := range []string{"six", "decision", "pushback", "progress", "many"} {
		t.Run(name, func(t *testing.T) {
			f := formtest.MustParse(t, forms[name])
			scr := &termuitest.Screen{}
			_, err := Ask(f, NewSession(strings.NewReader(""), scr, 81))
			if !errors.Is(err, io.EOF) {
				t.Fatalf("err = %v", err)
			}
			golden.Check(t, "live-"+name+".txt", []byte(scr.String()))
		})
	}
}

func TestAskAllGuessed(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title": "Release", "fields": [
		{"id": "track", "text": "Which track?", "type": "single_select", "options": ["stable", "beta"], "default": "beta", "inferred_from": "the branch name"},
		{"id": "ok", "text": "Ship it?", "type": "boolean", "default": "Yes", "inferred_from": "you said so"}]}`))
	scr := &termuitest.Screen{}
	got, err := Ask(f, NewSession(strings.NewReader(enter), scr, 81))
	if err != nil || !cmp.Equal(got, map[string]any{"track": "beta", "ok": "Yes"}) {
		t.Errorf("got %v, %v", got, err)
	}
	golden.Check(t, "all-guessed.txt", []byte(scr.String()))
	// No: each field is asked, the guesses preselected.
	got, err = Ask(f, NewSession(strings.NewReader("n"+down+enter+enter), &termuitest.Screen{}, 81))
	if err != nil || !cmp.Equal(got, map[string]any{"track": "stable", "ok": "Yes"}) {
		t.Errorf("after No: got %v, %v", got, err)
	}
}

func TestAskCancel(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["scope"])
	for _, keys := range []string{esc, enter + " " + esc, "\x03"} {
		_, err := Ask(f, NewSession(strings.NewReader(keys), &termuitest.Screen{}, 81))
		if !errors.Is(err, ErrCancelled) {
			t.Errorf("keys %q: err = %v, want cancelled", keys, err)
		}
	}
}

func TestAskLines(t *testing.T) {
	tests := []struct {
		form, input string
		want        map[string]any
	}{
		{"six", "\nlinux, Windows\nmaybe\nno\n50\n 12 \n2026/3/1\nfirst \\\nsecond\n",
			map[string]any{"track": "stable", "platforms": []string{"linux", "windows"}, "notify": "No", "budget": 12.0,
				"ship_date": "2026-03-01", "notes": "first \nsecond"}},
		{"scope", "\nfix a bug\n\n2 4\n", map[string]any{"goal": "Fix a bug", "focus": []string{"security", "tests"}}},
		{"status-only", "\n", map[string]any{}},
		{"pushback", "your approach\n1\n", map[string]any{"retries": "Exponential backoff + jitter"}},
	}
	forms := formtest.Forms(t)
	for _, tt := range tests {
		t.Run(tt.form, func(t *testing.T) {
			f := formtest.MustParse(t, forms[tt.form])
			var out strings.Builder
			got, err := AskLines(f, strings.NewReader(tt.input), &out)
			if err != nil {
				t.Fatalf("AskLines: %v\n%s", err, out.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
			golden.Check(t, "lines-"+tt.form+".txt", []byte(out.String()))
		})
	}
}

func TestAskLinesEnd(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["scope"])
	if _, err := AskLines(f, strings.NewReader("1\n"), io.Discard); !errors.Is(err, io.EOF) {
		t.Errorf("err = %v, want io.EOF", err)
	}
	g := formtest.MustParse(t, []byte(`{"title": "T", "fields": [
		{"id": "a", "text": "A?", "type": "text_input", "default": "x", "inferred_from": "context"}]}`))
	got, err := AskLines(g, strings.NewReader("maybe\nn\nmine\n"), io.Discard)
	if err != nil || got["a"] != "mine" {
		t.Errorf("guess refused: got %v, %v", got, err)
	}
}

// TestAskLinesNumberLabels: piped answers to options that are numbers
// name them; a number that is not an option is asked again.
func TestAskLinesNumberLabels(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title":"S","fields":[{"id":"p","text":"Points?","type":"single_select","options":["1","2","3","5","8","13"]}]}`))
	var out strings.Builder
	got, err := AskLines(f, strings.NewReader("4\n5\n"), &out)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"p": "5"}, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	for _, want := range []string{"\n  - 5\n  - 8\n", `✘ "4" is not one of the options`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the prompts lack %q:\n%s", want, out.String())
		}
	}
}

// TestAskLinesByteOrderMark: piped answers that start with a byte order
// mark (a file saved by a Windows editor) read as if it were not there.
func TestAskLinesByteOrderMark(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title":"S","fields":[{"id":"ok","text":"OK?","type":"boolean"},{"id":"t","text":"T?","type":"text_input"}]}`))
	got, err := AskLines(f, strings.NewReader("\ufeffyes\n\ufefftext\n"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"ok": "Yes", "t": "\ufefftext"}, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

// TestAskLinesLineTooLong: an answer line over the 1 MiB cap is an error
// naming the question and the cap, not the scanner's "token too long";
// a textarea's continued line too.
func TestAskLinesLineTooLong(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title":"S","fields":[{"id":"ok","text":"OK?","type":"boolean"},
		{"id":"notes","text":"Notes?","type":"textarea"},{"id":"last","text":"Last?","type":"text_input"}]}`))
	long := strings.Repeat("x", form.MaxInput+1)
	const cap = "is a line of more than 1048576 bytes (1 MiB), the cap for one line of input"
	for in, want := range map[string]string{
		long + "\n":                       `the answer to ok ("OK?") ` + cap,
		"yes\nfirst\\\n" + long + "\nz\n": `the answer to notes ("Notes?") ` + cap,
		"yes\nnotes\n" + long:             `the answer to last ("Last?") ` + cap,
	} {
		_, err := AskLines(f, strings.NewReader(in), io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), want) || errors.Is(err, io.EOF) {
			t.Errorf("%.20q…: err = %v, want %q…", in, err, want)
		}
	}
	guesses := formtest.MustParse(t, []byte(`{"title":"S","fields":[{"id":"ok","text":"OK?","type":"boolean","default":"Yes","inferred_from":"x"}]}`))
	if _, err := AskLines(guesses, strings.NewReader(long), io.Discard); err == nil || !strings.HasPrefix(err.Error(), `the answer to "Use these guesses?" `+cap) {
		t.Errorf("guesses: err = %v", err)
	}
}

// TestAskNeedsFormAndSession: a nil form or session is an error saying
// what to give, not a panic; Open refuses what is not a terminal.
func TestAskNeedsFormAndSession(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["scope"])
	tests := []struct {
		f    *form.Form
		s    *Session
		want string
	}{
		{f, nil, "term: Ask needs a session: open one with term.Open (a terminal) or term.NewSession (any reader and writer)"},
		{f, &Session{}, "term: Ask needs a session: open one with term.Open (a terminal) or term.NewSession (any reader and writer)"},
		{nil, NewSession(strings.NewReader(""), &termuitest.Screen{}, 0), "term: Ask needs a form: parse one with form.Parse"},
	}
	for _, tt := range tests {
		if _, err := Ask(tt.f, tt.s); err == nil || err.Error() != tt.want {
			t.Errorf("Ask: %v, want %q", err, tt.want)
		}
	}
	file, err := os.CreateTemp(t.TempDir(), "not-a-terminal")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if _, err := Open(context.Background(), file, io.Discard); err == nil || !strings.Contains(err.Error(), "is not a terminal: use AskLines") {
		t.Errorf("Open on a file: %v", err)
	}
}
