package method

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/problem"
)

//go:embed methods.csv
var embedded []byte

// Header is the registry's CSV header. Files may leave out the last column,
// codex_role.
const Header = "num,category,method_name,description,output_pattern,tier,phases,agents,topics,auto_suggest,codex_role"

// WarnUnavailable is added to a registry that has no methods, and so to every
// selection made from it, so that callers in auto mode know no method was
// injected.
const WarnUnavailable = "⚠️ Elicitation registry unavailable — proceeding without method injection."

// Method is one reasoning method, as read from a valid registry row.
type Method struct {
	Num           int      `json:"num"`
	Category      string   `json:"category"`
	Name          string   `json:"method_name"`
	Description   string   `json:"description"`
	OutputPattern string   `json:"output_pattern"`
	Tier          int      `json:"tier"`
	Phases        []string `json:"phases"`
	Agents        []string `json:"agents"` // empty: any agent
	Topics        []string `json:"topics"`
	AutoSuggest   bool     `json:"auto_suggest"`
	CodexRole     string   `json:"codex_role"` // "", "red_team", "failure" or "critic"

	keys      []string // Topics lowercased, for scoring
	nameWords string   // phrase(Name), for the title bonus
}

// Slug is the method's name in lowercase with every character other than a
// letter, digit or hyphen replaced by a hyphen: "occam-s-razor-application".
// Unlike Num, it does not change when rows are renumbered. A registry's
// slugs are unique: a row whose slug an earlier row has is skipped.
func (m Method) Slug() string {
	return strings.Map(slugRune, m.Name)
}

// slugRune is the rune that r becomes in a slug.
func slugRune(r rune) rune {
	switch {
	case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
		return r
	case r >= 'A' && r <= 'Z':
		return r + 'a' - 'A'
	}
	return '-'
}

// appendSlug appends the slug of an ASCII name (see Slug) to b.
func appendSlug(b, name []byte) []byte {
	for _, c := range name {
		b = append(b, byte(slugRune(rune(c))))
	}
	return b
}

// appendNameKeys appends the phrase of name to words and its slug (as
// appendSlug) to slug, in one pass when name is ASCII.
func appendNameKeys(words, slug, name []byte) ([]byte, []byte) {
	w0, s0 := len(words), len(slug)
	words, slug = slices.Grow(words, len(name)+2), slices.Grow(slug, len(name))
	w, s := words[w0:w0+len(name)+2], slug[s0:s0+len(name)] // an ASCII byte adds at most one to either
	w[0] = ' '
	k, gap := 1, true
	for i, c := range name {
		lower := c | 0x20
		switch {
		case c >= utf8.RuneSelf:
			words, _ = appendPhrase(words[:w0], name)
			return words, appendSlug(slug[:s0], name)
		case 'a' <= lower && lower <= 'z':
			w[k], s[i] = lower, lower
			k, gap = k+1, false
		case '0' <= c && c <= '9':
			w[k], s[i] = c, c
			k, gap = k+1, false
		default:
			if !gap {
				w[k] = ' '
				k, gap = k+1, true
			}
			s[i] = '-'
		}
	}
	if !gap {
		w[k] = ' '
		k++
	}
	return words[:w0+k], slug[:s0+len(name)]
}

// Registry is a list of methods in file order and the warnings met while
// reading it. Each warning's Path is "row N" (N the file line the row starts
// on) or empty, and its Message is the text shown to users.
type Registry struct {
	Methods  []Method
	Warnings problem.List
}

// Default returns the embedded registry. Nothing is parsed: the registry is
// in the binary as data (default_table.go, methods.csv parsed, which a test
// keeps so). Each call returns its own copy, so the result is the caller's
// to change.
func Default() *Registry { return (&Registry{Methods: defaultMethods}).clone() }

// DefaultCSV returns the embedded registry's CSV text.
func DefaultCSV() []byte { return append([]byte(nil), embedded...) }

// MaxRegistry is the largest registry file Load reads: 64 MiB, about 250,000
// methods.
const MaxRegistry = 64 << 20

var registryInput = infile.Limit{Max: MaxRegistry, What: "a method registry",
	Fix: "split it: one part as --registry, the rest as --extra, which is merged over it"}

// Load reads and parses the registry file at path, streaming it. A file that
// cannot be read (missing, not a regular file, over MaxRegistry) gives an
// empty registry whose warnings say why.
func Load(path string) *Registry {
	f, err := infile.Open(path, registryInput)
	if err == nil {
		defer f.Close()
		size := int64(-1)
		if fi, serr := os.Stat(path); serr == nil {
			size = fi.Size()
		}
		rr := newRecordReader(f, readBuffer(size))
		r := parse(rr, size, maxValues)
		if err = rr.err; err == nil {
			return r
		}
	}
	r := &Registry{}
	r.Warnings.Add("", "Cannot read registry %s: %v", printable(path), err)
	r.Warnings.Add("", "%s", WarnUnavailable)
	return r
}

