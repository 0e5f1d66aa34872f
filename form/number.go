package form

import (
	"fmt"
	"strconv"
	"strings"
)

// A number answer is a float64, which keeps about 15 to 17 significant
// decimal digits. A decimal written with more than it keeps
// (9007199254740993, 123456789012345678901234567890) would be stored as
// another number without a word; every reader of outside numbers (JSON
// answers and responses, typed replies, form definitions) refuses such a
// number instead, naming it and what it would have become.

// exactDigits is how many significant digits every float64 keeps.
const exactDigits = 15

// parseExact reads decimal text (a JSON number, or typed digits with the
// grouping already removed) as a float64. It returns the message saying
// what is wrong when the text is no finite number within float64's range,
// or names a number float64 cannot keep exactly.
func parseExact(text string) (float64, string) {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, rangeMessage(text)
	}
	if keeps(text, f) {
		return f, ""
	}
	return 0, inexactMessage(text, f)
}

// inexactMessage says that text cannot be kept as a number: it would
// become f.
func inexactMessage(text string, f float64) string {
	if f == 0 {
		return fmt.Sprintf("%s is too close to zero to keep as a number (it would become 0): write 0 or a number further from zero", text)
	}
	return fmt.Sprintf("%s has more digits than a number keeps exactly (it would become %s): write at most %d significant digits", text, fmtNum(f), exactDigits)
}

// keeps reports whether f is exactly the decimal text names: whether the
// shortest decimal that reads back as f is the same number as text.
func keeps(text string, f float64) bool {
	want, ok := decimal(text)
	if !ok {
		return false
	}
	got, _ := decimal(strconv.FormatFloat(f, 'e', -1, 64))
	return want == got
}

// decimal writes the number decimal text names in one canonical form: its
// sign, significant digits (no leading or trailing zeros) and the exponent
// of 0.d1d2..., "0" for zero of either sign. ok is false for text that is
// not a plain decimal or whose exponent does not fit an int.
func decimal(text string) (string, bool) {
	s := text
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return "", false
		}
		exp, s = e, s[:i]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart+frac == "" || strings.Trim(intPart+frac, "0123456789") != "" {
		return "", false
	}
	digits := intPart + frac
	exp += len(intPart)
	trimmed := strings.TrimLeft(digits, "0")
	exp -= len(digits) - len(trimmed)
	trimmed = strings.TrimRight(trimmed, "0")
	if trimmed == "" {
		return "0", true
	}
	sign := ""
	if neg {
		sign = "-"
	}
	return fmt.Sprintf("%s0.%se%d", sign, trimmed, exp), true
}
