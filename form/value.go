package form

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/internal/strictjson"
	"github.com/elicit/elicit/problem"
)

// bigNumber is a JSON number float64 cannot hold (out of its range, or
// with more significant digits than it keeps exactly), kept as its literal
// text so a check can say what is wrong with it (jsonnode's Value would
// turn it into a string, and a text field would accept it).
type bigNumber string

// MarshalJSON writes the number as it was given.
func (b bigNumber) MarshalJSON() ([]byte, error) { return []byte(b), nil }

// rangeMessage says what is wrong with a number out of range.
func rangeMessage(text string) string {
	return fmt.Sprintf("must be a number within ±1.8e308 (got %s)", text)
}

// jsonValue converts a node like jsonnode's Value (the last duplicate key
// wins), except that a number float64 cannot hold becomes a bigNumber.
func jsonValue(n *jsonnode.Node) any {
	switch n.Kind {
	case jsonnode.Number:
		f, msg := parseExact(n.Text)
		if msg != "" {
			return bigNumber(n.Text)
		}
		return f
	case jsonnode.Array:
		out := make([]any, len(n.Items))
		for i := range n.Items {
			out[i] = jsonValue(&n.Items[i])
		}
		return out
	case jsonnode.Object:
		out := make(map[string]any, len(n.Members))
		for i := range n.Members {
			out[n.Members[i].Key] = jsonValue(&n.Members[i].Value)
		}
		return out
	}
	return n.Value()
}

// documentProblems reports what decoding would hide in n, parsed from data,
// in document order: duplicate keys (the last would win and the others be
// lost) and lone UTF-16 surrogate escapes such as "\ud800" (decoded as
// U+FFFD, changing the text). path names n ("" for the top).
func documentProblems(data []byte, n *jsonnode.Node, path string, probs *report) {
	switch n.Kind {
	case jsonnode.String:
		if esc := loneSurrogate(data, int(n.Offset), int(n.End)); esc != "" {
			probs.add(path, "%s", surrogateMessage(esc, "text"))
		}
	case jsonnode.Array:
		for i := range n.Items {
			documentProblems(data, &n.Items[i], strictjson.Index(path, i), probs)
		}
	case jsonnode.Object:
		seen := make(map[string]int, len(n.Members))
		var dups map[string][]string // the values of each key given twice
		start := int(n.Offset) + 1
		for i := range n.Members {
			m := &n.Members[i]
			// Between the previous value and this one lie only white
			// space, a comma, this key and a colon.
			if esc := loneSurrogate(data, start, int(m.Value.Offset)); esc != "" {
				// Name the key as written, not as decoded.
				raw := strings.Trim(string(data[start:m.Value.Offset]), " \t\r\n,:")
				probs.add(path+"["+raw+"]", "%s", surrogateMessage(esc, "key"))
			}
			start = int(m.Value.End)
			seen[m.Key]++
			if seen[m.Key] == 2 {
				if dups == nil {
					dups = duplicates(n)
				}
				vals := dups[m.Key]
				probs.add(keyPath(path, m.Key), "duplicate key (given %d times: %s; give each key once)", len(vals), strings.Join(vals, ", "))
			}
			switch m.Value.Kind {
			case jsonnode.Array, jsonnode.Object:
				documentProblems(data, &m.Value, keyPath(path, m.Key), probs)
			case jsonnode.String:
				if esc := loneSurrogate(data, int(m.Value.Offset), int(m.Value.End)); esc != "" {
					probs.add(keyPath(path, m.Key), "%s", surrogateMessage(esc, "text"))
				}
			}
		}
	}
}

// duplicates lists, for each key given more than once in object n, the
// values given for it, in one pass over the object.
func duplicates(n *jsonnode.Node) map[string][]string {
	count := make(map[string]int, len(n.Members))
	for i := range n.Members {
		count[n.Members[i].Key]++
	}
	out := map[string][]string{}
	for i := range n.Members {
		if m := &n.Members[i]; count[m.Key] > 1 {
			out[m.Key] = append(out[m.Key], describe(&m.Value))
		}
	}
	return out
}

func surrogateMessage(esc, what string) string {
	return fmt.Sprintf("the %s contains %s, a lone UTF-16 surrogate escape, which is not a valid Unicode character (write the character itself, or a surrogate pair such as \\ud83d\\ude00)", what, esc)
}

// keyPath names member key of the value at path: path.key for keys that
// look like ids, path["key"] for others.
func keyPath(path, key string) string {
	if !validID(key) {
		return path + "[" + strconv.Quote(key) + "]"
	}
	return strictjson.Key(path, key)
}

// loneSurrogate returns the first \uXXXX escape in data[start:end] that is a
// surrogate not part of a pair, or "". The text is valid JSON (it parsed).
func loneSurrogate(data []byte, start, end int) string {
	if start < 0 || end > len(data) || start >= end {
		return ""
	}
	s := data[start:end]
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if i+1 < len(s) && s[i+1] != 'u' {
			i++ // a simple escape such as \\ or \"
			continue
		}
		r, ok := hexEscape(s, i)
		if !ok {
			continue
		}
		if !utf16.IsSurrogate(r) {
			i += 5
			continue
		}
		if r < 0xdc00 { // a high surrogate needs a low one next
			if r2, ok := hexEscape(s, i+6); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
				i += 11
				continue
			}
		}
		return string(s[i : i+6])
	}
	return ""
}

// hexEscape decodes the \uXXXX escape at s[i:].
func hexEscape(s []byte, i int) (rune, bool) {
	if i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
		return 0, false
	}
	v, err := strconv.ParseUint(string(s[i+2:i+6]), 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(v), true
}

// Document is an outside JSON document (answers, a tool's output, a
// response) decoded strictly, for the surfaces that read answers back.
type Document struct {
	// Value holds the document as plain values: map[string]any, []any,
	// string, float64, bool and nil. A number out of float64's range stays a
	// number that marshals as written and that Collect reports. When a key
	// is given twice the last wins here; Problems reports it.
	Value any
	data  []byte
	root  jsonnode.Node
}

// DecodeJSON decodes an outside JSON document: at most MaxInput bytes of
// UTF-8 holding an object (or, when arrayOK, an array). name says what it is
// in messages ("answers"). A document that cannot be decoded is an error
// (a problem.List).
func DecodeJSON(data []byte, name string, arrayOK bool) (*Document, error) {
	doc, probs := parseDocument(data, name, arrayOK)
	if probs != nil {
		return nil, probs
	}
	return &Document{Value: jsonValue(&doc.Root), data: doc.Data, root: doc.Root}, nil
}

// Problems lists what the plain values hide, in document order: keys given
// more than once (all but the last would be lost) and lone UTF-16 surrogate
// escapes such as "\ud800" (decoded as U+FFFD, changing the text). prefix
// names the document in the paths ("" for none: "a.b"; "answers":
// "answers.a.b").
func (d *Document) Problems(prefix string) problem.List {
	var probs report
	documentProblems(d.data, &d.root, prefix, &probs)
	return probs.problems()
}
