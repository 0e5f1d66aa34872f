package method

import (
	"strings"
	"unicode"
)

// stopwords are dropped from keywords: Forge Gaze's list of 19.
var stopwords = map[string]bool{
	"the": true, "a": true, "an": true, "and": true, "or": true, "of": true, "for": true,
	"in": true, "to": true, "with": true, "is": true, "are": true, "this": true, "that": true,
	"will": true, "be": true, "on": true, "at": true, "by": true,
}

// Keywords extracts the keywords of a text: it lowercases it, splits it on
// everything but letters and digits, keeps a hyphen between two letters or
// digits as part of the word ("trade-offs", "what-if"), drops the stopwords
// (the, a, an, and, or, of, for, in, to, with, is, are, this, that, will, be,
// on, at, by) and repeated words. The result keeps first-seen order and is
// never nil. There is no stemming and no prefix matching.
func Keywords(text string) []string {
	out := []string{}
	seen := map[string]bool{}
	forEachWord(text, true, func(w string) {
		if !stopwords[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	})
	return out
}

// words splits s into lowercase words of letters and digits; hyphens and
// apostrophes split too. The title bonus compares such word sequences.
func words(s string) []string {
	var out []string
	forEachWord(s, false, func(w string) { out = append(out, w) })
	return out
}

// forEachWord calls fn with each lowercase word of s. With hyphens, a hyphen
// between two letters or digits stays inside the word.
func forEachWord(s string, hyphens bool, fn func(string)) {
	rs := []rune(strings.ToLower(s))
	start := -1
	for i, r := range rs {
		in := isWordRune(r) || hyphens && r == '-' && start >= 0 && i+1 < len(rs) && isWordRune(rs[i+1])
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			fn(string(rs[start:i]))
			start = -1
		}
	}
	if start >= 0 {
		fn(string(rs[start:]))
	}
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// matches reports whether a lowercase topic matches a keyword set: the topic
// is one of the keywords, or it is hyphenated and each of its parts is a
// keyword or a stopword ("trade offs" matches the topic trade-offs). A
// hyphenated keyword matches only the identical topic.
func matches(topic string, kw map[string]bool) bool {
	if kw[topic] {
		return true
	}
	if !strings.Contains(topic, "-") {
		return false
	}
	for part := range strings.SplitSeq(topic, "-") {
		if !kw[part] && !stopwords[part] {
			return false
		}
	}
	return true
}
