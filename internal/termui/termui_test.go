package termui

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/golden"
	"github.com/elicit/elicit/internal/termui/termuitest"
	"github.com/google/go-cmp/cmp"
)

// session runs keys through a plain session 60 columns wide.
func session(keys string) (*Session, *termuitest.Screen) {
	scr := &termuitest.Screen{}
	return New(strings.NewReader(keys), scr, 61, false), scr
}

var fruit = []Option{{Label: "apple", Badges: []string{"Recommended"}, Note: "crisp"}, {Label: "banana"}, {Label: "cherry", Note: "small"}}

func TestSelect(t *testing.T) {
	tests := []struct {
		keys     string
		unchosen bool
		want     int
		err      error
	}{
		{"\r", false, 0, nil},
		// Unchosen (a confirm): Enter alone is refused, not a choice.
		{"\r", true, -1, io.EOF},
		{"\rx\r", true, -1, io.EOF},
		{"\r\x1b[B\r", true, 0, nil},
		{"k\r", true, 2, nil},
		{"\t\r", true, 0, nil},
		{"2\r", true, 1, nil},
		{"\r\x1b", true, -1, ErrCancelled},
		{"jj\r", false, 2, nil},
		{"\x1b[B\x1b[B\x1b[A\r", false, 1, nil},
		{"\x1bOB\r", false, 1, nil},
		{"k\r", false, 2, nil},
		{"3\r", false, 2, nil},
		{"9\r", false, 0, nil},
		{"\t\r", false, 1, nil},
		{"G\r", false, 2, nil},
		{"j\x1b", false, -1, ErrCancelled},
		{"j\x03", false, -1, ErrCancelled},
		{"j", false, -1, io.EOF},
		// A paste is not keys: its digits and newline choose nothing.
		{"\x1b[200~3\r\x1b[201~\r", false, 0, nil},
	}
	for _, tt := range tests {
		s, _ := session(tt.keys)
		got, err := s.Select(Select{Title: "Fruit?", Options: fruit, Unchosen: tt.unchosen})
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("keys %q (unchosen %v): got %d, %v; want %d, %v", tt.keys, tt.unchosen, got, err, tt.want, tt.err)
		}
	}
}

func TestMultiSelect(t *testing.T) {
	tests := []struct {
		keys     string
		selected []bool
		min      int
		want     []int
		err      error
	}{
		{"\r", nil, 0, nil, nil},
		{" jx\r", nil, 0, []int{0, 1}, nil},
		{"a\r", nil, 0, []int{0, 1, 2}, nil},
		{"a\r", []bool{true, true, true}, 0, nil, nil},
		{"\r \r", nil, 1, []int{0}, nil},
		{"j \r", []bool{true}, 1, []int{0, 1}, nil},
		{" \x1b", nil, 1, nil, ErrCancelled},
	}
	for _, tt := range tests {
		s, _ := session(tt.keys)
		got, err := s.MultiSelect(MultiSelect{Title: "Fruits?", Options: fruit, Selected: tt.selected, Min: tt.min})
		if diff := cmp.Diff(tt.want, got); diff != "" || !errors.Is(err, tt.err) {
			t.Errorf("keys %q: got %v, %v; want %v, %v", tt.keys, got, err, tt.want, tt.err)
		}
	}
}

func TestInput(t *testing.T) {
	nonEmpty := func(s string) string {
		if s == "" {
			return "required"
		}
		return ""
	}
	tests := []struct {
		name, value, keys, want string
		validate                func(string) string
		err                     error
	}{
		{"typed", "", "héllo\r", "héllo", nil, nil},
		{"backspace", "", "abc\x7f\r", "ab", nil, nil},
		{"insert in the middle", "", "ac\x1b[Db\r", "abc", nil, nil},
		{"home and delete", "xabc", "\x01\x1b[3~\r", "abc", nil, nil},
		{"end", "ab", "\x01\x05c\r", "abc", nil, nil},
		{"kill to start", "old text", "\x15new\r", "new", nil, nil},
		{"kill to end", "keep drop", "\x01\x1b[C\x1b[C\x1b[C\x1b[C\x0b\r", "keep", nil, nil},
		{"kill word", "one two", "\x17\r", "one ", nil, nil},
		{"default kept", "platform team", "\r", "platform team", nil, nil},
		{"tab suggestions", "", "\t\t\r", "tests/", nil, nil},
		{"validation keeps the line open", "", "\rx\r", "x", nonEmpty, nil},
		{"cancel", "", "ab\x1b", "", nil, ErrCancelled},
		// A paste goes into the line, its line breaks as spaces, not Enter.
		{"paste", "", "\x1b[200~one\r\ntwo\nthree\rfour\x1b[201~!\r", "one two three four!", nil, nil},
		{"paste in the middle", "ad", "\x1b[D\x1b[200~bc\x1b[201~\r", "abcd", nil, nil},
		{"paste with escapes kept", "", "\x1b[200~a\x1b[8mb\x1b[201~\r", "a\x1b[8mb", nil, nil},
		{"a paste cut short", "", "\x1b[200~abc", "", nil, io.EOF},
	}
	for _, tt := range tests {
		s, _ := session(tt.keys)
		got, err := s.Input(Input{Title: "Where?", Value: tt.value, Suggestions: []string{"src/", "tests/"}, Validate: tt.validate})
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("%s: got %q, %v; want %q, %v", tt.name, got, err, tt.want, tt.err)
		}
	}
}

