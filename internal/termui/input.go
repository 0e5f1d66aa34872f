package termui

import (
	"strings"
	"unicode"
)

// Input asks for one line of text.
type Input struct {
	Title string
	Lines []Line
	// Value is the text the line starts with (a default).
	Value string
	// Placeholder is shown dimmed while the line is empty.
	Placeholder string
	// Suggestions are offered with Tab, one after the other.
	Suggestions []string
	// Validate checks the text on Enter; a non-empty result is shown and
	// the line stays open.
	Validate func(string) string
}

// Input shows a line editor: ←/→, Home/End (Ctrl-A/E), Backspace/Delete,
// Ctrl-U/K/W delete to the start, to the end, the word before; Tab cycles
// through the suggestions; Enter submits.
func (s *Session) Input(q Input) (string, error) {
	s.asking = q.Title
	ed := editor{text: []rune(q.Value), pos: len([]rune(q.Value))}
	problem, next := "", 0
	help := "enter submit · esc cancel"
	if len(q.Suggestions) > 0 {
		help = "tab next suggestion · " + help
	}
	for {
		lines := header(q.Title, q.Lines)
		if len(q.Suggestions) > 0 {
			lines = append(lines, Line{Spans: []Span{{"  Suggestions: " + strings.Join(q.Suggestions, " · "), Dim}}, Indent: 4})
		}
		lines = append(lines, ed.line(q.Placeholder))
		s.draw(footer(lines, problem, help))
		k, err := s.readKey()
		if err != nil {
			return "", err
		}
		problem = ""
		switch k.Code {
		case KeyEnter:
			if problem = s.submit(q.Title, string(ed.text), q.Validate); problem == "" {
				return string(ed.text), nil
			}
		case KeyPaste: // one line: line breaks become spaces
			ed.insertText(oneLine.Replace(k.Text))
		case KeyTab:
			if len(q.Suggestions) > 0 {
				ed = editor{text: []rune(q.Suggestions[next%len(q.Suggestions)])}
				ed.pos = len(ed.text)
				next++
			}
		default:
			ed.edit(k, false)
		}
	}
}

// submit validates text v; when it is accepted it settles the widget and
// returns "", else the problem to show.
func (s *Session) submit(title, v string, validate func(string) string) string {
	if validate != nil {
		if problem := validate(v); problem != "" {
			return problem
		}
	}
	s.done(title, displayAnswer(v))
	return ""
}

// maxSummary is how many characters of a text answer its summary line
// shows; the rest is " …".
const maxSummary = 200

func displayAnswer(v string) string {
	if strings.TrimSpace(v) == "" {
		return "(none)"
	}
	cut := false
	if i := strings.IndexByte(v, '\n'); i >= 0 {
		v, cut = v[:i], true
	}
	n := 0
	for i := range v {
		if n == maxSummary {
			v, cut = v[:i], true
			break
		}
		n++
	}
	if cut {
		return v + " …"
	}
	return v
}

// Text asks for several lines of text.
type Text struct {
	Title    string
	Lines    []Line
	Value    string
	Validate func(string) string
}

// Text shows a multi-line editor: Enter starts a new line, ↑/↓ move between
// lines, Ctrl-D (or Alt-Enter) submits.
func (s *Session) Text(q Text) (string, error) {
	s.asking = q.Title
	ed := editor{text: []rune(q.Value), pos: len([]rune(q.Value))}
	problem := ""
	for {
		lines := append(header(q.Title, q.Lines), ed.lines()...)
		s.draw(footer(lines, problem, "enter new line · ctrl-d submit · esc cancel"))
		k, err := s.readKey()
		if err != nil {
			return "", err
		}
		problem = ""
		switch k.Code {
		case KeyCtrlD, KeyAltEnter:
			if problem = s.submit(q.Title, string(ed.text), q.Validate); problem == "" {
				return string(ed.text), nil
			}
		case KeyPaste: // line breaks stay, as newlines
			ed.insertText(newlines.Replace(k.Text))
		default:
			ed.edit(k, true)
		}
	}
}

// editor is a text buffer with a cursor.
type editor struct {
	text []rune
	pos  int
}

// edit applies an editing key; multi says Enter and ↑/↓ work on lines.
func (e *editor) edit(k Key, multi bool) {
	switch k.Code {
	case KeyRune:
		e.insert(k.Rune)
	case KeyEnter:
		if multi {
			e.insert('\n')
		}
	case KeyLeft:
		e.pos = max(e.pos-1, 0)
	case KeyRight:
		e.pos = min(e.pos+1, len(e.text))
	case KeyHome:
		e.pos = e.lineStart()
	case KeyEnd:
		e.pos = e.lineEnd()
	case KeyBackspace:
		if e.pos > 0 {
			e.text = append(e.text[:e.pos-1], e.text[e.pos:]...)
			e.pos--
		}
	case KeyDelete:
		if e.pos < len(e.text) {
			e.text = append(e.text[:e.pos], e.text[e.pos+1:]...)
		}
	case KeyKillStart:
		start := e.lineStart()
		e.text = append(e.text[:start], e.text[e.pos:]...)
		e.pos = start
	case KeyKillEnd:
		e.text = append(e.text[:e.pos], e.text[e.lineEnd():]...)
	case KeyKillWord:
		start := e.pos
		for start > e.lineStart() && unicode.IsSpace(e.text[start-1]) {
			start--
		}
		for start > e.lineStart() && !unicode.IsSpace(e.text[start-1]) {
			start--
		}
		e.text = append(e.text[:start], e.text[e.pos:]...)
		e.pos = start
	case KeyUp, KeyDown:
		if multi {
			e.vertical(k.Code == KeyUp)
		}
	}
}