// Parse reads a registry from CSV text. It never fails: every bad row is
// skipped with a warning, and a registry left without methods carries
// WarnUnavailable.
func Parse(data []byte) *Registry {
	return parse(newRecordReader(bytes.NewReader(data), readBuffer(int64(len(data)))), int64(len(data)), maxValues)
}

// readBuffer sizes the read buffer for an input of size bytes (-1: unknown).
func readBuffer(size int64) int {
	if size < 0 {
		return 64 << 10
	}
	return int(min(max(size, 16), 64<<10))
}

// parse reads the registry rr yields in one pass. size is the input's length
// in bytes (-1: unknown); it lets the method list be reserved once. Each
// column keeps up to keep distinct values (see value).
func parse(rr *recordReader, size int64, keep int) *Registry {
	return parseWith(rr, size, keep, newIndex())
}

// parseWith is parse with the index idx.
func parseWith(rr *recordReader, size int64, keep int, idx index) *Registry {
	p := &parser{
		r:         &Registry{Methods: []Method{}},
		size:      size,
		idx:       idx,
		lists:     make([]string, 0, minListBlock), // never nil: an empty list is [], not null
		maxValues: keep,
	}
	p.expected = "10"
	if rec, ok := rr.next(); ok {
		p.expected = checkHeader(rec, &p.r.Warnings)
	}
	for {
		rec, ok := rr.next()
		if !ok {
			break
		}
		if len(p.r.Methods) == cap(p.r.Methods) {
			p.grow(rr.read)
		}
		n := len(p.r.Methods)
		p.r.Methods = p.r.Methods[:n+1]
		m := &p.r.Methods[n] // zero: read in place
		if slug, ok := p.row(rec, m); ok {
			p.idx.add(m, slug, rec.line, len(p.r.Warnings))
			continue
		}
		*m = Method{}
		p.r.Methods = p.r.Methods[:n]
	}
	p.idx.settle(p.r)
	p.r.finish()
	return p.r
}

// parser is the state of one parse beyond the record reader.
type parser struct {
	r    *Registry
	size int64 // the input's length in bytes, or -1
	// expected is the column count a row's warning expects: the header's
	// (10 or 11), or "10 or 11" when the header is not one of those.
	expected string
	idx      index
	lists    []string // the current block of list items (see splitList)
	// scratch holds the name's phrase on its way to the text block; slug
	// holds the name's slug.
	scratch   []byte
	slug      []byte
	nameWords string
	text      strings.Builder // the current text block (see keep)
	textBlock int             // its size
	// values holds, per column other than num, name and description, the
	// distinct values met so far; vals are the current row's.
	values    [colCodexRole + 1]map[string]*value
	recent    [colCodexRole + 1][1 << recentBits]*value // values met lately (see recentSlot)
	vals      [colCodexRole + 1]*value
	maxValues int // how many distinct values a column keeps
}

// value is a distinct value of one column, kept with what reading it found
// when that was clean (no warning), so that a value repeated across rows (a
// category, a list of phases or topics, ...) is allocated, checked and split
// once.
type value struct {
	s     string
	clean bool
	list  []string // phases, agents, topics: the items
	keys  []string // topics: the items lowercased
}

// maxValues caps how many distinct values a column keeps; past that, values
// are allocated and checked where they occur.
const maxValues = 4096

// small returns one of the few values of tier, auto_suggest and
// codex_role as a constant, anything else allocated.
func (p *parser) small(b []byte) string {
	switch string(b) {
	case "":
		return ""
	case "1":
		return "1"
	case "2":
		return "2"
	case "true":
		return "true"
	case "false":
		return "false"
	case "red_team":
		return "red_team"
	case "failure":
		return "failure"
	case "critic":
		return "critic"
	}
	return string(b)
}

// intern returns the value of column col that b holds, nil when the column
// keeps no more values.
func (p *parser) intern(col int, b []byte) (string, *value) {
	recent := &p.recent[col][recentSlot(b)]
	if x := *recent; x != nil && x.s == string(b) {
		return x.s, x
	}
	m := p.values[col]
	if m == nil {
		m = make(map[string]*value)
		p.values[col] = m
	}
	if x, ok := m[string(b)]; ok {
		*recent = x
		return x.s, x
	}
	s := string(b)
	if len(m) >= p.maxValues {
		return s, nil
	}
	x := &value{s: s}
	m[s] = x
	*recent = x
	return s, x
}

