package visible

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// IsControl reports whether r is a control character that must not reach
// a terminal raw: C0 (U+0000–U+001F) other than tab and newline, DEL
// (U+007F) and C1 (U+0080–U+009F). A carriage return is one: it moves the
// cursor back over what was written.
func IsControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f
}

// IsBidiControl reports whether r is a bidirectional embedding, override or
// isolate (U+202A–U+202E, U+2066–U+2069): it reorders the text after it as
// displayed, so a person could read "approve" where the text says
// "evorppa". Right-to-left letters and the marks U+200E and U+200F are
// not: they order nothing but themselves.
func IsBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// IsHidden reports whether r must not reach a person's screen raw: a
// control character or a bidirectional control (see IsControl and
// IsBidiControl).
func IsHidden(r rune) bool { return IsControl(r) || IsBidiControl(r) }

// c0 and c1 are the characters' short names.
var (
	c0 = [...]string{"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI",
		"DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"}
	c1 = [...]string{"PAD", "HOP", "BPH", "NBH", "IND", "NEL", "SSA", "ESA", "HTS", "HTJ", "VTS", "PLD", "PLU", "RI", "SS2", "SS3",
		"DCS", "PU1", "PU2", "STS", "CCH", "MW", "SPA", "EPA", "SOS", "SGCI", "SCI", "CSI", "ST", "OSC", "PM", "APC"}
	// bidi names U+202A–U+202E and U+2066–U+2069, as Unicode does.
	bidi = [...]string{"LEFT-TO-RIGHT EMBEDDING", "RIGHT-TO-LEFT EMBEDDING", "POP DIRECTIONAL FORMATTING",
		"LEFT-TO-RIGHT OVERRIDE", "RIGHT-TO-LEFT OVERRIDE",
		"LEFT-TO-RIGHT ISOLATE", "RIGHT-TO-LEFT ISOLATE", "FIRST STRONG ISOLATE", "POP DIRECTIONAL ISOLATE"}
)

// Name names a control character as people look it up: "U+001B (ESC)",
// "U+202E (RIGHT-TO-LEFT OVERRIDE)".
func Name(r rune) string {
	code := strconv.FormatInt(int64(r), 16)
	code = "U+" + strings.Repeat("0", max(4-len(code), 0)) + strings.ToUpper(code)
	switch {
	case r >= 0 && r < 0x20:
		return code + " (" + c0[r] + ")"
	case r == 0x7f:
		return code + " (DEL)"
	case r >= 0x80 && r <= 0x9f:
		return code + " (" + c1[r-0x80] + ")"
	case r >= 0x202a && r <= 0x202e:
		return code + " (" + bidi[r-0x202a] + ")"
	case r >= 0x2066 && r <= 0x2069:
		return code + " (" + bidi[r-0x2066+5] + ")"
	}
	return code
}

// escape writes r as a visible escape: \x1b for C0 and DEL, \u009b for C1,
// \u202e for a bidirectional control.
func escape(b *strings.Builder, r rune) {
	const hex = "0123456789abcdef"
	if r < 0x80 {
		b.WriteString(`\x`)
	} else {
		b.WriteString(`\u`)
		b.WriteByte(hex[r>>12&0xf])
		b.WriteByte(hex[r>>8&0xf])
	}
	b.WriteByte(hex[r>>4&0xf])
	b.WriteByte(hex[r&0xf])
}

// String returns s with every control character and bidirectional control
// escaped; tabs and line breaks stay (a CRLF line break becomes a newline).
func String(s string) string { return replace(s, false) }

// Line returns s as one line: line breaks and tabs become spaces (a table
// cell, a one-line answer) and the other control characters are escaped.
func Line(s string) string { return replace(s, true) }

func replace(s string, line bool) string {
	clean := utf8.ValidString(s) // a stray byte is written as U+FFFD
	for _, r := range s {
		if IsHidden(r) || line && (r == '\n' || r == '\t') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch {
		case r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
			// a CRLF line break: the newline that follows stands for both
		case line && (r == '\n' || r == '\t' || r == '\r'):
			b.WriteByte(' ')
		case IsHidden(r):
			escape(&b, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Writer escapes what is written through it as String does. A character
// split between two writes is held until its last byte arrives.
type Writer struct {
	w    io.Writer
	part []byte // the start of a character the last write ended in
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p, escaped, to the underlying writer. It reports len(p)
// when the escaped text was written in full.
func (v *Writer) Write(p []byte) (int, error) {
	data := p
	if len(v.part) > 0 {
		data = append(v.part, p...)
		v.part = nil
	}
	// Hold back an incomplete character at the end (at most 3 bytes).
	cut := len(data)
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				cut = i
			}
			break
		}
	}
	v.part = append([]byte(nil), data[cut:]...)
	if _, err := io.WriteString(v.w, String(string(data[:cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}
