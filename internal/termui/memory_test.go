package termui

import (
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/termui/termuitest"
)

// prose is n bytes of words, as a long paste or help text has them.
func prose(n int) string {
	return strings.Repeat("lorem ipsum dolor sit amet, ", n/28+1)[:n]
}

// allocated is how many bytes run allocates.
func allocated(run func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	run()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// bytesPerByte bounds what drawing a text may allocate: a few copies of
// it (the editor's runes, the strings drawn from them), never one per row.
const bytesPerByte = 64

// TestDrawMemoryLinear: a paste into a one-line field and a long help
// text are drawn in memory linear in their size (a few copies of the
// text, whatever its length), and the terminal gets a screenful, not the
// whole text on every key. The smaller size runs first, so that a
// quadratic layout fails there before the larger one runs out of memory.
func TestDrawMemoryLinear(t *testing.T) {
	for _, size := range []int{64 << 10, 1 << 20} {
		text := prose(size)
		tests := []struct {
			name, keys string
			q          Input
		}{
			{"paste", "\x1b[200~" + text + "\x1b[201~x\x1b[D\r", Input{Title: "Notes?"}},
			{"help text", "abc\x1b[D\r", Input{Title: "Notes?", Lines: []Line{Styled(text, Dim)}}},
		}
		for _, tt := range tests {
			var out countingWriter
			var err error
			got := allocated(func() {
				s := New(strings.NewReader(tt.keys), &out, 81, true)
				s.height = func() int { return 24 }
				_, err = s.Input(tt.q)
			})
			if err != nil {
				t.Fatalf("%s of %d bytes: %v", tt.name, size, err)
			}
			if limit := uint64(bytesPerByte * size); got > limit {
				t.Fatalf("%s of %d bytes: drawing allocated %d bytes, over %d (%d per byte of text)", tt.name, size, got, limit, bytesPerByte)
			}
			// Five draws of at most 24 rows of 80 columns, and the summary.
			if out.n > 5*24*(80*4+16)+4096 {
				t.Errorf("%s of %d bytes: %d bytes written to the terminal, more than five screens", tt.name, size, out.n)
			}
			t.Logf("%s of %d bytes: %d bytes allocated, %d written", tt.name, size, got, out.n)
		}
	}
}

type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// TestTallBlock: a block taller than the terminal shows its title and the
// rows around the line in focus (the editor with its cursor, then the key
// help), within the terminal's height; the help text's start is cut.
func TestTallBlock(t *testing.T) {
	tests := []struct {
		name, keys string
		run        func(*Session) error
		want       []string // rows that must show
		gone       string   // text that must not
	}{
		{"help text above an input", "ab", func(s *Session) error {
			_, err := s.Input(Input{Title: "Notes?", Lines: []Line{Styled("first "+prose(5000)+" last", Dim)}})
			return err
		}, []string{"? Notes?", "  › ab", "  enter submit · esc cancel"}, "first"},
		{"cursor inside a long paste", "\x1b[200~start " + prose(5000) + " end\x1b[201~\x01\x1b[C", func(s *Session) error {
			_, err := s.Input(Input{Title: "Notes?"})
			return err
		}, []string{"? Notes?", "  › start lorem", "  enter submit · esc cancel"}, " end"},
		{"many options", strings.Repeat("j", 40), func(s *Session) error {
			opts := make([]Option, 100)
			for i := range opts {
				opts[i].Label = "option " + strings.Repeat("x", i%7) + string(rune('a'+i%26))
			}
			opts[40].Label = "the chosen one"
			_, err := s.Select(Select{Title: "Which?", Options: opts})
			return err
		}, []string{"? Which?", "  › 41. the chosen one", "  ↑/↓ move · enter choose · esc cancel"}, "1. option a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			scr := &termuitest.Screen{}
			s := New(strings.NewReader(tt.keys), scr, 61, false)
			s.height = func() int { return 12 }
			if err := tt.run(s); err != io.EOF {
				t.Fatalf("err = %v, want the end of the keys", err)
			}
			screen := scr.String()
			rows := strings.Split(strings.TrimSuffix(screen, "\n"), "\n")
			if len(rows) > 12 {
				t.Errorf("%d rows on a terminal of 12:\n%s", len(rows), screen)
			}
			for _, w := range tt.want {
				found := false
				for _, r := range rows {
					found = found || strings.HasPrefix(r, w)
				}
				if !found {
					t.Errorf("no row %q on the screen:\n%s", w, screen)
				}
			}
			if strings.Contains(screen, tt.gone) {
				t.Errorf("%q is on the screen, want it scrolled out of the block:\n%s", tt.gone, screen)
			}
		})
	}
}

// BenchmarkDrawLongInput draws a one-line field holding 1 MiB of text.
func BenchmarkDrawLongInput(b *testing.B) {
	text := prose(1 << 20)
	s := New(strings.NewReader(""), io.Discard, 81, true)
	s.height = func() int { return 24 }
	ed := editor{text: []rune(text), pos: len(text) / 2}
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		s.draw(footer(append(header("Notes?", nil), ed.line("")), "", "enter submit · esc cancel"))
	}
}
