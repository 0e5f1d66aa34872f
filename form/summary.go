package form

import (
	"strings"

	"github.com/elicit/elicit/internal/visible"
)

// EscapeMarkdown makes s safe to show as literal text inside a markdown line;
// control characters are written as visible escapes (\x1b), never raw. It
// escapes what would change the meaning of the text (emphasis, code, links,
// HTML, tables, strikethrough, headings) with a backslash and joins line
// breaks with " / ", so that a bullet stays one line.
func EscapeMarkdown(s string) string { return visible.String(escapeMarkdown(s)) }

// escapeMarkdown is EscapeMarkdown before control characters are made
// visible: a loop over the bytes, not a strings.Replacer, whose trie every
// CLI call that renders a form built first (FuzzEscapeMarkdown compares the
// two).
func escapeMarkdown(s string) string {
	i := 0
	for i < len(s) && !markdownSpecial(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\r' || c == '\n':
			if c == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			b.WriteString(" / ")
		case markdownSpecial(c):
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// markdownSpecial reports whether escapeMarkdown changes byte c.
func markdownSpecial(c byte) bool {
	switch c {
	case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '~', '#', '\r', '\n':
		return true
	}
	return false
}

// Summary collapses an answered form into a few lines of markdown: the title
// (with the response id) and one bullet per answered field, in form order.
// A form that breaks a definition rule (see Validate) is summarised as one
// line naming its problems.
func Summary(f *Form, r *Response) string {
	if err := f.Check(); err != nil {
		return "**Form not valid**, nothing to summarise: " + EscapeMarkdown(strings.Join(ProblemStrings(err), "; ")) + "\n"
	}
	var b strings.Builder
	b.WriteString("**" + EscapeMarkdown(f.Title) + "** — answered")
	if r.ResponseID != "" {
		b.WriteString(" (" + EscapeMarkdown(r.ResponseID) + ")")
	}
	b.WriteByte('\n')
	for i := range f.Fields {
		v, ok := r.Responses[f.Fields[i].ID]
		if !ok {
			continue
		}
		b.WriteString("- " + EscapeMarkdown(f.Fields[i].Text) + ": **" + EscapeMarkdown(summaryValue(&f.Fields[i], v)) + "**\n")
	}
	return b.String()
}

func summaryValue(f *Field, v any) string {
	if f.Type.Expands() {
		return f.formatAnswer(v)
	}
	if list, ok := stringList(v); ok {
		if len(list) == 0 {
			return "(none)"
		}
		return strings.Join(list, ", ")
	}
	if n, ok := toFloat(v); ok {
		return fmtNum(n)
	}
	return FormatValue(v)
}