func TestText(t *testing.T) {
	tests := []struct {
		name, value, keys, want string
	}{
		{"two lines", "", "one\rtwo\x04", "one\ntwo"},
		{"alt-enter submits", "", "x\x1b\r", "x"},
		{"up keeps the column", "", "abc\rd\x1b[Ax\x04", "axbc\nd"},
		{"down to a shorter line", "long line\nab", "\x01\x1b[A\x05\x1b[By\x04", "long line\naby"},
		{"backspace joins lines", "a\nb", "\x01\x7f\x04", "ab"},
		// A paste keeps its lines; CRLF and CR are newlines.
		{"paste", "", "\x1b[200~one\r\ntwo\rthree\nfour\x1b[201~\x04", "one\ntwo\nthree\nfour"},
	}
	for _, tt := range tests {
		s, _ := session(tt.keys)
		got, err := s.Text(Text{Title: "Notes?", Value: tt.value})
		if got != tt.want || err != nil {
			t.Errorf("%s: got %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}

func TestConfirm(t *testing.T) {
	tests := []struct {
		keys     string
		value    int
		required bool
		want     int
	}{
		{"y", -1, false, 1},
		{"N", 1, false, 0},
		{"\r", 1, false, 1},
		{"\x1b[C\r", 1, false, 0},
		{"\t\r", -1, false, 1},
		{"\r", -1, false, -1},
		{"\rn", -1, true, 0},
	}
	for _, tt := range tests {
		s, _ := session(tt.keys)
		got, err := s.Confirm(Confirm{Title: "Ship it?", Value: tt.value, Required: tt.required})
		if got != tt.want || err != nil {
			t.Errorf("keys %q: got %d, %v; want %d", tt.keys, got, err, tt.want)
		}
	}
}

// TestScreens checks what a person sees: each case stops (at the end of
// its keys) inside a widget, so the screen shows it live, above the lines
// settled before.
func TestScreens(t *testing.T) {
	long := "A question long enough that it has to wrap onto a second row of the sixty-column screen?"
	tests := []struct {
		name, keys string
		run        func(*Session) error
	}{
		{"select", "j", func(s *Session) error {
			s.Print(Styled("Form title", Bold))
			_, err := s.Select(Select{Title: long, Lines: []Line{Styled("Why: a rationale.", Dim)}, Options: fruit})
			return err
		}},
		{"multiselect", " jjx\r", func(s *Session) error {
			_, err := s.MultiSelect(MultiSelect{Title: "Fruits?", Options: fruit, Min: 3})
			return err
		}},
		{"settled", "j\r \r", func(s *Session) error {
			if _, err := s.Select(Select{Title: "Fruit?", Options: fruit}); err != nil {
				return err
			}
			if _, err := s.MultiSelect(MultiSelect{Title: "Fruits?", Options: fruit}); err != nil {
				return err
			}
			_, err := s.Input(Input{Title: "Name?", Placeholder: "type a name"})
			return err
		}},
		{"input", "ab\x1b[D", func(s *Session) error {
			_, err := s.Input(Input{Title: "Where?", Suggestions: []string{"src/", "tests/"}})
			return err
		}},
		{"input-problem", "\r", func(s *Session) error {
			_, err := s.Input(Input{Title: "How many?", Validate: func(string) string { return "must be a number" }})
			return err
		}},
		{"text", "first\rsecond line\x1b[A", func(s *Session) error {
			_, err := s.Text(Text{Title: "Notes?"})
			return err
		}},
		{"select-unchosen", "\r", func(s *Session) error {
			_, err := s.Select(Select{Title: "Ship it?", Options: []Option{{Label: "Approve"}, {Label: "Abort"}}, Unchosen: true})
			return err
		}},
		// Control characters in text are shown escaped, never raw; a line
		// break is a space.
		{"control", "j", func(s *Session) error {
			s.Print(Styled("Deploy\x1b]0;pwned\a\nnow \u202eBD dorp\u202c", Bold))
			_, err := s.Select(Select{Title: "Ship it?\u009b8m", Lines: []Line{Styled("If approved: Nothing much\x1b[8m, and drops the prod DB\x1b[0m", Dim)},
				Options: []Option{{Label: "Approve\r\x1b[2K"}, {Label: "Abort", Note: "tab\there"}}})
			return err
		}},
		{"confirm", "\r", func(s *Session) error {
			_, err := s.Confirm(Confirm{Title: "Use these guesses?", Lines: []Line{Styled("track: stable", Normal)}, Value: -1, Required: true})
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, scr := session(tt.keys)
			if err := tt.run(s); !errors.Is(err, io.EOF) {
				t.Fatalf("err = %v, want the end of the keys", err)
			}
			golden.Check(t, tt.name+".txt", []byte(scr.String()))
		})
	}
}

func TestWrap(t *testing.T) {
	l := Line{Spans: []Span{{"one two three ", Normal}, {"four", Bold}}, Indent: 2}
	want := []string{"one two", "  three", "  four"}
	if diff := cmp.Diff(want, wrap(l, 9)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if rows := wrap(Styled("ｗｉｄｅ文字がある", Normal), 6); len(rows) != 3 {
		t.Errorf("wide characters: %d rows, want 3", len(rows))
	}
}

func TestColor(t *testing.T) {
	var out strings.Builder
	s := New(strings.NewReader("\r"), &out, 40, true)
	if _, err := s.Select(Select{Title: "T?", Options: fruit}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "\x1b[0;36m› ") || !strings.Contains(out.String(), "\x1b[0;33m (Recommended)") {
		t.Errorf("no colours in %q", out.String())
	}
}

func FuzzKeys(f *testing.F) {
	f.Add("\x1b[1;5A\x1b[3~é\x1b\r\x7f")
	f.Add("\xff\xfe\x1bO")
	f.Fuzz(func(t *testing.T, keys string) {
		s, _ := session(keys)
		_, _ = s.Text(Text{Title: "T"})
		s, _ = session(keys)
		_, _ = s.MultiSelect(MultiSelect{Title: "T", Options: fruit})
	})
}

// TestStop: a stop (a signal) cancels the widget being answered while it
// waits for a key.
func TestStop(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	s := New(r, &termuitest.Screen{}, 61, false)
	stop := make(chan struct{})
	s.keys.stop = stop
	close(stop)
	if _, err := s.Input(Input{Title: "Where?"}); !errors.Is(err, ErrCancelled) {
		t.Errorf("err = %v, want cancelled", err)
	}
}

// TestClose: a session closed on an unanswered widget ends on a line of its
// own (the widget marked not answered) and turns bracketed paste off and the
// cursor on; after an answer nothing more is drawn.
func TestClose(t *testing.T) {
	tests := []struct {
		keys, screen string
	}{
		{"j\x1b", "✘ Fruit?  not answered\n"},
		{"j", "✘ Fruit?  not answered\n"},
		{"j\r", "✔ Fruit?  banana\n"},
	}
	for _, tt := range tests {
		var raw strings.Builder
		scr := &termuitest.Screen{}
		s := New(strings.NewReader(tt.keys), io.MultiWriter(&raw, scr), 61, false)
		_, _ = s.Select(Select{Title: "Fruit?", Options: fruit})
		s.Close()
		if scr.String() != tt.screen || !strings.HasSuffix(raw.String(), "\r\n\x1b[?2004l\x1b[?25h") {
			t.Errorf("keys %q: screen\n%s\nraw %q", tt.keys, scr, raw.String())
		}
	}
}

// wrap lays a line out as plain rows of text.
func wrap(l Line, width int) []string {
	var rows []string
	s := &Session{}
	spans := visibleSpans(l.Spans)
	layout(spans, l.Indent, width, func(r row) bool {
		var b strings.Builder
		s.render(&b, spans, r)
		rows = append(rows, b.String())
		return true
	})
	return rows
}
