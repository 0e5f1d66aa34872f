// Package htmlesc escapes strings for HTML as html/template does, one
// function per context, for the widget and the local page, which write
// their HTML by hand: html/template's initialisation and code cost every
// CLI call of the binary (docs/decisions.md, "Start-up"). The widget's
// tests hold the output to html/template's byte for byte.
package htmlesc

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text escapes s for an HTML text node, a quoted attribute value or the
// body of a <textarea> or <title>. It matches html/template's htmlEscaper
// (and its attrEscaper and rcdataEscaper, which use the same table for a
// string): NUL becomes U+FFFD; " & ' + < > become entities; every other
// byte, invalid UTF-8 included, is kept.
func Text(s string) string { return replace(s, &htmlTable, false) }

// htmlTable is html/template's htmlReplacementTable.
var htmlTable = [utf8.RuneSelf]string{
	0:    "\uFFFD",
	'"':  "&#34;",
	'&':  "&amp;",
	'\'': "&#39;",
	'+':  "&#43;",
	'<':  "&lt;",
	'>':  "&gt;",
}

// Unquoted escapes s for an unquoted attribute value (type=radio). It
// matches html/template's htmlNospaceEscaper: the empty string becomes
// "ZgotmplZ"; NUL, white space, " & ' + < = > and ` become entities, as do
// the runes U+FDD0-U+FDEF and U+FFF0-U+FFFF and each byte of invalid
// UTF-8 (as &#xfffd;).
func Unquoted(s string) string {
	if s == "" {
		return "ZgotmplZ"
	}
	return replace(s, &unquotedTable, true)
}

// replace is html/template's htmlReplacer: it replaces the ASCII
// characters table names and, with nonchars (for unquoted), the runes
// U+FDD0-U+FDEF and U+FFF0-U+FFFF and each byte of invalid UTF-8 (as
// &#xfffd;). It returns s itself when nothing is to be replaced.
func replace(s string, table *[utf8.RuneSelf]string, nonchars bool) string {
	i := 0
	for i < len(s) && (s[i] < utf8.RuneSelf && table[s[i]] == "" || s[i] >= utf8.RuneSelf && !nonchars) {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r < utf8.RuneSelf && table[r] != "":
			b.WriteString(table[r])
		case nonchars && (0xfdd0 <= r && r <= 0xfdef || 0xfff0 <= r && r <= 0xffff):
			b.WriteString("&#x" + strconv.FormatInt(int64(r), 16) + ";")
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unquotedTable is html/template's htmlNospaceReplacementTable.
var unquotedTable = [utf8.RuneSelf]string{
	0:    "&#xfffd;",
	'\t': "&#9;",
	'\n': "&#10;",
	'\v': "&#11;",
	'\f': "&#12;",
	'\r': "&#13;",
	' ':  "&#32;",
	'"':  "&#34;",
	'&':  "&amp;",
	'\'': "&#39;",
	'+':  "&#43;",
	'<':  "&lt;",
	'=':  "&#61;",
	'>':  "&gt;",
	'`':  "&#96;",
}

// JSValue writes s as a value in a script: a JSON string. It matches
// html/template's jsValEscaper, which marshals a string with
// encoding/json (< > & U+2028 U+2029 and invalid UTF-8 escaped, so the
// value cannot end the script) and pads nothing around a quote.
func JSValue(s string) string {
	b, err := json.Marshal(s)
	if err != nil { // a string always marshals
		return " null "
	}
	return string(b)
}
