package form

import (
	"strings"
	"testing"
)

// markdownReplacer is what escapeMarkdown does, as a strings.Replacer: the
// reference it is held to.
var markdownReplacer = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", `\<`, ">", `\>`, "|", `\|`, "~", `\~`, "#", `\#`,
	"\r\n", " / ", "\n", " / ", "\r", " / ",
)

func TestEscapeMarkdown(t *testing.T) {
	for in, want := range map[string]string{
		"":                     "",
		"plain text, é":        "plain text, é",
		"*bold* _it_ `code`":   `\*bold\* \_it\_ \` + "`code\\`",
		"[a](b) <i> |x| ~s~ #": `\[a\](b) \<i\> \|x\| \~s\~ \#`,
		"a\r\nb\nc\rd\r\r\n":   "a / b / c / d /  / ",
		`back\slash`:           `back\\slash`,
		"bell\a":               `bell\x07`,
	} {
		if got := EscapeMarkdown(in); got != want {
			t.Errorf("EscapeMarkdown(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzEscapeMarkdown holds escapeMarkdown to the strings.Replacer it
// replaced.
func FuzzEscapeMarkdown(f *testing.F) {
	for _, s := range []string{"", "a*b", "\r\n\r", "x\\`y", "é#|~<>[]_\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := escapeMarkdown(s), markdownReplacer.Replace(s); got != want {
			t.Fatalf("escapeMarkdown(%q) = %q, want %q", s, got, want)
		}
	})
}
