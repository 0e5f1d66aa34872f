package method

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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

var columnNames = strings.Split(Header, ",")

// rowCheck collects the warnings of one row; any skip-the-row problem sets
// skip.
type rowCheck struct {
	path string
	line int
	name string // printable method_name, for messages
	w    *problem.List
	skip bool
	// lists is a shared backing array for the row's phases, agents and
	// topics, to save allocations.
	lists *[]string
}

func (c *rowCheck) fail(format string, args ...any) {
	c.w.Add(c.path, format, args...)
	c.skip = true
}

func (c *rowCheck) warn(format string, args ...any) { c.w.Add(c.path, format, args...) }

// parseRow turns a record into a method, reporting every problem of the row.
// It returns false when the row must be skipped.
func parseRow(rec record, w *problem.List, lists *[]string) (Method, bool) {
	path := rowPath(rec.line)
	if rec.bad != "" {
		w.Add(path, "Row %d has malformed quoting (%s), skipping row: %s", rec.line, rec.bad, first80(rec.raw))
		return Method{}, false
	}
	if n := len(rec.fields); n != 10 && n != 11 {
		w.Add(path, "Row %d has %d columns (expected 10): %s", rec.line, n, first80(rec.raw))
		return Method{}, false
	}
	f := trimAll(rec.fields)
	c := &rowCheck{path: path, line: rec.line, name: printable(f[colName]), w: w, lists: lists}
	c.required(f)
	m := Method{
		Num:           c.num(f[colNum]),
		Category:      c.category(f[colCategory]),
		Name:          c.methodName(f[colName]),
		Description:   oneLine(f[colDescription]),
		OutputPattern: c.pattern(f[colPattern]),
		Tier:          c.tier(f[colTier]),
	}
	m.Phases = c.phases(f[colPhases])
	m.Agents = c.agents(f[colAgents])
	m.Topics = c.topics(f[colTopics])
	m.AutoSuggest = c.autoSuggest(f[colAutoSuggest], m.Tier)
	if len(f) == 11 {
		m.CodexRole = c.codexRole(f[colCodexRole])
	}
	if c.skip {
		return Method{}, false
	}
	m.index()
	return m, true
}

// index fills the lowercase copies scoring works on.
func (m *Method) index() {
	m.keys = m.Topics
	for i, t := range m.Topics {
		if lower := strings.ToLower(t); lower != t {
			if &m.keys[0] == &m.Topics[0] { // still shared: copy before writing
				m.keys = append([]string(nil), m.Topics...)
			}
			m.keys[i] = lower
		}
	}
	m.nameWords = phrase(m.Name)
}

// required reports empty required columns (all but agents and codex_role).
func (c *rowCheck) required(f []string) {
	for i, v := range f {
		if v == "" && i != colAgents && i != colCodexRole {
			c.fail("Row %d is missing required field %s — skipping row", c.line, columnNames[i])
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

// methodName applies the seed's sanitizing rule: ^[a-zA-Z0-9 '\-]+$.
func (c *rowCheck) methodName(v string) string {
	if strings.IndexFunc(v, badNameRune) >= 0 {
		c.fail("Invalid method_name '%s' — contains disallowed characters, skipping row", printable(v))
	}
	return v
}

func (c *rowCheck) pattern(v string) string {
	if v == "" {
		return v
	}
	if err := checkSteps(v); err != nil {
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
	all := c.splitList(v)
	out := all[:0]
	for _, p := range all {
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
	all := c.splitList(v)
	out := all[:0]
	for _, a := range all {
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
	all := c.splitList(v)
	out := all[:0]
	for _, t := range all {
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
// ones. The items are appended to c.lists and the result is capped there.
func (c *rowCheck) splitList(v string) []string {
	start := len(*c.lists)
	for p := range strings.SplitSeq(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*c.lists = append(*c.lists, p)
		}
	}
	end := len(*c.lists)
	return (*c.lists)[start:end:end]
}

func appendNew(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

// trimAll trims every field in place and returns them.
func trimAll(fields []string) []string {
	for i, f := range fields {
		fields[i] = strings.TrimSpace(f)
	}
	return fields
}

// oneLine collapses runs of white space, line breaks included, to one space.
func oneLine(s string) string {
	if plainASCII(s) && !strings.Contains(s, "  ") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// printable replaces control characters so that a value quoted in a warning
// stays on one line.
func printable(s string) string {
	if plainASCII(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
}

// plainASCII reports whether s is printable ASCII only.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// first80 is the first 80 characters of a row, on one line.
func first80(raw string) string {
	raw = printable(raw)
	if utf8.RuneCountInString(raw) <= 80 {
		return raw
	}
	return string([]rune(raw)[:80])
}
