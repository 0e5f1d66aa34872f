package method

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/elicit/elicit/internal/visible"
	"github.com/elicit/elicit/problem"
)

// Column positions in a registry row.
const (
	colNum = iota
	colCategory
	colName
	colDescription
	colPattern
	colTier
	colPhases
	colAgents
	colTopics
	colAutoSuggest
	colCodexRole
)

// columnName is the name of column i, for messages.
func columnName(i int) string { return strings.Split(Header, ",")[i] }

// rowCheck collects the warnings of one row; any skip-the-row problem sets
// skip.
type rowCheck struct {
	line int
	name string // method_name as messages show it
	w    *problem.List
	skip bool
}

func (c *rowCheck) fail(format string, args ...any) {
	c.warn(format, args...)
	c.skip = true
}

func (c *rowCheck) warn(format string, args ...any) { c.w.Add(rowPath(c.line), format, args...) }

// readRow turns a record into a method, reporting every problem of the row
// in w under the header's expected column count. It returns false when the
// row must be skipped.
func readRow(rec record, expected string, w *problem.List) (Method, bool) {
	if rec.bad != "" {
		w.Add(rowPath(rec.line), "Row %d has malformed quoting (%s), skipping row: %s", rec.line, rec.bad, first80(rec.raw))
		return Method{}, false
	}
	if n := len(rec.fields); n != 10 && n != 11 {
		w.Add(rowPath(rec.line), "Row %d has %d columns (expected %s): %s", rec.line, n, expected, first80(rec.raw))
		return Method{}, false
	}
	f := rec.fields
	for i, v := range f {
		f[i] = strings.TrimSpace(v)
	}
	c := &rowCheck{line: rec.line, name: printable(f[colName]), w: w}
	c.required(f)
	m := Method{
		Num:           c.num(f[colNum]),
		Category:      c.category(f[colCategory]),
		Name:          c.methodName(f[colName]),
		Description:   c.description(f[colDescription]),
		OutputPattern: c.pattern(f[colPattern]),
		Tier:          c.tier(f[colTier]),
		Phases:        c.phases(f[colPhases]),
		Agents:        c.agents(f[colAgents]),
		Topics:        c.topics(f[colTopics]),
	}
	m.AutoSuggest = c.autoSuggest(f[colAutoSuggest], m.Tier)
	if len(f) == 11 {
		m.CodexRole = c.codexRole(f[colCodexRole])
	}
	return m, !c.skip
}

// index fills the lowercase copies scoring works on.
func (m *Method) index() {
	m.keys = lowerAll(m.Topics)
	m.nameWords = phrase(m.Name)
}

// lowerAll returns list lowercased: list itself when it is lowercase already.
func lowerAll(list []string) []string {
	out := list
	for i, t := range list {
		if lower := strings.ToLower(t); lower != t {
			if &out[0] == &list[0] { // still shared: copy before writing
				out = append([]string(nil), list...)
			}
			out[i] = lower
		}
	}
	return out
}

// required reports empty required columns (all but agents and codex_role).
func (c *rowCheck) required(f []string) {
	for i, v := range f {
		if v == "" && i != colAgents && i != colCodexRole {
			c.fail("Row %d is missing required field %s — skipping row", c.line, columnName(i))
		}
	}
}

func (c *rowCheck) num(v string) int {
	n, err := strconv.Atoi(v)
	if v != "" && (err != nil || n < 1 || !allDigits(v)) {
		c.fail("Invalid num '%s' for method %s — must be a positive whole number, skipping row", printable(v), c.name)
	}
	return n
}

func (c *rowCheck) category(v string) string {
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			c.fail("Invalid category '%s' for method %s — lowercase letters, digits, '-' and '_' only, skipping row",
				printable(v), c.name)
			break
		}
	}
	return v
}

// methodName applies the seed's sanitizing rule, ^[a-zA-Z0-9 '\-]+$, and
// refuses the names it lets through that could not be told apart: one
// without a letter or digit (its slug, all hyphens, would name its files)
// and a number (a lookup reads a number as a num).
func (c *rowCheck) methodName(v string) string {
	switch {
	case !validName(v):
		c.fail("Invalid method_name '%s' — contains disallowed characters, skipping row", printable(v))
	case v == "":
	case strings.IndexFunc(v, isAlnum) < 0:
		c.fail("Invalid method_name '%s' — needs a letter or digit (its slug '%s' would name no file apart), skipping row", v, strings.Map(slugRune, v))
	case readsAsNum(v):
		c.fail("Invalid method_name '%s' — a number reads as a method num, so the name could never be looked up; skipping row", v)
	}
	return v
}

