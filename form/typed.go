package form

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// What a person types as an answer (a line of a chat reply, a line at a
// terminal prompt) is read the same way on every text surface: labels match
// ignoring case, spacing, '-' and '_', numbers pick the options as Choices
// lists them (from 1) unless the options are themselves numbers (then a
// number names the option), yes/no words answer a boolean, dates may be
// written the ways people write them. The value returned is what Collect
// validates.

// Typed reads text typed as the answer to f. It returns the answer
// (a string, a []string for a multi-select, a float64 for a number), nil
// for no answer (nothing, or "-"), or a message saying what is wrong and
// what would be right.
func (f *Field) Typed(text string) (any, string) {
	s := strings.TrimSpace(text)
	if s == "" || s == "-" {
		return nil, ""
	}
	switch {
	case f.Type == MultiSelect:
		return f.typedMulti(s)
	case f.Type == Ranking:
		return f.typedRanking(s)
	case f.Type == Boolean:
		return typedBool(s)
	case f.Type.SingleChoice():
		// An option named like a none word (a triage ruling "skip") is
		// that option.
		if o, _ := matchLabel(f.Choices(), s); o != "" {
			return o, ""
		}
		if v, ok := noneWord(s); ok {
			return v, ""
		}
		return f.typedChoice(s)
	case f.Type == Number:
		return typedNumber(s)
	case f.Type == Date:
		return typedDate(s)
	case f.Type == TextInput:
		// A number picks a suggestion, unless the suggestions are numbers:
		// then it is the text itself.
		if n, ok := choiceNumber(s); ok && len(f.Choices()) > 0 && !NumberLabels(f.Choices()) {
			if n < 1 || n > len(f.Choices()) {
				return nil, fmt.Sprintf("%q is not one of the suggestion numbers (1-%d); write the text itself", s, len(f.Choices()))
			}
			return f.Choices()[n-1], ""
		}
		return s, ""
	}
	return strings.Trim(text, "\n\r"), "" // textarea: as written, inner lines kept
}

// noneWord reads "none" or "skip": no answer to a select.
func noneWord(s string) (any, bool) {
	switch normalize(s) {
	case "none", "skip", "nothing":
		return nil, true
	}
	return nil, false
}

// normalize folds what people get wrong when typing a label: case, white
// space, '-', '_', a trailing full stop, and the badges chat hosts add
// (StripBadges).
func normalize(s string) string {
	return Fold(strings.TrimRight(stripBadges(strings.TrimSpace(s)), ".!"))
}

// choiceNumber reads "2", "2.", "(2)", "#2", "2)" as 2.
func choiceNumber(s string) (int, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "#")
	s = strings.TrimPrefix(s, "(")
	s = strings.TrimRight(s, ".)")
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// matchLabel finds the option whose label s names, or "".
func matchLabel(opts []string, s string) (string, string) {
	return newLabels(opts).match(s)
}

// labels indexes options by their normalized label, so that reading an
// answer of many parts costs a look-up per part, not a pass over every
// option.
type labels struct {
	opts   []string
	byNorm map[string][]string // in option order
	// commas is the most commas a normalized label holds: a label of n
	// commas spans at most n+1 of an answer's comma-separated parts.
	commas int
	// numbers is NumberLabels(opts), once.
	numbers bool
}

func newLabels(opts []string) *labels {
	l := &labels{opts: opts, byNorm: make(map[string][]string, len(opts)), numbers: NumberLabels(opts)}
	for _, o := range opts {
		n := normalize(o)
		l.byNorm[n] = append(l.byNorm[n], o)
		l.commas = max(l.commas, strings.Count(n, ","))
	}
	return l
}

// match finds the option whose label s names, or "", and a message when s
// could name several.
func (l *labels) match(s string) (string, string) {
	found := l.byNorm[normalize(s)]
	switch len(found) {
	case 0:
		return "", ""
	case 1:
		return found[0], ""
	}
	// "Keep" beside "Keep (Recommended)": the option written as typed wins.
	t := strings.TrimSpace(s)
	if i := slices.Index(found, t); i >= 0 {
		return found[i], ""
	}
	if same := slices.DeleteFunc(slices.Clone(found), func(o string) bool { return !strings.EqualFold(o, t) }); len(same) == 1 {
		return same[0], ""
	}
	return "", fmt.Sprintf("%q could mean %s; write the number", s, quoteList(found, " or "))
}

// typedChoice reads one option: its number, its label, or "2 - label".
func (f *Field) typedChoice(s string) (any, string) {
	opts := f.Choices()
	switch o, msg := f.pickOne(newLabels(opts), s); {
	case msg != "":
		return nil, msg
	case o != "":
		return o, ""
	}
	return nil, fmt.Sprintf("%q is not one of the options (%s)", s, optionList(opts))
}