// recentSlot is where a value is looked for first: a few of its bytes and
// its length, mixed. A column's values met again are mostly found there,
// which is cheaper than hashing the whole value for the map.
func recentSlot(b []byte) int {
	n := len(b)
	if n == 0 {
		return 0
	}
	h := uint32(n) ^ uint32(b[0])<<8 ^ uint32(b[n-1])<<16 ^ uint32(b[n/2])<<24 ^ uint32(b[n/3])
	return int(h * 0x9e3779b1 >> (32 - recentBits))
}

// recentBits sizes each column's table of recent values.
const recentBits = 8

// grow makes room for more methods: doubling while the list is short, then
// as many as the rest of the input holds at the bytes per method so far,
// with 5% to spare, so that a large registry's list is allocated about once
// (doubling to the end would allocate about twice its size).
func (p *parser) grow(read int64) {
	n := len(p.r.Methods)
	more := max(n, 16)
	if n >= estimateAfter && p.size > read {
		more = int(float64(p.size-read)*float64(n)/float64(read)*1.05) + 64
	}
	grown := make([]Method, n, n+more)
	copy(grown, p.r.Methods)
	p.r.Methods = grown
	p.idx.reserve(n + more)
}

// estimateAfter is how many methods grow reads before it estimates.
const estimateAfter = 1024

// strings turns the fields of a row of 10 or 11 columns into trimmed
// strings: num, name and description are kept in the text block with the
// name's phrase (nameWords, kept in p.nameWords), the other values
// (categories, phases, agents, topics, ...) repeat across rows and are
// interned (see value). The name's slug goes to p.slug, meaningful when the
// name is valid.
func (p *parser) strings(f []string, fields [][]byte) []string {
	for i, b := range fields {
		if n := len(b); n > 0 && (b[0] <= ' ' || b[n-1] <= ' ' || b[0] >= utf8.RuneSelf || b[n-1] >= utf8.RuneSelf) {
			fields[i] = bytes.TrimSpace(b)
		}
	}
	num, name, desc := len(fields[colNum]), len(fields[colName]), len(fields[colDescription])
	p.scratch, p.slug = appendNameKeys(p.scratch[:0], p.slug[:0], fields[colName])
	text := p.keep(fields[colNum], fields[colName], fields[colDescription], p.scratch)
	p.nameWords = text[num+name+desc:]
	for i, b := range fields {
		switch i {
		case colNum:
			f = append(f, text[:num])
		case colName:
			f = append(f, text[num:num+name])
		case colDescription:
			f = append(f, text[num+name:num+name+desc])
		case colTier, colAutoSuggest, colCodexRole:
			f = append(f, p.small(b))
		default:
			s, x := p.intern(i, b)
			f = append(f, s)
			p.vals[i] = x
		}
	}
	return f
}

// keep returns a, b, c and d, one after another, as one string in the text
// block: one allocation for many rows rather than one per row, so fewer
// objects for the collector too. A full block is left to the strings made
// from it and a new one started. The strings.Builder never writes again
// what it has handed out, and is replaced rather than grown.
func (p *parser) keep(a, b, c, d []byte) string {
	if n := len(a) + len(b) + len(c) + len(d); n > p.text.Cap()-p.text.Len() {
		p.textBlock = min(max(2*p.textBlock, minTextBlock), maxTextBlock)
		p.text = strings.Builder{}
		p.text.Grow(max(p.textBlock, n))
	}
	start := p.text.Len()
	p.text.Write(a)
	p.text.Write(b)
	p.text.Write(c)
	p.text.Write(d)
	return p.text.String()[start:]
}

// Sizes of the blocks a row's text is kept in: small for small registries,
// up to 64 KiB each.
const (
	minTextBlock = 1 << 10
	maxTextBlock = 64 << 10
)

// clone returns a copy of r whose methods and their lists are the copy's
// own.
func (r *Registry) clone() *Registry {
	out := &Registry{Methods: slices.Clone(r.Methods), Warnings: slices.Clone(r.Warnings)}
	n := 0
	for _, m := range r.Methods {
		n += len(m.Phases) + len(m.Agents) + len(m.Topics)
	}
	lists := make([]string, 0, n)
	own := func(l []string) []string {
		if l == nil {
			return nil
		}
		start := len(lists)
		lists = append(lists, l...)
		return lists[start:len(lists):len(lists)]
	}
	for i := range out.Methods {
		m := &out.Methods[i]
		shared := len(m.keys) > 0 && &m.keys[0] == &m.Topics[0]
		m.Phases, m.Agents, m.Topics = own(m.Phases), own(m.Agents), own(m.Topics)
		if shared {
			m.keys = m.Topics
		}
	}
	return out
}

