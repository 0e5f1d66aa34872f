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
	name printableName // method_name, for messages
	w    *problem.List
	skip bool
	p    *parser // the block of list items, the row's values (parser.vals)
}

func (c *rowCheck) fail(format string, args ...any) {
	c.warn(format, args...)
	c.skip = true
}

func (c *rowCheck) warn(format string, args ...any) { c.w.Add(rowPath(c.line), format, args...) }

// row turns a record into the method m (a zero Method, in place so that
// nothing is copied), reporting every problem of the row, and returns its
// slug, valid until the next row. It returns false when the row must be
// skipped.
func (p *parser) row(rec record, m *Method) ([]byte, bool) {
	w := &p.r.Warnings
	if rec.bad != "" {
		w.Add(rowPath(rec.line), "Row %d has malformed quoting (%s), skipping row: %s", rec.line, rec.bad, first80(string(rec.raw)))
		return nil, false
	}
	if n := len(rec.fields); n != 10 && n != 11 {
		w.Add(rowPath(rec.line), "Row %d has %d columns (expected %s): %s", rec.line, n, p.expected, first80(string(rec.raw)))
		return nil, false
	}
	var fields [colCodexRole + 1]string // on the stack: storing into it needs no write barrier
	f := p.strings(fields[:0], rec.fields)
	c := &rowCheck{line: rec.line, name: printableName(f[colName]), w: w, p: p}
	c.required(f)
	m.Num = c.num(f[colNum])
	m.Category = c.checked(colCategory, f[colCategory], c.category)
	m.Name = c.methodName(f[colName])
	m.Description = c.description(f[colDescription])
	m.OutputPattern = c.checked(colPattern, f[colPattern], c.pattern)
	m.Tier = c.tier(f[colTier])
	m.Phases = c.list(colPhases, f[colPhases], c.phases)
	m.Agents = c.list(colAgents, f[colAgents], c.agents)
	m.Topics = c.list(colTopics, f[colTopics], c.topics)
	m.AutoSuggest = c.autoSuggest(f[colAutoSuggest], m.Tier)
	if len(f) == 11 {
		m.CodexRole = c.codexRole(f[colCodexRole])
	}
	if c.skip {
		return nil, false
	}
	if x := p.vals[colTopics]; x != nil && x.clean {
		if x.keys == nil {
			x.keys = lowerAll(x.list)
		}
		m.keys = m.Topics // lowercase already
		if len(x.keys) > 0 && &x.keys[0] != &x.list[0] {
			m.keys = x.keys // shared, never written
		}
	} else {
		m.keys = lowerAll(m.Topics)
	}
	m.nameWords = p.nameWords
	return p.slug, true
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

// list reads a list column (phases, agents, topics) with parse. A value met
// before without a warning is not parsed again: its items are copied into
// the row's block.
func (c *rowCheck) list(col int, v string, parse func(string) []string) []string {
	x := c.p.vals[col]
	if x != nil && x.clean {
		return c.p.appendList(x.list)
	}
	warned, skip := len(*c.w), c.skip
	out := parse(v)
	if x != nil && len(*c.w) == warned && c.skip == skip {
		x.clean, x.list = true, out
	}
	return out
}

// checked runs check on the value of column col unless the value was
// checked before without a warning.
func (c *rowCheck) checked(col int, v string, check func(string) string) string {
	x := c.p.vals[col]
	if x != nil && x.clean {
		return v
	}
	warned, skip := len(*c.w), c.skip
	v = check(v)
	if x != nil && len(*c.w) == warned && c.skip == skip {
		x.clean = true
	}
	return v
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
		return false // no error to allocate
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
	if singleSpaced(v) {
		return v
	}
	v = oneLine(v)
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
// ones. The items are appended to the block c.lists and the result is capped
// there. A full block is not grown but replaced by a fresh one (the list so
// far moves over), so the lists of a large registry take about their own
// size rather than the twice that doubling would allocate.
func (c *rowCheck) splitList(v string) []string {
	l := c.p.lists
	start := len(l)
	for p := range strings.SplitSeq(v, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if len(l) == cap(l) {
			block := make([]string, 0, max(min(2*cap(l), maxListBlock), minListBlock, 2*(len(l)-start)))
			l, start = append(block, l[start:]...), 0
		}
		l = append(l, p)
	}
	c.p.lists = l
	return l[start:len(l):len(l)]
}

// appendList copies list into the block of list items and returns the copy.
func (p *parser) appendList(list []string) []string {
	l := p.lists
	if len(l)+len(list) > cap(l) {
		l = make([]string, 0, max(min(2*cap(l), maxListBlock), minListBlock, len(list)))
	}
	start := len(l)
	l = append(l, list...)
	p.lists = l
	return l[start:len(l):len(l)]
}

// Sizes of the blocks list items are kept in: small for small registries,
// up to 4,096 items (64 KiB) each.
const (
	minListBlock = 64
	maxListBlock = 4096
)

func appendNew(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

// oneLine collapses runs of white space, line breaks included, to one space.
func oneLine(s string) string {
	if singleSpaced(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// singleSpaced reports whether s is printable ASCII (' ' to '~') without two
// spaces in a row, looking at sixteen bytes at a time, then eight, then one.
func singleSpaced(s string) bool {
	i, spaceBefore := 0, false
	for ; i+16 <= len(s); i += 16 { // two words at a time: half the branches
		x, y := word(s[i:i+8]), word(s[i+8:i+16])
		if !printableWord(x) || !printableWord(y) {
			return false
		}
		sx, sy := spaces(x), spaces(y)
		if sx&(sx<<8)|sy&(sy<<8) != 0 || spaceBefore && sx&0x80 != 0 || sx>>63 != 0 && sy&0x80 != 0 {
			return false
		}
		spaceBefore = sy>>63 != 0
	}
	for ; i+8 <= len(s); i += 8 {
		x := word(s[i : i+8])
		if !printableWord(x) {
			return false
		}
		sx := spaces(x)
		if sx&(sx<<8) != 0 || spaceBefore && sx&0x80 != 0 {
			return false
		}
		spaceBefore = sx>>63 != 0
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c > '~' || c == ' ' && spaceBefore {
			return false
		}
		spaceBefore = c == ' '
	}
	return true
}

// word is the 8 bytes of s as a little-endian number.
func word(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Byte masks for word-at-a-time tests.
const ones, highs, lows = 0x0101010101010101, 0x8080808080808080, 0x7f7f7f7f7f7f7f7f

// printableWord reports whether each byte of x is ' ' to '~'. A byte below
// ' ' sets its high bit in x-0x20..., one at 0x7f in x+0x01..., one at 0x80
// or above in x; borrows and carries only spread from such a byte.
func printableWord(x uint64) bool { return ((x-0x20*ones)|(x+ones)|x)&highs == 0 }

// spaces has the high bit of each byte of x that is a space, exactly (no
// carry crosses bytes), for an x of printable bytes.
func spaces(x uint64) uint64 {
	y := x ^ 0x20*ones
	return ^((y & lows) + lows | y | lows)
}

// printableName is a method name as messages show it (printable is applied
// only when a message is written).
type printableName string

func (n printableName) String() string { return printable(string(n)) }

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