// pickOne reads one option of opts from s: a label, a number, or a number
// followed by its label. A label wins over a number, and when the options
// are themselves numbers (story points 1, 2, 3, 5, 8) a number only names
// the option with that label, never a place in the list: "5" is 5, not the
// fifth option. It returns "" and "" when s names no option.
func (f *Field) pickOne(l *labels, s string) (string, string) {
	opts := l.opts
	if o, msg := l.match(s); o != "" || msg != "" {
		return o, msg
	}
	numbers := l.numbers
	if n, ok := choiceNumber(s); ok {
		switch {
		case numbers:
			// "(5)", "#5": the option labelled 5, if there is one.
			if o, _ := l.match(strconv.Itoa(n)); o != "" {
				return o, ""
			}
			return "", fmt.Sprintf("%q is not one of the options (%s): %s", s, quoteList(opts, ", "), numbersNote)
		case n < 1 || n > len(opts):
			return "", fmt.Sprintf("%q is not one of the option numbers (1-%d)", s, len(opts))
		}
		return opts[n-1], ""
	}
	// "2. Refactor", "2 - Refactor", "2) Refactor": the number wins when
	// the label agrees with it or names nothing else (and must agree with
	// it when the options are numbers).
	if num, rest, ok := leadingNumber(s); ok && num >= 1 && num <= len(opts) {
		if _, isNum := choiceNumber(strings.Fields(rest)[0]); isNum {
			return "", "" // "4 1": two numbers, not a number and a label
		}
		if o, _ := l.match(rest); o == opts[num-1] || o == "" && !numbers {
			if numbers {
				return "", "" // "2. Other" where "2" is an option too
			}
			return opts[num-1], ""
		}
	}
	return "", ""
}

// numbersNote says why a number that is not a label picks nothing.
const numbersNote = "these options are numbers, so a number names the option itself, not its place in the list"

// NumberLabels reports whether any of opts is a number ("5", "0.5"): a
// typed number then names an option by its label, not by its place in
// the list, and the text surfaces do not number such options.
func NumberLabels(opts []string) bool {
	for _, o := range opts {
		t := strings.TrimSpace(o)
		if t == "" || strings.Trim(t, "0123456789.eE+-") != "" {
			continue
		}
		if _, err := strconv.ParseFloat(t, 64); err == nil {
			return true
		}
	}
	return false
}

// optionList lists opts for a message: numbered, or just quoted when the
// options are numbers themselves.
func optionList(opts []string) string {
	if NumberLabels(opts) {
		return quoteList(opts, ", ")
	}
	return numberedOptions(opts)
}

// leadingNumber splits "2. label" into 2 and "label".
func leadingNumber(s string) (int, string, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i == len(s) {
		return 0, "", false
	}
	rest := strings.TrimLeft(s[i:], " .):-–—")
	if rest == "" || rest == s[i:] && !strings.HasPrefix(s[i:], " ") {
		return 0, "", false // "2nd": not a number and a label
	}
	n, _ := strconv.Atoi(s[:i])
	return n, rest, true
}

// typedMulti reads several options: numbers and labels separated by commas
// (or semicolons, or spaces between numbers), "all", or "none".
func (f *Field) typedMulti(s string) (any, string) {
	opts := f.Choices()
	l := newLabels(opts)
	if o, _ := l.match(s); o != "" {
		return []string{o}, "" // one label, commas and all; "all" or "none" if an option is so named
	}
	switch normalize(s) {
	case "all", "everything":
		return slices.Clone(f.Options), ""
	case "none", "nothing", "skip":
		return nil, ""
	}
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' })
	chosen := map[string]bool{}
	var bad []string
	for i := 0; i < len(parts); i++ {
		part := strings.TrimSpace(parts[i])
		if part == "" {
			continue
		}
		// A label may itself contain commas: join the parts that make one.
		if j, o := joinedLabel(l, parts, i); o != "" {
			chosen[o] = true
			i = j
			continue
		}
		got, msg := f.multiPart(l, part)
		if msg != "" {
			bad = append(bad, msg)
			continue
		}
		for _, o := range got {
			chosen[o] = true
		}
	}
	if len(bad) > 0 {
		return nil, joinSome(bad) + " (options: " + optionList(opts) + ")"
	}
	var out []string
	for _, o := range f.Options {
		if chosen[o] {
			out = append(out, o)
		}
	}
	if len(out) == 0 {
		return nil, ""
	}
	return out, ""
}

// joinedLabel looks for an option spelled by parts[i..j] joined with
// commas, j > i, the longest first; it returns j and the option, or "". A
// label of n commas joins n+1 parts, so no more are tried: the parts hold
// no comma of their own.
func joinedLabel(l *labels, parts []string, i int) (int, string) {
	for j := min(len(parts)-1, i+l.commas); j > i; j-- {
		if o, _ := l.match(strings.Join(parts[i:j+1], ",")); o != "" {
			return j, o
		}
	}
	return i, ""
}

