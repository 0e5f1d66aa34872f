package termui

import (
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"

	"github.com/elicit/elicit/internal/visible"
	"golang.org/x/term"
)

// ErrCancelled is returned by a widget when the person presses Escape or
// Ctrl-C: there is no answer.
var ErrCancelled error = Cancelled{}

// Cancelled is ErrCancelled's type. A package that re-exports the error
// writes Cancelled{}, which is equal to ErrCancelled and, unlike a copy of
// the variable, is data rather than work at package initialisation.
type Cancelled struct{}

func (Cancelled) Error() string { return "cancelled" }

// Style is how a run of text is shown.
type Style uint8

// The styles. Plain sessions (NO_COLOR, or tests) show them all as text.
const (
	Normal Style = iota
	Bold
	Dim
	Accent // the cursor and the question mark
	Good   // chosen marks and settled answers
	Bad    // validation messages
	Marked // badges: Recommended, guessed
	Cursor // the editing cursor (reverse video)
)

// sgr selects each style; mono is the same without colours (NO_COLOR).
var sgr = [...]string{
	Normal: "\x1b[0m", Bold: "\x1b[0;1m", Dim: "\x1b[0;2m", Accent: "\x1b[0;36m",
	Good: "\x1b[0;32m", Bad: "\x1b[0;31m", Marked: "\x1b[0;33m", Cursor: "\x1b[0;7m",
}

var mono = [...]string{
	Normal: "\x1b[0m", Bold: "\x1b[0;1m", Dim: "\x1b[0;2m", Accent: "\x1b[0;1m",
	Good: "\x1b[0m", Bad: "\x1b[0;1m", Marked: "\x1b[0m", Cursor: "\x1b[0;7m",
}

// Span is text in one style.
type Span struct {
	Text  string
	Style Style
}

// Line is one logical line of a widget: spans, wrapped to the terminal's
// width with continuation lines indented by Indent columns.
type Line struct {
	Spans  []Span
	Indent int
}

// Styled makes a line of one span.
func Styled(s string, st Style) Line { return Line{Spans: []Span{{s, st}}} }

// Plain returns the line's text without styles.
func (l Line) Plain() string {
	var b strings.Builder
	for _, s := range l.Spans {
		b.WriteString(s.Text)
	}
	return b.String()
}

// Session is a terminal in raw mode that widgets draw on, one below the
// other. Each widget redraws its block in place while it is active and
// leaves a one-line summary of the answer when it is done.
type Session struct {
	keys    *keyReader
	out     io.Writer
	width   func() int
	restore func()
	styles  *[8]string // nil: no escape sequences at all (tests)
	rows    int        // terminal rows the active block occupies
	asking  string     // the title of the widget being answered
}

// Terminal modes a session turns on (and Close off): the cursor hidden,
// as the widgets draw their own, and bracketed paste, so that a pasted
// text arrives as one paste and its newlines are not Enter.
const (
	modesOn  = "\x1b[?25l\x1b[?2004h"
	modesOff = "\x1b[?2004l\x1b[?25h"
)

// Open puts the terminal in (a *os.File that is a terminal) into raw mode
// and draws on out. Close restores it. Colours are off when NO_COLOR is
// set (bold, dim and reverse video stay). When ctx is done (a signal), the
// widget being answered returns ErrCancelled.
func Open(ctx context.Context, in *os.File, out io.Writer) (*Session, error) {
	fd := int(in.Fd())
	state, err := term.MakeRaw(fd)
	if err != nil {
		return nil, err
	}
	width := func() int {
		if f, ok := out.(*os.File); ok {
			if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
				return w
			}
		}
		if w, _, err := term.GetSize(fd); err == nil && w > 0 {
			return w
		}
		return 80
	}
	styles := &sgr
	if os.Getenv("NO_COLOR") != "" {
		styles = &mono
	}
	s := &Session{keys: newKeyReader(in), out: out, width: width, styles: styles}
	s.keys.stop = ctx.Done()
	s.restore = func() { _ = term.Restore(fd, state) }
	io.WriteString(out, modesOn)
	return s, nil
}

// New makes a session on any reader and writer without touching a
// terminal: for tests, which feed key bytes and read what was drawn. Without
// styled, nothing but text and cursor movement is written.
func New(in io.Reader, out io.Writer, width int, styled bool) *Session {
	s := &Session{keys: newKeyReader(in), out: out, width: func() int { return width }, restore: func() {}}
	if styled {
		s.styles = &sgr
	}
	return s
}

// Close ends the session on a line of its own and restores the terminal:
// a widget left unanswered (cancelled, stopped, the input ended) is
// replaced by its title marked as not answered, then the cursor is shown
// and bracketed paste turned off again.
func (s *Session) Close() {
	if s.rows > 0 {
		s.draw([]Line{{Spans: []Span{{"✘ ", Bad}, {s.asking, Bold}, {"  not answered", Dim}}, Indent: 2}})
		s.settle()
	}
	io.WriteString(s.out, modesOff)
	s.restore()
}

