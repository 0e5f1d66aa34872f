// Package termuitest reads back what a termui session draws, as a terminal
// would show it, for golden tests. It is for tests only.
package termuitest

import (
	"strconv"
	"strings"
)

// Screen interprets what a session writes, as a terminal would, for the
// few sequences the kit uses: CR, LF, cursor up, erase below, and SGR and
// cursor-visibility sequences (ignored).
type Screen struct {
	rows     [][]rune
	row, col int
}

func (s *Screen) Write(p []byte) (int, error) {
	text := []rune(string(p))
	for i := 0; i < len(text); i++ {
		r := text[i]
		switch {
		case r == '\r':
			s.col = 0
		case r == '\n':
			s.row++
		case r == 0x1b && i+1 < len(text) && text[i+1] == '[':
			j := i + 2
			for j < len(text) && !(text[j] >= 0x40 && text[j] <= 0x7e) {
				j++
			}
			param := string(text[i+2 : j])
			switch text[j] {
			case 'A':
				n, _ := strconv.Atoi(param)
				s.row = max(s.row-max(n, 1), 0)
			case 'J':
				s.grow()
				s.rows[s.row] = s.rows[s.row][:min(s.col, len(s.rows[s.row]))]
				s.rows = s.rows[:s.row+1]
			}
			i = j
		default:
			s.grow()
			line := s.rows[s.row]
			for len(line) <= s.col {
				line = append(line, ' ')
			}
			line[s.col] = r
			s.rows[s.row] = line
			s.col++
		}
	}
	return len(p), nil
}

func (s *Screen) grow() {
	for len(s.rows) <= s.row {
		s.rows = append(s.rows, nil)
	}
}

func (s *Screen) String() string {
	var b strings.Builder
	for _, r := range s.rows {
		b.WriteString(strings.TrimRight(string(r), " ") + "\n")
	}
	return b.String()
}
