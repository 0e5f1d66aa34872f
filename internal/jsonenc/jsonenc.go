package jsonenc

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Appender is a value that appends its own JSON, compact, to b: what
// encoding/json writes for it with HTML escaping off. writeJSON in the CLI
// indents it with Indent.
type Appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

const hexDigits = "0123456789abcdef"

// String appends s as a JSON string, escaped as encoding/json escapes it
// with HTML escaping off: quotes and backslashes, control characters (\b,
// \f, \n, \r, \t by name, the others as \u00XX), U+2028 and U+2029 (which
// end a line in JavaScript), and invalid UTF-8 replaced by \ufffd.
func String(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(append(b, s[start:i]...), `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(append(b, s[start:]...), '"')
}

// Strings appends l as a JSON array of strings; a nil l is null, as
// encoding/json writes a nil slice.
func Strings(b []byte, l []string) []byte {
	if l == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = String(b, s)
	}
	return append(b, ']')
}

// Bool appends true or false.
func Bool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// Key appends a member's key and its colon, after a comma unless the member
// is the object's first.
func Key(b []byte, key string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	return append(String(b, key), ':')
}

// Field appends a string member ("key":"value").
func Field(b []byte, key, value string, first bool) []byte {
	return String(Key(b, key, first), value)
}

// Any appends v through encoding/json: the one reflective step, for the
// types Value does not write itself.
func Any(b []byte, v any) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return b, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// Indent appends src, compact JSON that is known to be valid (written with
// this package), to dst with each element on a line of its own, indented as
// json.Indent indents it: empty objects and arrays stay {} and [].
// Unlike json.Indent it does not scan src for validity, which for the
// output of a CLI call was as much work again as writing it.
func Indent(dst, src []byte, indent string) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, indent...)
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			j := i + 1
			for ; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			dst = append(dst, src[i:j+1]...)
			i = j
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, src[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, c, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