// readsAsNum reports whether Lookup would read name as a num.
func readsAsNum(name string) bool {
	if !allDigits(strings.TrimPrefix(name, "-")) {
		return false // Atoi's error not made for every name
	}
	_, err := strconv.Atoi(name)
	return err == nil
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// description is the description column on one line. Control characters
// (ESC starts terminal escape sequences) are written as escapes (\x1b, as
// visible.Line writes them) and bytes that are not UTF-8 as U+FFFD, with a
// warning: the row is kept, and what prints it shows them rather than a
// terminal obeying them.
func (c *rowCheck) description(v string) string {
	v = strings.Join(strings.Fields(v), " ")
	for _, r := range v {
		if visible.IsControl(r) {
			c.warn("Method %s has a control character in description, %s — shown escaped; remove it", c.name, visible.Name(r))
			return visible.Line(v)
		}
	}
	if !utf8.ValidString(v) {
		c.warn("Method %s has bytes that are not UTF-8 in description — shown as U+FFFD; save the registry as UTF-8", c.name)
		return visible.Line(v)
	}
	return v
}

func (c *rowCheck) pattern(v string) string {
	if v == "" {
		return v
	}
	if _, err := Steps(v); err != nil {
		c.fail("Invalid output_pattern '%s' for method %s — %v, skipping row", printable(v), c.name, err)
	}
	return v
}

func (c *rowCheck) tier(v string) int {
	switch v {
	case "1":
		return 1
	case "2":
		return 2
	case "":
		return 0
	}
	c.fail("Invalid tier '%s' for method %s — skipping row", printable(v), c.name)
	return 0
}

func (c *rowCheck) phases(v string) []string {
	items := splitList(v)
	out := items[:0] // never nil: an empty list is [], not null
	for _, p := range items {
		if !ValidPhase(p) {
			c.warn("Invalid phase '%s' for method %s — skipping that phase", printable(p), c.name)
			continue
		}
		out = appendNew(out, p)
	}
	if len(v) > 0 && len(out) == 0 {
		c.fail("Method %s has no valid phase entries — skipping row", c.name)
	}
	return out
}

func (c *rowCheck) agents(v string) []string {
	items := splitList(v)
	out := items[:0] // never nil: an empty list is [], not null
	for _, a := range items {
		if !validAgent(a) {
			c.warn("Invalid agent '%s' for method %s — skipping that agent", printable(a), c.name)
			continue
		}
		out = appendNew(out, a)
	}
	if len(v) > 0 && len(out) == 0 {
		// Dropping every agent would widen the method to all agents.
		c.fail("Method %s has no valid agent entries — skipping row", c.name)
	}
	return out
}

func (c *rowCheck) topics(v string) []string {
	items := splitList(v)
	out := items[:0] // never nil: an empty list is [], not null
	for _, t := range items {
		if !validTopic(t) {
			c.warn("Invalid topic '%s' for method %s — a topic is one keyword (letters, digits, inner hyphens; no stopword), skipping that topic",
				printable(t), c.name)
			continue
		}
		out = appendNew(out, t)
	}
	if len(v) > 0 && len(out) == 0 {
		c.fail("Method %s has no valid topics — skipping row", c.name)
	}
	return out
}

// autoSuggest must be true exactly for tier 1: the tier filter reads it, so a
// disagreement would silently change what auto mode offers.
func (c *rowCheck) autoSuggest(v string, tier int) bool {
	b, err := strconv.ParseBool(strings.ToLower(v))
	if v == "" || tier == 0 {
		return b
	}
	if want := tier == 1; err != nil || b != want {
		c.fail("Invalid auto_suggest '%s' for method %s — tier %d needs %t, skipping row", printable(v), c.name, tier, want)
	}
	return b
}

func (c *rowCheck) codexRole(v string) string {
	switch v {
	case "", "red_team", "failure", "critic":
		return v
	}
	c.warn("Invalid codex_role '%s' for method %s — treated as empty (no Codex)", printable(v), c.name)
	return ""
}

// ValidPhase reports whether p has the form command:number, as plan:0 or
// arc:7.5: a lowercase command ([a-z][a-z0-9_-]*) and a number with an
// optional fraction.
func ValidPhase(p string) bool {
	cmd, num, ok := strings.Cut(p, ":")
	if !ok || cmd == "" || !(cmd[0] >= 'a' && cmd[0] <= 'z') {
		return false
	}
	for _, r := range cmd {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	whole, frac, dot := strings.Cut(num, ".")
	return allDigits(whole) && (!dot || allDigits(frac))
}

func validAgent(a string) bool {
	for i, r := range a {
		alnum := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if !alnum && (i == 0 || r != '-' && r != '_') {
			return false
		}
	}
	return a != ""
}

// validTopic reports whether t is one keyword as Keywords extracts them.
func validTopic(t string) bool { return isKeyword(t) }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// splitList splits a comma-separated list, trimming items and dropping empty
// ones. The result is never nil.
func splitList(v string) []string {
	out := make([]string, 0, strings.Count(v, ",")+1)
	for p := range strings.SplitSeq(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func appendNew(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

// printable replaces control characters so that a value quoted in a warning
// stays on one line.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
}

// first80 is the first 80 characters of a row, on one line.
func first80(raw string) string {
	raw = printable(raw)
	if utf8.RuneCountInString(raw) <= 80 {
		return raw
	}
	return string([]rune(raw)[:80])
}