// multiPart reads one comma-separated part: an option, or numbers separated
// by spaces ("1 3"), each read as pickOne reads it.
func (f *Field) multiPart(l *labels, part string) ([]string, string) {
	words := strings.Fields(part)
	if o, _ := l.match(part); o != "" || len(words) == 1 || !allNumbers(words) {
		switch o, msg := f.pickOne(l, part); {
		case msg != "":
			return nil, msg
		case o == "":
			return nil, fmt.Sprintf("%q is not one of the options", part)
		default:
			return []string{o}, ""
		}
	}
	var out []string
	for _, w := range words {
		o, msg := f.pickOne(l, w)
		if msg != "" {
			return nil, msg
		}
		out = append(out, o)
	}
	return out, ""
}

func allNumbers(words []string) bool {
	for _, w := range words {
		if _, ok := choiceNumber(w); !ok {
			return false
		}
	}
	return true
}

// numberedOptions lists options as `1 "a", 2 "b"`.
func numberedOptions(opts []string) string {
	parts := make([]string, len(opts))
	for i, o := range opts {
		parts[i] = fmt.Sprintf("%d %q", i+1, o)
	}
	return strings.Join(parts, ", ")
}

var yesWords = []string{"yes", "y", "true", "ok", "okay", "sure", "yep", "yeah", "ja", "oui", "si"}
var noWords = []string{"no", "n", "false", "nope", "nah", "nein", "non"}

func typedBool(s string) (any, string) {
	w := normalize(s)
	switch {
	case slices.Contains(yesWords, w):
		return "Yes", ""
	case slices.Contains(noWords, w):
		return "No", ""
	case w == "skip" || w == "none":
		return nil, ""
	}
	return nil, fmt.Sprintf("%q is not yes or no (answer yes or no)", s)
}

func typedNumber(s string) (any, string) {
	t := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || r == '_' || r == '\'' {
			return -1
		}
		return r
	}, s)
	t = thousands(t)
	plain := strings.Trim(t, "0123456789.eE+-") == "" // no "Inf", "NaN" or hex
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || !plain || math.IsInf(n, 0) {
		return nil, fmt.Sprintf("%q is not a number (write digits, e.g. 12 or 2.5)", s)
	}
	if !keeps(t, n) {
		return nil, inexactMessage(t, n)
	}
	return n, ""
}

// thousands drops commas that separate groups of three digits: "1,000.5".
func thousands(s string) string {
	if !strings.Contains(s, ",") {
		return s
	}
	intPart, frac, _ := strings.Cut(s, ".")
	groups := strings.Split(strings.TrimPrefix(intPart, "-"), ",")
	for i, g := range groups {
		if g == "" || len(g) > 3 || i > 0 && len(g) != 3 {
			return s
		}
	}
	out := strings.ReplaceAll(intPart, ",", "")
	if frac != "" || strings.HasSuffix(s, ".") {
		out += "." + frac
	}
	return out
}

// dateLayouts are the ways people write a date, after commas are dropped
// and white space is collapsed; month names match in any case.
var dateLayouts = []string{
	"2006-1-2", "2006/1/2", "2006.1.2",
	"2 Jan 2006", "2 January 2006", "Jan 2 2006", "January 2 2006",
}

func typedDate(s string) (any, string) {
	t := strings.Join(strings.Fields(strings.ReplaceAll(s, ",", " ")), " ")
	t = strings.TrimSuffix(strings.TrimSuffix(t, "."), " ")
	for _, layout := range dateLayouts {
		if d, err := time.Parse(layout, t); err == nil {
			return d.Format(time.DateOnly), ""
		}
	}
	// Real layouts failed: say whether it is the day or the form.
	parts := strings.Split(strings.NewReplacer("/", "-", ".", "-").Replace(t), "-")
	if len(parts) == 3 && allDigits(parts) {
		if len(parts[0]) == 4 {
			return nil, fmt.Sprintf("%q is not a real calendar date", s)
		}
		if len(parts[2]) == 4 {
			// 03/09/2026: the day and month order is anyone's guess.
			var could []string
			for _, md := range [][2]string{{parts[0], parts[1]}, {parts[1], parts[0]}} {
				if d, err := time.Parse(time.DateOnly, fmt.Sprintf("%s-%02s-%02s", parts[2], md[0], md[1])); err == nil {
					if c := d.Format(time.DateOnly); !slices.Contains(could, c) {
						could = append(could, c)
					}
				}
			}
			if len(could) > 0 {
				return nil, fmt.Sprintf("%q is not in the YYYY-MM-DD format: write %s", s, strings.Join(could, " or "))
			}
		}
	}
	return nil, fmt.Sprintf("%q is not a date (write YYYY-MM-DD, e.g. 2026-01-05)", s)
}

func allDigits(parts []string) bool {
	for _, p := range parts {
		if p == "" || strings.ContainsFunc(p, func(r rune) bool { return r < '0' || r > '9' }) {
			return false
		}
	}
	return true
}

// joinSome joins at most listedMax of the messages about an answer's
// parts, then says how many more there were: a long list of wrong parts
// is one problem, not a megabyte.
func joinSome(msgs []string) string {
	if len(msgs) <= listedMax {
		return strings.Join(msgs, "; ")
	}
	return fmt.Sprintf("%s; … %d more", strings.Join(msgs[:listedMax], "; "), len(msgs)-listedMax)
}
