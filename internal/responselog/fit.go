package responselog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// maxRecord is the longest journal line Append writes, newline included;
// maxLine is the longest a reader takes (older elicits wrote lines of any
// length: a longer one is skipped with a warning). A response is at most
// 1 MiB of answers and a form 1 MiB, but escaping can multiply answers
// (a control character takes six bytes), so a record that would be longer
// has its longest answers cut to fit, each ending with a marker.
const (
	maxRecord = 4 << 20
	maxLine   = 16 << 20
)

// cutMarker ends an answer the log cut; %d is the answer's length in bytes.
const cutMarker = " … [cut by the response log: %d bytes in all]"

// fit returns the record's line cut to fit maxRecord (newline included),
// or nil when it cannot be. A form too long to leave room for the answers
// is left out; then the longest answers are cut. Each step is a warning.
func (l *Log) fit(r *Record, line []byte) []byte {
	if len(r.Form) > 0 && len(line)-len(r.Responses) > maxRecord/2 {
		l.warn("record %s of %q: its form is %d bytes, too long to keep beside its answers: logged without it (it cannot be saved as a template from the log)",
			r.ID, r.Title, len(r.Form))
		r.Form = nil
		if line = l.line(r); line == nil {
			return nil
		}
	}
	if len(line) < maxRecord {
		return line
	}
	budget := maxRecord - 1 - (len(line) - len(r.Responses))
	if len(r.Responses) > 0 && budget > 0 {
		if cut, n := cutAnswers(r.Responses, budget); cut != nil {
			was := len(r.Responses)
			r.Responses = cut
			l.warn("response %s of %q has %d bytes of answers, more than a record of the log takes (%d MiB): %d answer(s) logged cut, each ending %q",
				r.ResponseID, r.Title, was, maxRecord>>20, n, "[cut by the response log: N bytes in all]")
			return l.line(r)
		}
	}
	l.warn("record %s of %q is %d bytes, more than a record of the log takes (%d MiB), and its answers cannot be cut to fit: not logged",
		r.ID, r.Title, len(line), maxRecord>>20)
	return nil
}

// cutAnswers re-encodes the answers (a JSON value) with every string
// longer than some length cut to it, the longest length for which the
// result fits budget bytes, and says how many strings it cut. It returns
// nil when even the shortest cut does not fit.
func cutAnswers(raw json.RawMessage, budget int) (json.RawMessage, int) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, 0
	}
	var sizes []int
	walkStrings(v, func(s string) string { sizes = append(sizes, escapedLen(s)); return s })
	whole, err := encodeJSON(v)
	if err != nil {
		return nil, 0
	}
	total := 0
	for _, n := range sizes {
		total += n
	}
	other := len(whole) - total // everything but the strings' contents
	markerLen := len(fmt.Sprintf(cutMarker, len(raw))) + 8
	// size is the length of the answers with every string cut to at most
	// c escaped bytes (a cut string keeps its marker whatever c is).
	size := func(c int) int {
		n := other
		for _, s := range sizes {
			if s <= c {
				n += s
			} else {
				n += max(c, markerLen)
			}
		}
		return n
	}
	lo, hi := 0, len(whole)
	if size(lo) > budget {
		return nil, 0
	}
	for lo < hi { // the largest c with size(c) <= budget
		mid := (lo + hi + 1) / 2
		if size(mid) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	// escapedLen counts as encoding/json escapes; should a future one
	// escape more, tighten until the result fits.
	for c := lo; ; c -= c/8 + 1 {
		n := 0
		cut := walkStrings(v, func(s string) string {
			if escapedLen(s) <= c {
				return s
			}
			n++
			marker := fmt.Sprintf(cutMarker, len(s))
			return prefixWithin(s, c-len(marker)) + marker
		})
		out, err := encodeJSON(cut)
		if err != nil {
			return nil, 0
		}
		if len(out) <= budget {
			return out, n
		}
		if c <= 0 {
			return nil, 0
		}
	}
}

// walkStrings returns v with f applied to every string in it (map keys
// left alone).
func walkStrings(v any, f func(string) string) any {
	switch x := v.(type) {
	case string:
		return f(x)
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = walkStrings(x[i], f)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = walkStrings(e, f)
		}
		return out
	}
	return v
}

// escapedLen is how many bytes s takes inside a JSON string.
func escapedLen(s string) int {
	n := 0
	for i := 0; i < len(s); {
		w, size := runeEscaped(s[i:])
		n += w
		i += size
	}
	return n
}

// prefixWithin is the longest prefix of s (whole characters) that takes
// at most max bytes inside a JSON string.
func prefixWithin(s string, max int) string {
	n := 0
	for i := 0; i < len(s); {
		w, size := runeEscaped(s[i:])
		if n+w > max {
			return s[:i]
		}
		n += w
		i += size
	}
	return s
}

// runeEscaped is how many bytes the first character of s takes inside a
// JSON string as encoding/json writes it (HTML escaping off), and how many
// bytes of s it is.
func runeEscaped(s string) (int, int) {
	c := s[0]
	if c < utf8.RuneSelf {
		switch {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
			return 2, 1
		case c < 0x20:
			return 6, 1
		}
		return 1, 1
	}
	r, size := utf8.DecodeRuneInString(s)
	if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
		return 6, size // \ufffd, \u2028, \u2029
	}
	return size, size
}
