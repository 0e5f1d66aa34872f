package readme

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

var indexLink = regexp.MustCompile(`\]\(#([^)]+)\)`)

// anchor is the fragment GitHub gives a heading: lower case, every
// character but letters, digits, spaces, '-' and '_' dropped, spaces made
// '-'; a repeated heading gets -1, -2, ….
func anchor(heading string, seen map[string]int) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	a := b.String()
	if n := seen[a]; n > 0 {
		seen[a] = n + 1
		return fmt.Sprintf("%s-%d", a, n)
	}
	seen[a] = 1
	return a
}

// TestDecisionsIndexLinksEveryEntry checks that docs/decisions.md's index
// links every section and entry below it, and that every link of the
// index leads to a heading, so that a decision added at the end is found.
func TestDecisionsIndexLinksEveryEntry(t *testing.T) {
	data := pages(t)["docs/decisions.md"]
	_, body, ok := bytes.Cut(data, []byte("\n## Index\n"))
	if !ok {
		t.Fatal("docs/decisions.md has no ## Index")
	}
	index, body, _ := bytes.Cut(body, []byte("\n## "))
	body = append([]byte("## "), body...)
	linked := map[string]bool{}
	for _, m := range indexLink.FindAllSubmatch(index, -1) {
		linked[string(m[1])] = true
	}
	headings := map[string]bool{}
	seen := map[string]int{"index": 1}
	fence := false
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if fence || !strings.HasPrefix(line, "##") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(line, "#"))
		a := anchor(text, seen)
		headings[a] = true
		if !linked[a] {
			t.Errorf("the index does not link %q (#%s)", line, a)
		}
	}
	for a := range linked {
		if !headings[a] {
			t.Errorf("the index links #%s, which no heading has", a)
		}
	}
	if len(headings) < 100 {
		t.Errorf("%d headings found below the index, want the whole page's", len(headings))
	}
}
