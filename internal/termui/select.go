package termui

import (
	"strconv"
	"strings"
)

// Option is one choice of a select.
type Option struct {
	Label string
	// Badges are shown after the label: "Recommended", "your approach",
	// "guessed".
	Badges []string
	// Note is shown after the badges, dimmed: a trade-off, a detail.
	Note string
}

// Select asks for one of several options.
type Select struct {
	Title string
	// Lines are shown under the title: help, a rationale, a report.
	Lines   []Line
	Options []Option
	// Cursor is the option the cursor starts on.
	Cursor int
	// Unchosen starts with no option under the cursor (a confirm is never
	// a default): Enter is refused until an option is moved to or typed.
	Unchosen bool
}

// Select shows a single select: ↑/↓ or k/j move, a digit jumps to that
// option, Enter chooses. It returns the chosen option's index.
func (s *Session) Select(q Select) (int, error) {
	s.asking = q.Title
	if len(q.Options) == 0 {
		return -1, ErrCancelled
	}
	cur, problem := clamp(q.Cursor, len(q.Options)), ""
	if q.Unchosen {
		cur = -1
	}
	for {
		s.draw(footer(selectLines(q.Title, q.Lines, q.Options, cur, nil), problem, "↑/↓ move · enter choose · esc cancel"))
		k, err := s.readKey()
		if err != nil {
			return -1, err
		}
		problem = ""
		switch {
		case k.Code == KeyEnter && cur < 0:
			problem = "choose one: ↑/↓ or its number, then enter"
		case k.Code == KeyEnter:
			s.done(q.Title, q.Options[cur].Label)
			return cur, nil
		default:
			cur = moveCursor(k, cur, len(q.Options))
		}
	}
}

// MultiSelect asks for any number of options.
type MultiSelect struct {
	Title    string
	Lines    []Line
	Options  []Option
	Selected []bool // preselected options (may be shorter than Options)
	// Min is how many options must be chosen (0: none is fine).
	Min int
}

// MultiSelect shows a multi-select: ↑/↓ or k/j move, space (or x) toggles,
// a toggles all, Enter confirms. It returns the chosen indexes in order.
func (s *Session) MultiSelect(q MultiSelect) ([]int, error) {
	s.asking = q.Title
	if len(q.Options) == 0 {
		return nil, ErrCancelled
	}
	sel := make([]bool, len(q.Options))
	copy(sel, q.Selected)
	cur, problem := 0, ""
	for {
		s.draw(footer(selectLines(q.Title, q.Lines, q.Options, cur, sel), problem, "↑/↓ move · space toggle · a all · enter confirm · esc cancel"))
		k, err := s.readKey()
		if err != nil {
			return nil, err
		}
		problem = ""
		switch {
		case k.Code == KeyEnter:
			chosen, labels := chosenOf(q.Options, sel)
			if len(chosen) < q.Min {
				problem = minMessage(q.Min)
				continue
			}
			answer := strings.Join(labels, ", ")
			if answer == "" {
				answer = "(none)"
			}
			s.done(q.Title, answer)
			return chosen, nil
		case k.Code == KeyRune && (k.Rune == ' ' || k.Rune == 'x'):
			sel[cur] = !sel[cur]
		case k.Code == KeyRune && k.Rune == 'a':
			all := !allTrue(sel)
			for i := range sel {
				sel[i] = all
			}
		default:
			cur = moveCursor(k, cur, len(q.Options))
		}
	}
}

func minMessage(n int) string {
	if n == 1 {
		return "choose at least one"
	}
	return "choose at least " + strconv.Itoa(n)
}

func chosenOf(opts []Option, sel []bool) ([]int, []string) {
	var idx []int
	var labels []string
	for i, on := range sel {
		if on {
			idx = append(idx, i)
			labels = append(labels, opts[i].Label)
		}
	}
	return idx, labels
}

func allTrue(sel []bool) bool {
	for _, on := range sel {
		if !on {
			return false
		}
	}
	return true
}

// moveCursor applies a movement key; from no option (cur -1) down goes
// to the first and up to the last.
func moveCursor(k Key, cur, n int) int {
	up := k.Code == KeyUp || k.Code == KeyBackTab || k.Code == KeyRune && k.Rune == 'k'
	down := k.Code == KeyDown || k.Code == KeyTab || k.Code == KeyRune && k.Rune == 'j'
	switch {
	case cur < 0 && up:
		return n - 1
	case cur < 0 && down:
		return 0
	case up:
		return (cur - 1 + n) % n
	case down:
		return (cur + 1) % n
	case k.Code == KeyHome || k.Code == KeyRune && k.Rune == 'g':
		return 0
	case k.Code == KeyEnd || k.Code == KeyRune && k.Rune == 'G':
		return n - 1
	case k.Code == KeyRune && k.Rune >= '1' && k.Rune <= '9':
		if i := int(k.Rune - '1'); i < n {
			return i
		}
	}
	return cur
}

func clamp(i, n int) int {
	if i < 0 || i >= n {
		return 0
	}
	return i
}

// selectLines draws the options; sel is nil for a single select.
func selectLines(title string, lines []Line, opts []Option, cur int, sel []bool) []Line {
	out := header(title, lines)
	for i, o := range opts {
		pointer := Span{"  ", Normal}
		if i == cur {
			pointer = Span{"› ", Accent}
		}
		spans := []Span{{"  ", Normal}, pointer}
		if sel != nil {
			if sel[i] {
				spans = append(spans, Span{"[x] ", Good})
			} else {
				spans = append(spans, Span{"[ ] ", Normal})
			}
		} else {
			spans = append(spans, Span{strconv.Itoa(i+1) + ". ", Dim})
		}
		label := Span{o.Label, Normal}
		if i == cur {
			label.Style = Accent
		}
		spans = append(spans, label)
		if len(o.Badges) > 0 {
			spans = append(spans, Span{" (" + strings.Join(o.Badges, ", ") + ")", Marked})
		}
		if o.Note != "" {
			spans = append(spans, Span{" — " + o.Note, Dim})
		}
		out = append(out, Line{Spans: spans, Indent: 8, Focus: i == cur})
	}
	return out
}
