package form

import (
	"strings"
	"sync"

	"github.com/elicit/elicit/internal/visible"
)

// markdownEscaper escapes what would change the meaning of text inside a
// markdown line: emphasis, code, links, HTML, tables, strikethrough, and
// line breaks (joined with " / " so a bullet stays one line).
var markdownEscaper = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer(
		`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
		"<", `\<`, ">", `\>`, "|", `\|`, "~", `\~`, "#", `\#`,
		"\r\n", " / ", "\n", " / ", "\r", " / ",
	)
})

// EscapeMarkdown makes s safe to show as literal text inside a markdown line;
// control characters are written as visible escapes (\x1b), never raw.
func EscapeMarkdown(s string) string { return visible.String(markdownEscaper().Replace(s)) }

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
		return f.FormatAnswer(v)
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
