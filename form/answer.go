package form

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"
)

// dateShaped reports whether s looks like YYYY-MM-DD: ASCII digits with
// dashes after the fourth and the sixth (`^\d{4}-\d{2}-\d{2}$`, in plain code so that
// nothing is compiled at package initialisation).
func dateShaped(s string) bool {
	if len(s) != len("2006-01-02") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if dash := i == 4 || i == 7; dash != (s[i] == '-') || !dash && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

// answerProblem is one thing wrong with an answer: at names an item inside
// it ("[0]") or is empty for the answer as a whole.
type answerProblem struct{ at, msg string }

// Accepts reports whether v is an answer f takes, by collect's rules (no
// answer counts as one; whether f needs one is collect's to say).
func (f *Field) Accepts(v any) bool {
	_, bad := checkAnswer(f, v)
	return len(bad) == 0
}

// checkAnswer validates one answer against its field. It returns the
// normalized value (string, []string or float64), nil for "no answer", or
// problems saying what is wrong and what would be right.
func checkAnswer(f *Field, v any) (any, []answerProblem) {
	if isNoAnswer(v) {
		return nil, nil
	}
	switch f.Type {
	case MultiSelect:
		return checkMulti(f, v)
	case Triage, AssumptionReview:
		return checkRulings(f, v)
	case Ranking:
		return checkRankingAnswer(f, v)
	}
	val, msg := checkValue(f, v)
	if msg != "" {
		return nil, []answerProblem{{msg: msg}}
	}
	return val, nil
}

// checkValue validates an answer to a field that is not a multi-select.
func checkValue(f *Field, v any) (any, string) {
	switch {
	case f.Type.SingleChoice():
		return checkChoice(f, v)
	case f.Type == Boolean:
		if s, ok := v.(string); ok && (s == "Yes" || s == "No") {
			return s, ""
		}
		return nil, fmt.Sprintf("must be \"Yes\" or \"No\" (got %s)", DescribeValue(v))
	case f.Type == Number:
		return checkNumber(f, v)
	case f.Type == Date:
		return checkDate(v)
	case f.IsPath():
		return checkPath(f, v)
	}
	return checkText(f, v)
}

// isNoAnswer reports whether v counts as unanswered: null, a string of
// white space only, an empty list or an empty object.
func isNoAnswer(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	case []any:
		return len(x) == 0
	case []string:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	case map[string]string:
		return len(x) == 0
	}
	return false
}

func checkChoice(f *Field, v any) (any, string) {
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Sprintf("must be one of the options as a string (got %s)", DescribeValue(v))
	}
	if !contains(f.Options, s) {
		return nil, fmt.Sprintf("%q is not one of the options (%s)", s, quoteSome(f.Options, ", "))
	}
	return s, ""
}

// anyList accepts a []any or a []string as a []any.
func anyList(v any) ([]any, bool) {
	if items, ok := v.([]string); ok {
		list := make([]any, len(items))
		for i, s := range items {
			list[i] = s
		}
		return list, true
	}
	list, ok := v.([]any)
	return list, ok
}

func checkMulti(f *Field, v any) (any, []answerProblem) {
	list, ok := anyList(v)
	if !ok {
		return nil, []answerProblem{{msg: fmt.Sprintf("must be a list of options (got %s)", DescribeValue(v))}}
	}
	var probs []answerProblem
	var bad, dups []string
	items := make([]string, 0, len(list))
	seen := make(map[string]bool, len(list))
	isOption := memberOf(f.Options)
	for i, e := range list {
		s, ok := e.(string)
		switch {
		case !ok:
			probs = append(probs, answerProblem{at: fmt.Sprintf("[%d]", i), msg: fmt.Sprintf("must be one of the options as a string (got %s)", DescribeValue(e))})
			continue
		case seen[s]:
			dups = append(dups, s)
		case !isOption(s):
			bad = append(bad, s)
		}
		seen[s] = true
		items = append(items, s)
	}
	var msgs []string
	if len(bad) > 0 {
		msgs = append(msgs, fmt.Sprintf("%s not among the options (%s)", quoteSome(bad, ", "), quoteSome(f.Options, ", ")))
	}
	if len(dups) > 0 {
		msgs = append(msgs, fmt.Sprintf("%s chosen more than once", quoteSome(dups, ", ")))
	}
	if len(msgs) > 0 {
		probs = append(probs, answerProblem{msg: strings.Join(msgs, "; ")})
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return items, nil
}

// stringList accepts []string or a []any of strings.
func stringList(v any) ([]string, bool) {
	switch x := v.(type) {
	case []string:
		return x, true
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, false
			}
			out[i] = s
		}
		return out, true
	}
	return nil, false
}

func checkNumber(f *Field, v any) (any, string) {
	switch x := v.(type) {
	case bigNumber:
		_, msg := parseExact(string(x))
		return nil, msg
	case json.Number:
		if _, msg := parseExact(string(x)); msg != "" {
			return nil, msg
		}
	}
	n, ok := toFloat(v)
	if !ok {
		return nil, fmt.Sprintf("must be a number (got %s)", DescribeValue(v))
	}
	switch {
	case math.IsNaN(n) || math.IsInf(n, 0):
		return nil, fmt.Sprintf("%v is not a finite number", n)
	case f.Minimum != nil && n < *f.Minimum:
		return nil, fmt.Sprintf("%s is below the minimum %s", fmtNum(n), fmtNum(*f.Minimum))
	case f.Maximum != nil && n > *f.Maximum:
		return nil, fmt.Sprintf("%s is above the maximum %s", fmtNum(n), fmtNum(*f.Maximum))
	}
	return n, ""
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

func checkDate(v any) (any, string) {
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Sprintf("must be a date string YYYY-MM-DD (got %s)", DescribeValue(v))
	}
	if !dateShaped(s) {
		return nil, fmt.Sprintf("%q is not a date in the form YYYY-MM-DD (zero-padded, e.g. 2026-01-05)", s)
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		return nil, fmt.Sprintf("%q is not a real calendar date", s)
	}
	return s, ""
}

func checkText(f *Field, v any) (any, string) {
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Sprintf("must be a string (got %s)", DescribeValue(v))
	}
	if n := utf8.RuneCountInString(s); f.MaxLength > 0 && n > f.MaxLength {
		return nil, fmt.Sprintf("is %d characters, over max_length %d", n, f.MaxLength)
	}
	return s, ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// DescribeValue names an answer value for an error message: `string "x"`,
// `number 3`, `a list`.
func DescribeValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if utf8.RuneCountInString(x) > 40 {
			x = string([]rune(x)[:40]) + "…"
		}
		return fmt.Sprintf("string %q", x)
	case bool:
		return fmt.Sprintf("boolean %t", x)
	case float64:
		return "number " + fmtNum(x)
	case float32, int, int64, json.Number, bigNumber:
		return fmt.Sprintf("number %v", x)
	case []any, []string:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