func (e *editor) insert(r rune) {
	e.text = append(e.text[:e.pos], append([]rune{r}, e.text[e.pos:]...)...)
	e.pos++
}

// insertText inserts pasted text at the cursor.
func (e *editor) insertText(s string) {
	r := []rune(s)
	e.text = append(e.text[:e.pos], append(r, e.text[e.pos:]...)...)
	e.pos += len(r)
}

// oneLine turns the line breaks of a paste into spaces (a one-line field);
// newlines writes them all as "\n" (a multi-line field).
var (
	oneLine  = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ")
	newlines = strings.NewReplacer("\r\n", "\n", "\r", "\n")
)

func (e *editor) lineStart() int {
	i := e.pos
	for i > 0 && e.text[i-1] != '\n' {
		i--
	}
	return i
}

func (e *editor) lineEnd() int {
	i := e.pos
	for i < len(e.text) && e.text[i] != '\n' {
		i++
	}
	return i
}

// vertical moves the cursor one line up or down, keeping the column.
func (e *editor) vertical(up bool) {
	start := e.lineStart()
	col := e.pos - start
	if up {
		if start == 0 {
			return
		}
		e.pos = start - 1
		e.pos = min(e.lineStart()+col, e.pos)
		return
	}
	end := e.lineEnd()
	if end == len(e.text) {
		return
	}
	e.pos = end + 1
	e.pos = min(e.pos+col, e.lineEnd())
}

// line draws a one-line editor with its cursor.
func (e *editor) line(placeholder string) Line {
	spans := []Span{{"  › ", Accent}}
	if len(e.text) == 0 && placeholder != "" {
		r := []rune(placeholder)
		return Line{Spans: append(spans, Span{string(r[:1]), Cursor}, Span{string(r[1:]), Dim}), Indent: 4, Focus: true}
	}
	return Line{Spans: append(spans, e.spans(0, len(e.text))...), Indent: 4, Focus: true}
}

// lines draws a multi-line editor, one row per line of text.
func (e *editor) lines() []Line {
	var out []Line
	start := 0
	for i := 0; i <= len(e.text); i++ {
		if i == len(e.text) || e.text[i] == '\n' {
			out = append(out, Line{Spans: append([]Span{{"  │ ", Dim}}, e.spans(start, i)...), Indent: 4, Focus: e.pos >= start && e.pos <= i})
			start = i + 1
		}
	}
	return out
}

// spans renders the line text[from:to] (without its newline), with the
// cursor shown when it is on this line.
func (e *editor) spans(from, to int) []Span {
	if e.pos < from || e.pos > to {
		return []Span{{string(e.text[from:to]), Normal}}
	}
	under, after := " ", ""
	if e.pos < to {
		under, after = string(e.text[e.pos]), string(e.text[e.pos+1:to])
	}
	return []Span{{string(e.text[from:e.pos]), Normal}, {under, Cursor}, {after, Normal}}
}

// Confirm asks a yes/no question.
type Confirm struct {
	Title string
	Lines []Line
	// Yes and No label the two answers (default "Yes" and "No").
	Yes, No string
	// Value is the answer the toggle starts on: 1 yes, 0 no, -1 none.
	Value int
	// Required refuses Enter while nothing is chosen.
	Required bool
}

// Confirm shows a yes/no toggle: y or n answers at once, ←/→ or Tab move,
// Enter takes what is highlighted. It returns 1 for yes, 0 for no, and -1
// when nothing was chosen and none was required.
func (s *Session) Confirm(q Confirm) (int, error) {
	s.asking = q.Title
	yes, no := q.Yes, q.No
	if yes == "" {
		yes = "Yes"
	}
	if no == "" {
		no = "No"
	}
	v, problem := q.Value, ""
	for {
		lines := header(q.Title, q.Lines)
		lines = append(lines, Line{Spans: []Span{{"    ", Normal}, choiceSpan(yes, v == 1), {"   ", Normal}, choiceSpan(no, v == 0)}, Focus: true})
		s.draw(footer(lines, problem, "y/n answer · ←/→ move · enter confirm · esc cancel"))
		k, err := s.readKey()
		if err != nil {
			return -1, err
		}
		problem = ""
		switch {
		case k.Code == KeyRune && (k.Rune == 'y' || k.Rune == 'Y'):
			v = 1
			s.done(q.Title, yes)
			return v, nil
		case k.Code == KeyRune && (k.Rune == 'n' || k.Rune == 'N'):
			v = 0
			s.done(q.Title, no)
			return v, nil
		case k.Code == KeyLeft || k.Code == KeyRune && k.Rune == 'h':
			v = 1
		case k.Code == KeyRight || k.Code == KeyRune && k.Rune == 'l':
			v = 0
		case k.Code == KeyTab || k.Code == KeyBackTab || k.Code == KeyUp || k.Code == KeyDown:
			v = map[int]int{1: 0, 0: 1, -1: 1}[v]
		case k.Code == KeyEnter:
			switch {
			case v == 1:
				s.done(q.Title, yes)
			case v == 0:
				s.done(q.Title, no)
			case q.Required:
				problem = "choose " + yes + " or " + no
				continue
			default:
				s.done(q.Title, "(none)")
			}
			return v, nil
		}
	}
}

func choiceSpan(label string, on bool) Span {
	if on {
		return Span{"[ " + label + " ]", Accent}
	}
	return Span{"  " + label + "  ", Dim}
}
