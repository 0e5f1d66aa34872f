package cli

import (
	"io"
	"strings"
	"unicode/utf8"
)

// tableBlock is how many rows a streamTable measures its columns on.
const tableBlock = 1000

// streamTable prints rows in columns two spaces apart, as tabwriter does,
// without holding every row: the columns are as wide as the widest cell
// of the first tableBlock rows (the header among them), and a longer cell
// after those pushes the rest of its row along. Up to tableBlock rows,
// the output is tabwriter's.
type streamTable struct {
	w      io.Writer
	rows   [][]string
	widths []int
	fixed  bool
}

func (t *streamTable) row(cells ...string) error {
	if t.fixed {
		return t.write(cells)
	}
	t.rows = append(t.rows, cells)
	if len(t.rows) > tableBlock {
		return t.fix()
	}
	return nil
}

// flush prints the rows held back.
func (t *streamTable) flush() error {
	if t.fixed {
		return nil
	}
	return t.fix()
}

func (t *streamTable) fix() error {
	for _, r := range t.rows {
		for i, c := range r[:len(r)-1] {
			if i == len(t.widths) {
				t.widths = append(t.widths, 0)
			}
			t.widths[i] = max(t.widths[i], utf8.RuneCountInString(c))
		}
	}
	t.fixed = true
	for _, r := range t.rows {
		if err := t.write(r); err != nil {
			return err
		}
	}
	t.rows = nil
	return nil
}

func (t *streamTable) write(cells []string) error {
	var b strings.Builder
	for i, c := range cells {
		b.WriteString(c)
		if i == len(cells)-1 {
			break
		}
		pad := 2
		if i < len(t.widths) {
			pad = max(2, t.widths[i]+2-utf8.RuneCountInString(c))
		}
		b.WriteString(strings.Repeat(" ", pad))
	}
	b.WriteByte('\n')
	_, err := io.WriteString(t.w, b.String())
	return err
}
