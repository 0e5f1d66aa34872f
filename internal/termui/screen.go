package termui

import (
	"context"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
// width with continuation lines indented by Indent columns. Focus marks
// the line the person is at (the editor, the option under the cursor):
// when a block is taller than the terminal, the rows shown are those
// around its row with the editing cursor (or its first row).
type Line struct {
	Spans  []Span
	Indent int
	Focus  bool
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
	height  func() int // 0: no limit (tests)
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
	height := func() int {
		if f, ok := out.(*os.File); ok {
			if _, h, err := term.GetSize(int(f.Fd())); err == nil && h > 0 {
				return h
			}
		}
		if _, h, err := term.GetSize(fd); err == nil && h > 0 {
			return h
		}
		return 24
	}
	styles := &sgr
	if os.Getenv("NO_COLOR") != "" {
		styles = &mono
	}
	s := &Session{keys: newKeyReader(in), out: out, width: width, height: height, styles: styles}
	s.keys.stop = ctx.Done()
	s.restore = func() { _ = term.Restore(fd, state) }
	io.WriteString(out, modesOn)
	return s, nil
}

// New makes a session on any reader and writer without touching a
// terminal: for tests, which feed key bytes and read what was drawn. Without
// styled, nothing but text and cursor movement is written.
func New(in io.Reader, out io.Writer, width int, styled bool) *Session {
	s := &Session{keys: newKeyReader(in), out: out, width: func() int { return width }, height: func() int { return 0 }, restore: func() {}}
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
	s.show(lines, true)
	s.settle()
}

// draw replaces the active block with lines. A block taller than the
// terminal shows its first row (the title), its last (the key help) and,
// between them, as many rows as fit around the row of the line in focus,
// a screenful in all: only those rows are laid out
// into what is written, so a long help text or a large paste costs one
// pass over its text and a screenful of output, however long it is.
func (s *Session) draw(lines []Line) { s.show(lines, false) }

// show draws lines as the active block; all draws every row (text that
// stays, which may scroll) instead of a screenful.
func (s *Session) show(lines []Line, all bool) {
	var b strings.Builder
	if s.rows > 1 {
		b.WriteString("\x1b[" + strconv.Itoa(s.rows-1) + "A")
	}
	b.WriteString("\r\x1b[J")
	width := max(s.width()-1, 20)
	texts := make([][]Span, len(lines))
	counts := make([]int, len(lines))
	total, focus := 0, 0
	for i, l := range lines {
		texts[i] = visibleSpans(l.Spans)
		cursor, hasCursor := cursorPos(texts[i])
		found := false
		layout(texts[i], l.Indent, width, func(r row) bool {
			if l.Focus && !found && (!hasCursor || cursor.before(r.to) || r.last) {
				focus, found = total+counts[i], true
			}
			counts[i]++
			return true
		})
		total += counts[i]
	}
	// The rows shown: the first (the title), from..to, and the last (the
	// key help).
	from, to := 0, total
	if h := max(s.height(), 4); !all && s.height() > 0 && total > h {
		win := h - 2
		after := min(total-2-focus, win/2)
		from = min(max(1, focus+after+1-win), total-1-win)
		to = from + win
	}
	shows := func(k int) bool { return k == 0 || k >= from && k < to || k == total-1 }
	n, shown := 0, 0
	for i, l := range lines {
		if n > 0 && n+counts[i] <= from && n+counts[i] < total || n >= to && n < total-counts[i] {
			n += counts[i]
			continue
		}
		k := n
		layout(texts[i], l.Indent, width, func(r row) bool {
			if shows(k) {
				if shown > 0 {
					b.WriteString("\r\n")
				}
				s.render(&b, texts[i], r)
				shown++
			}
			k++
			return k < to || n+counts[i] == total // on to the last row
		})
		n += counts[i]
	}
	s.rows = shown
	io.WriteString(s.out, b.String())
}

// settle ends the active block: the next drawing starts below it.
func (s *Session) settle() {
	if s.rows > 0 {
		io.WriteString(s.out, "\r\n")
	}
	s.rows = 0
}

// render writes one wrapped row of spans with its styles.
func (s *Session) render(b *strings.Builder, spans []Span, r row) {
	for range r.indent {
		b.WriteByte(' ')
	}
	cur := Normal
	for p := r.from; p.before(r.to); {
		c, next, _ := runeAt(spans, p)
		if st := spans[p.span].Style; s.styles != nil && st != cur {
			b.WriteString(s.styles[st])
			cur = st
		}
		b.WriteRune(c)
		p = next
	}
	if s.styles != nil && cur != Normal {
		b.WriteString(s.styles[Normal])
	}
}

// visibleSpans is spans with control characters escaped and line breaks
// and tabs as spaces; a span that needs neither is not copied.
func visibleSpans(spans []Span) []Span {
	out := make([]Span, len(spans))
	for i, sp := range spans {
		out[i] = Span{visible.Line(sp.Text), sp.Style}
	}
	return out
}

// pos is a place in a line's text: a span and a byte offset in it, at a
// character (or at the end). Positions are kept canonical (never at the
// end of a span but the last), so that they compare.
type pos struct{ span, off int }

func (p pos) before(q pos) bool { return p.span < q.span || p.span == q.span && p.off < q.off }

// canon moves p past the spans it is at the end of.
func canon(spans []Span, p pos) pos {
	for p.span < len(spans)-1 && p.off >= len(spans[p.span].Text) {
		p = pos{p.span + 1, 0}
	}
	return p
}

// runeAt is the character at p and the position after it; ok is false at
// the end of the text.
func runeAt(spans []Span, p pos) (r rune, next pos, ok bool) {
	if p.span >= len(spans) || p.off >= len(spans[p.span].Text) {
		return 0, p, false
	}
	r, n := utf8.DecodeRuneInString(spans[p.span].Text[p.off:])
	return r, canon(spans, pos{p.span, p.off + n}), true
}

// cursorPos is where the first span in the Cursor style starts.
func cursorPos(spans []Span) (pos, bool) {
	for i, sp := range spans {
		if sp.Style == Cursor && sp.Text != "" {
			return pos{i, 0}, true
		}
	}
	return pos{}, false
}

// row is one wrapped row of a line: its text from..to (a range of the
// line's own spans, not a copy), after indent spaces; last marks the
// line's last row.
type row struct {
	from, to pos
	indent   int
	last     bool
}

// layout breaks a line into rows of at most width columns, at spaces where
// it can (the space is dropped), and calls each with every row in order
// until it returns false; continuation rows are indented. It is one pass
// over the text and keeps nothing.
func layout(spans []Span, indent, width int, each func(row) bool) {
	indent = min(indent, width/2)
	start, pad := canon(spans, pos{}), 0
	for {
		w, p, first := pad, start, true
		var cut, space, afterSpace pos
		broke, spaced := false, false
		for {
			c, next, ok := runeAt(spans, p)
			if !ok {
				break
			}
			cw := runeWidth(c)
			if w+cw > width {
				cut, broke = p, true
				break
			}
			w += cw
			// a break needs text before it on the row
			if c == ' ' && !first {
				space, afterSpace, spaced = p, next, true
			}
			p, first = next, false
		}
		switch {
		case !broke:
			each(row{start, p, pad, true})
			return
		case spaced:
			if !each(row{start, space, pad, false}) {
				return
			}
			start = afterSpace
		default:
			if !each(row{start, cut, pad, false}) {
				return
			}
			start = cut
		}
		pad = indent
	}
}

// runeWidth is the number of columns r takes: 0 for combining marks, 2 for
// wide East Asian characters and emoji, else 1.
func runeWidth(r rune) int {
	switch {
	case r < 0x300: // before the first combining mark
		return 1
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
