package method

import (
	"strings"
	"testing"
	"unicode"
)

// The plain-code fast paths of the parser, each checked against the general
// code it short-cuts.

// phraseRunes is phrase written rune by rune, as it was before its ASCII
// fast path.
func phraseRunes(s string) string {
	var b strings.Builder
	b.WriteByte(' ')
	gap := true
	for _, r := range s {
		switch {
		case isWordRune(r):
			b.WriteRune(unicode.ToLower(r))
			gap = false
		case !gap:
			b.WriteByte(' ')
			gap = true
		}
	}
	if !gap {
		b.WriteByte(' ')
	}
	return b.String()
}

// stepsOK is checkSteps's general walk, without plainSteps.
func stepsOK(pattern string) bool {
	for rest := pattern; ; {
		step, after, arrow := cutArrow(rest)
		if step = strings.TrimSpace(step); step == "" || strings.IndexFunc(step, unsafeInStep) >= 0 {
			return false
		}
		if !arrow {
			return true
		}
		rest = after
	}
}

var fastPathSeeds = []string{
	"", " ", "Tree of Thoughts", "Occam's Re-think", "ÉCOLE naïve", "a\x00b", "\xff", "İstanbul Ⱥ",
	"paths->evaluation->selection", "a -> b", "a->->b", "a-->b", "->a", "a->", "a→b", "a->`b`", "x<y", " \t ",
	"two  spaces", "line\nbreak", "ok text.", "abcdefg  hijk", "abcdefgh  ijk", "abcdefghijklmno ", " Lead",
	// singleSpaced's words: two spaces across a word, across two words and
	// across two pairs of words; a control character in the second word.
	"abcdefghijklmno  q", "abcdefg  hijklmnopq", "abcdefghijklmno  qrstuvwxyzabcdefghij", "abcdefghijkl\x01mnopqrs",
	"abcdefghijklmnop  q", "abcdefg hijklmn  pqrstuvwxyz", "abcdefghijklmnopqrstuvw  xyz", "abcdefghijklmnopqrstu\x7f",
}

func TestFastPaths(t *testing.T) {
	for _, s := range fastPathSeeds {
		checkFastPaths(t, s)
	}
}

func FuzzFastPaths(f *testing.F) {
	for _, s := range fastPathSeeds {
		f.Add(s)
	}
	f.Fuzz(checkFastPaths)
}

func checkFastPaths(t *testing.T, s string) {
	if got, want := phrase(s), phraseRunes(s); got != want {
		t.Errorf("phrase(%q) = %q, rune by rune %q", s, got, want)
	}
	if plainSteps(s) && !stepsOK(s) {
		t.Errorf("plainSteps(%q) accepts what checkSteps refuses", s)
	}
	if got, want := checkSteps(s) == nil, stepsOK(s); got != want {
		t.Errorf("checkSteps(%q) ok = %t, general walk %t", s, got, want)
	}
	if got, want := validName(s), strings.IndexFunc(s, badNameRune) < 0; got != want {
		t.Errorf("validName(%q) = %t, rune by rune %t", s, got, want)
	}
	if words, plain := phraseOf(s); plain && words[1:len(words)-1] != strings.ToLower(s) {
		t.Errorf("phraseOf(%q) = %q, plain, but ToLower gives %q", s, words, strings.ToLower(s))
	}
	for _, w := range []string{"the", "by", "with", "s"} {
		if got, want := stopword(w), strings.Contains(" the a an and or of for in to with is are this that will be on at by ", " "+w+" "); got != want {
			t.Errorf("stopword(%q) = %t, want %t", w, got, want)
		}
	}
}
