package method

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// stopword reports whether a lowercase word is dropped from keywords: Forge
// Gaze's list of 19.
func stopword(w string) bool {
	switch w {
	case "the", "a", "an", "and", "or", "of", "for", "in", "to", "with", "is", "are", "this", "that",
		"will", "be", "on", "at", "by":
		return true
	}
	return false
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
		if !stopword(w) && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	})
	return out
}

// phrase is s as its lowercase words of letters and digits, each followed
// and preceded by one space; hyphens and apostrophes split words too. The
// title bonus is then a substring test: phrase(title) contains phrase(name).
func phrase(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
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

// forEachWord calls fn with each lowercase word of s. With hyphens, a hyphen
// between two letters or digits stays inside the word.
func forEachWord(s string, hyphens bool, fn func(string)) {
	s = strings.ToLower(s)
	start := -1
	for i, r := range s {
		in := isWordRune(r) || hyphens && r == '-' && start >= 0 && i+1 < len(s) && startsWithWordRune(s[i+1:])
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			fn(s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		fn(s[start:])
	}
}

func startsWithWordRune(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r)
}

// isKeyword reports whether t, lowercased, is a whole keyword as Keywords
// extracts them: letters and digits with inner hyphens, not a stopword.
func isKeyword(t string) bool {
	prev := '-'
	for _, r := range t {
		if !isWordRune(r) && (r != '-' || prev == '-') {
			return false
		}
		prev = r
	}
	return t != "" && prev != '-' && !stopword(strings.ToLower(t))
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
		if !kw[part] && !stopword(part) {
			return false
		}
	}
	return true
}
