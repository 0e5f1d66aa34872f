package strictjson

import (
	"fmt"
	"unicode/utf8"

	"github.com/elicit/elicit/internal/jsonnode"
)

// Style is how Describe words a value.
type Style uint8

const (
	// Noun names a value as a noun phrase, for "is X, want Y": a string
	// ("x"), a number (5), a boolean (true), an array, an object, null.
	Noun Style = iota
	// Terse names a value for "(got X)": string "x", number 5, boolean
	// true, array of 3, object, null.
	Terse
)

// quoteMax is how many characters of a string a description quotes.
const quoteMax = 40

// Describe names a JSON value for a message, in JSON terms: its kind and,
// for a scalar, the value (a string's first 40 characters).
func Describe(n *jsonnode.Node, s Style) string {
	switch n.Kind {
	case jsonnode.String:
		text := n.Text
		if utf8.RuneCountInString(text) > quoteMax {
			text = string([]rune(text)[:quoteMax]) + "…"
		}
		if s == Terse {
			return fmt.Sprintf("string %q", text)
		}
		return fmt.Sprintf("a string (%q)", text)
	case jsonnode.Number:
		if s == Terse {
			return "number " + n.Text
		}
		return "a number (" + n.Text + ")"
	case jsonnode.Bool:
		if s == Terse {
			return fmt.Sprintf("boolean %t", n.True)
		}
		return fmt.Sprintf("a boolean (%t)", n.True)
	case jsonnode.Array:
		if s == Terse {
			return fmt.Sprintf("array of %d", len(n.Items))
		}
		return "an array"
	case jsonnode.Object:
		if s == Terse {
			return "object"
		}
		return "an object"
	}
	return "null"
}