// finish adds WarnUnavailable when the registry has no methods.
func (r *Registry) finish() {
	if len(r.Methods) == 0 {
		r.Warnings.Add("", "%s", WarnUnavailable)
	}
}

func checkHeader(rec record, w *problem.List) (expected string) {
	fields := make([]string, len(rec.fields))
	for i, b := range rec.fields {
		fields[i] = string(bytes.TrimSpace(b))
	}
	got := strings.Join(fields, ",")
	if got == Header || got == strings.TrimSuffix(Header, ",codex_role") {
		return strconv.Itoa(len(fields))
	}
	w.Add(rowPath(rec.line), "Row %d is not the expected header, skipping it and reading columns by position: %s",
		rec.line, first80(string(rec.raw)))
	return "10 or 11"
}

// Lookup finds a method by num ("20"), by name ("architecture decision
// records", any case) or by slug. A number is a num: no valid name is one.
func (r *Registry) Lookup(ref string) (Method, bool) {
	ref = strings.TrimSpace(ref)
	if n, err := strconv.Atoi(ref); err == nil {
		for _, m := range r.Methods {
			if m.Num == n {
				return m, true
			}
		}
	}
	for _, m := range r.Methods {
		if strings.EqualFold(m.Name, ref) || m.Slug() == ref {
			return m, true
		}
	}
	return Method{}, false
}

// Merge returns r overlaid with extra: a method of extra whose name matches
// one of r (any case) replaces it and keeps its num; one whose slug only
// matches is skipped with a warning; the others are appended with the next
// free nums, in extra's order (over an empty r, extra keeps its nums).
// Warnings of both are kept, and a method whose num changes is warned about
// (its slug does not change).
func (r *Registry) Merge(extra *Registry) *Registry {
	out := &Registry{Methods: append([]Method(nil), r.Methods...)}
	at := make(map[string]int, len(out.Methods))
	slugs := make(map[string]int, len(out.Methods))
	next := 1
	for i, m := range out.Methods {
		at[strings.ToLower(m.Name)] = i
		slugs[m.Slug()] = i
		next = max(next, m.Num+1)
	}
	highest := next - 1
	var clashes problem.List
	for _, m := range extra.Methods {
		if i, ok := at[strings.ToLower(m.Name)]; ok {
			if num := out.Methods[i].Num; m.Num != num {
				clashes.Add("", "Extra method %s: num %d is renumbered %d (it replaces the registry's %s and keeps its num) — show it as %d or '%s'", m.Name, m.Num, num, out.Methods[i].Name, num, m.Slug())
				m.Num = num
			}
			out.Methods[i] = m
			continue
		}
		if i, ok := slugs[m.Slug()]; ok {
			clashes.Add("", "Duplicate method slug '%s' for extra method %s (already used by %s) — skipping it", m.Slug(), m.Name, out.Methods[i].Name)
			continue
		}
		switch {
		case len(r.Methods) == 0:
			// Over an empty registry extra is the registry: its nums
			// (unique within it) are all free and kept.
		case m.Num != next:
			clashes.Add("", "Extra method %s: num %d is renumbered %d (extra methods take the next free nums after the registry's highest, %d) — show it as %d or '%s'", m.Name, m.Num, next, highest, next, m.Slug())
			fallthrough
		default:
			m.Num = next
			next++
		}
		at[strings.ToLower(m.Name)] = len(out.Methods)
		slugs[m.Slug()] = len(out.Methods)
		out.Methods = append(out.Methods, m)
	}
	for _, p := range slices.Concat(r.Warnings, extra.Warnings, clashes) {
		if p.Message != WarnUnavailable {
			out.Warnings = append(out.Warnings, p)
		}
	}
	out.finish()
	return out
}

// Filter returns the methods that list phase (any phase when empty) and have
// tier (any tier when 0), in registry order.
func (r *Registry) Filter(phase string, tier int) []Method {
	out := []Method{}
	for _, m := range r.Methods {
		if (phase == "" || m.HasPhase(phase)) && (tier == 0 || m.Tier == tier) {
			out = append(out, m)
		}
	}
	return out
}

// HasPhase reports whether the method lists phase.
func (m Method) HasPhase(phase string) bool {
	for _, p := range m.Phases {
		if p == phase {
			return true
		}
	}
	return false
}

// WarningTexts returns the warnings' messages, one per warning, never nil.
func (r *Registry) WarningTexts() []string {
	out := make([]string, len(r.Warnings))
	for i, p := range r.Warnings {
		out[i] = p.Message
	}
	return out
}

func rowPath(line int) string { return fmt.Sprintf("row %d", line) }