// Print draws lines that stay: text between widgets (a form's title, a
// progress report).
func (s *Session) Print(lines ...Line) {
	s.draw(lines)
	s.settle()
}

// draw replaces the active block with lines.
func (s *Session) draw(lines []Line) {
	var b strings.Builder
	if s.rows > 1 {
		b.WriteString("\x1b[" + strconv.Itoa(s.rows-1) + "A")
	}
	b.WriteString("\r\x1b[J")
	width := max(s.width()-1, 20)
	rows := 0
	for _, l := range lines {
		for _, row := range wrap(l, width) {
			if rows > 0 {
				b.WriteString("\r\n")
			}
			s.render(&b, row)
			rows++
		}
	}
	s.rows = rows
	io.WriteString(s.out, b.String())
}

// settle ends the active block: the next drawing starts below it.
func (s *Session) settle() {
	if s.rows > 0 {
		io.WriteString(s.out, "\r\n")
	}
	s.rows = 0
}

// render writes one wrapped row with its styles.
func (s *Session) render(b *strings.Builder, row []cell) {
	cur := Normal
	for _, c := range row {
		if s.styles != nil && c.st != cur {
			b.WriteString(s.styles[c.st])
			cur = c.st
		}
		b.WriteRune(c.r)
	}
	if s.styles != nil && cur != Normal {
		b.WriteString(s.styles[Normal])
	}
}

type cell struct {
	r  rune
	st Style
}

// wrap breaks a line into rows of at most width columns, at spaces where it
// can; continuation rows are indented.
func wrap(l Line, width int) [][]cell {
	var cells []cell
	for _, sp := range l.Spans {
		// Line breaks and tabs are spaces; other control characters are
		// shown escaped, never written raw.
		for _, r := range visible.Line(sp.Text) {
			cells = append(cells, cell{r, sp.Style})
		}
	}
	indent := min(l.Indent, width/2)
	var rows [][]cell
	minBreak := 1 // a break needs text before it: past the indent on continuation rows
	for {
		w, cut, lastSpace := 0, len(cells), -1
		for i, c := range cells {
			cw := runeWidth(c.r)
			if w+cw > width {
				cut = i
				break
			}
			w += cw
			if c.r == ' ' {
				lastSpace = i
			}
		}
		if cut == len(cells) {
			return append(rows, cells)
		}
		if lastSpace >= minBreak {
			rows = append(rows, cells[:lastSpace])
			cells = cells[lastSpace+1:]
		} else {
			rows = append(rows, cells[:cut])
			cells = cells[cut:]
		}
		pad := make([]cell, indent, indent+len(cells))
		for i := range pad {
			pad[i] = cell{' ', Normal}
		}
		cells = append(pad, cells...)
		minBreak = indent + 1
	}
}

// runeWidth is the number of columns r takes: 0 for combining marks, 2 for
// wide East Asian characters and emoji, else 1.
func runeWidth(r rune) int {
	switch {
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == 0x200b:
		return 0
	case r >= 0x1100 && r <= 0x115f, r >= 0x2e80 && r <= 0xa4cf, r >= 0xac00 && r <= 0xd7a3,
		r >= 0xf900 && r <= 0xfaff, r >= 0xfe30 && r <= 0xfe4f, r >= 0xff00 && r <= 0xff60,
		r >= 0xffe0 && r <= 0xffe6, r >= 0x1f300 && r <= 0x1faff, r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}

// readKey reads the next key; Escape and Ctrl-C cancel, the end of the
// input is an error.
func (s *Session) readKey() (Key, error) {
	k, err := s.keys.ReadKey()
	if err != nil {
		return k, err
	}
	if k.Code == KeyEsc || k.Code == KeyCtrlC {
		return k, ErrCancelled
	}
	return k, nil
}

// done settles a widget as one line: the title and the answer.
func (s *Session) done(title, answer string) {
	s.draw([]Line{{Spans: []Span{{"✔ ", Good}, {title, Bold}, {"  " + answer, Good}}, Indent: 2}})
	s.settle()
}

// header is the top of a widget: the title and the lines under it.
func header(title string, lines []Line) []Line {
	out := make([]Line, 0, len(lines)+4)
	out = append(out, Line{Spans: []Span{{"? ", Accent}, {title, Bold}}, Indent: 2})
	for _, l := range lines {
		l.Indent = max(l.Indent, 2)
		l.Spans = append([]Span{{"  ", Normal}}, l.Spans...)
		out = append(out, l)
	}
	return out
}

// footer adds the validation message (if any) and the key help.
func footer(lines []Line, problem, help string) []Line {
	if problem != "" {
		lines = append(lines, Line{Spans: []Span{{"  ✘ " + problem, Bad}}, Indent: 4})
	}
	return append(lines, Line{Spans: []Span{{"  " + help, Dim}}, Indent: 2})
}

// IsTerminal reports whether f is a terminal.
func IsTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
