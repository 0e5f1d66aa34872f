package visible

import (
	"strings"
	"testing"
)

func TestStringAndLine(t *testing.T) {
	tests := []struct {
		in, str, line string
	}{
		{"plain text, ünïcode 文字", "plain text, ünïcode 文字", "plain text, ünïcode 文字"},
		{"Nothing much\x1b[8m, and drops the prod DB\x1b[0m", `Nothing much\x1b[8m, and drops the prod DB\x1b[0m`, `Nothing much\x1b[8m, and drops the prod DB\x1b[0m`},
		{"T\x1b]0;pwned\aX\x1b[2J", `T\x1b]0;pwned\x07X\x1b[2J`, `T\x1b]0;pwned\x07X\x1b[2J`},
		{"two\nlines\tand a tab", "two\nlines\tand a tab", "two lines and a tab"},
		{"crlf\r\nbreak", "crlf\nbreak", "crlf break"},
		{"over\rwrite", `over\x0dwrite`, "over write"},
		{"nul\x00 del\x7f", `nul\x00 del\x7f`, `nul\x00 del\x7f`},
		{"c1 \u009b31m and \u0085", `c1 \u009b31m and \u0085`, `c1 \u009b31m and \u0085`},
		{"", "", ""},
		{"bad \x9b byte", "bad \ufffd byte", "bad \ufffd byte"},
		// A bidirectional override or isolate is escaped; right-to-left
		// text and the marks U+200E/U+200F stay.
		{"Safe \u202eBD eht pord\u202c", `Safe \u202eBD eht pord\u202c`, `Safe \u202eBD eht pord\u202c`},
		{"\u2066a\u2067b\u2068c\u2069 \u202a\u202b\u202d", `\u2066a\u2067b\u2068c\u2069 \u202a\u202b\u202d`, `\u2066a\u2067b\u2068c\u2069 \u202a\u202b\u202d`},
		{"שלום עולם \u200fمرحبا\u200e ok", "שלום עולם \u200fمرحبا\u200e ok", "שלום עולם \u200fمرحبا\u200e ok"},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.str {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.str)
		}
		if got := Line(tt.in); got != tt.line {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.line)
		}
	}
}

func TestName(t *testing.T) {
	for r, want := range map[rune]string{0x1b: "U+001B (ESC)", 0: "U+0000 (NUL)", '\r': "U+000D (CR)", 0x7f: "U+007F (DEL)", 0x9b: "U+009B (CSI)", 'é': "U+00E9",
		0x202a: "U+202A (LEFT-TO-RIGHT EMBEDDING)", 0x202e: "U+202E (RIGHT-TO-LEFT OVERRIDE)",
		0x2066: "U+2066 (LEFT-TO-RIGHT ISOLATE)", 0x2069: "U+2069 (POP DIRECTIONAL ISOLATE)", 0x200f: "U+200F"} {
		if got := Name(r); got != want {
			t.Errorf("Name(%U) = %q, want %q", r, got, want)
		}
	}
}

func TestIsControl(t *testing.T) {
	var got []rune
	for r := rune(0); r < 0x200; r++ {
		if IsControl(r) {
			got = append(got, r)
		}
	}
	// 32 C0 less tab and newline, DEL, 32 C1.
	if len(got) != 30+1+32 || IsControl('\t') || IsControl('\n') || !IsControl('\r') {
		t.Errorf("%d control characters: %U", len(got), got)
	}
}

func TestIsBidiControl(t *testing.T) {
	var got []rune
	for r := rune(0); r < 0x10000; r++ {
		if IsBidiControl(r) {
			got = append(got, r)
		}
	}
	want := []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069}
	if string(got) != string(want) || IsBidiControl(0x200e) || IsBidiControl(0x200f) || IsBidiControl('ש') {
		t.Errorf("bidirectional controls: %U, want %U", got, want)
	}
}

// TestWriter: a character split between writes is escaped whole.
func TestWriter(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	csi := []byte("\u009b")
	for _, p := range [][]byte{[]byte("a\x1b[2Jb "), csi[:1], csi[1:], []byte("1m é\n")} {
		if n, err := w.Write(p); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if want := `a\x1b[2Jb \u009b1m é` + "\n"; b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}

func FuzzString(f *testing.F) {
	f.Add("a\x1b[8mb\r\n\u009b")
	f.Add("ok \u202eko\u2066x\u2069")
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{String(s), Line(s)} {
			for _, r := range out {
				if IsHidden(r) {
					t.Fatalf("%q: %q keeps %U", s, out, r)
				}
			}
		}
		if strings.ContainsAny(Line(s), "\n\t") {
			t.Fatalf("Line(%q) breaks", s)
		}
	})
}
