package jsonnode

import (
	"bytes"
	"fmt"
	"math"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is how deeply arrays and objects may nest.
const MaxDepth = 64

// SyntaxError is malformed JSON, located by line and column (both from 1;
// the column counts characters, not bytes).
type SyntaxError struct {
	Line, Column int
	Offset       int
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Parse decodes exactly one JSON value (with optional surrounding white
// space). The input must be valid UTF-8.
func Parse(data []byte) (Node, error) {
	p := newParser(data, keepAll)
	defer p.release()
	return p.run()
}

// ParseTop is Parse for callers that need only the top level: the whole
// input is checked as Parse checks it, but an array's items and an object's
// members are kept only for the top-level value; nested containers come
// back with their Kind, Offset and End and no children.
func ParseTop(data []byte) (Node, error) {
	p := newParser(data, keepTop)
	defer p.release()
	return p.run()
}

// ParseScoped is Parse for a tree that is used once and dropped: it passes
// the tree to use and then recycles the tree's memory for later parses, so
// use must not keep any Node, or slice of Nodes or Members, after it returns
// (strings are safe to keep). It saves allocating the tree.
func ParseScoped(data []byte, use func(*Node)) error {
	p := newParser(data, reuseTree)
	defer p.release()
	n, err := p.run()
	if err != nil {
		return err
	}
	use(&n)
	return nil
}

// mode is what a parse keeps.
type mode uint8

const (
	keepAll   mode = iota // the whole tree
	keepTop               // the top-level value's children only
	reuseTree             // the whole tree, in recycled memory
)

func newParser(data []byte, m mode) *parser {
	p := &parser{data: data, mode: m}
	if len(data) > math.MaxInt32 {
		p.err = &SyntaxError{Line: 1, Column: 1, Msg: "input over 2 GiB"}
		return p
	}
	p.text = string(data)
	p.presize()
	return p
}

func (p *parser) run() (Node, error) {
	if p.err != nil {
		return Node{}, p.err
	}
	p.skipSpace()
	n := p.value(0)
	if p.err == nil {
		p.skipSpace()
		if p.pos < len(p.data) {
			p.fail("unexpected %s after the end of the value", p.describe())
		}
	}
	if p.err != nil {
		return Node{}, p.err
	}
	return n, nil
}

type parser struct {
	data []byte
	text string // data as one string: strings without escapes are slices of it
	pos  int
	err  *SyntaxError
	// Children are gathered on these stacks and copied, at the close of
	// their container, into exactly sized slices carved from the slabs: one
	// allocation for many containers instead of a growing slice each.
	items      []Node
	members    []Member
	itemSlab   []Node
	memberSlab []Member
	scratch    *stacks
	trees      *trees // the recycled tree memory, in mode reuseTree
	mode       mode
}

const slabSize = 64

// scratch holds the child stacks between parses.
var scratch = sync.Pool{New: func() any { return new(stacks) }}

type stacks struct {
	items   []Node
	members []Member
}

// treePool recycles the slabs of ParseScoped trees; trees of more than
// maxRecycled values are not kept.
var treePool = sync.Pool{New: func() any { return new(trees) }}

const maxRecycled = 4096

type trees struct {
	items   []Node
	members []Member
}

// presize sizes the slabs from a count of the structural characters, an
// upper bound of the values to come (strings may hold some too), and takes
// the stacks from the pool.
func (p *parser) presize() {
	p.scratch = scratch.Get().(*stacks)
	p.items, p.members = p.scratch.items[:0], p.scratch.members[:0]
	if p.mode == keepTop {
		return
	}
	members := bytes.Count(p.data, []byte{':'})
	items := bytes.Count(p.data, []byte{','}) + bytes.Count(p.data, []byte{'['})
	if p.mode == reuseTree && members <= maxRecycled && items <= maxRecycled {
		p.trees = treePool.Get().(*trees)
		p.memberSlab = grow(&p.trees.members, members)
		p.itemSlab = grow(&p.trees.items, items)
		return
	}
	p.memberSlab = make([]Member, members)
	p.itemSlab = make([]Node, items)
}

// grow returns the first n elements of *s, enlarging it when it is short.
func grow[T any](s *[]T, n int) []T {
	if cap(*s) < n {
		*s = make([]T, n)
	}
	*s = (*s)[:n]
	return *s
}

func (p *parser) release() {
	if p.scratch == nil {
		return
	}
	if p.trees != nil {
		clear(p.trees.members)
		clear(p.trees.items)
		treePool.Put(p.trees)
	}
	clear(p.items[:cap(p.items)])
	clear(p.members[:cap(p.members)])
	p.scratch.items, p.scratch.members = p.items[:0], p.members[:0]
	scratch.Put(p.scratch)
}

func (p *parser) keepItems(base int) []Node {
	n := len(p.items) - base
	if n > len(p.itemSlab) {
		p.itemSlab = make([]Node, p.slab(n, slabSize))
	}
	out := p.itemSlab[:n:n]
	p.itemSlab = p.itemSlab[n:]
	copy(out, p.items[base:])
	clear(p.items[base:])
	p.items = p.items[:base]
	return out
}

func (p *parser) keepMembers(base int) []Member {
	n := len(p.members) - base
	if n > len(p.memberSlab) {
		p.memberSlab = make([]Member, p.slab(n, slabSize/2))
	}
	out := p.memberSlab[:n:n]
	p.memberSlab = p.memberSlab[n:]
	copy(out, p.members[base:])
	clear(p.members[base:])
	p.members = p.members[:base]
	return out
}

// slab is the size of a new slab for n children: room for more unless only
// the top level is kept.
func (p *parser) slab(n, size int) int {
	if p.mode == keepTop {
		return n
	}
	return max(n, size)
}

func (p *parser) fail(format string, args ...any) {
	if p.err != nil {
		return
	}
	line, col := Position(p.data, p.pos)
	p.err = &SyntaxError{Line: line, Column: col, Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

// FirstInvalidUTF8 is the offset of the first byte of data that is not
// UTF-8 (len(data) when all of it is).
func FirstInvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(data)
}

// Position converts a byte offset into a 1-based line and column.
func Position(data []byte, offset int) (line, col int) {
	line, col = 1, 1
	for i := 0; i < offset && i < len(data); {
		if data[i] == '\n' {
			line, col = line+1, 1
			i++
			continue
		}
		_, size := utf8.DecodeRune(data[i:])
		i += size
		col++
	}
	return line, col
}

func (p *parser) describe() string {
	if p.pos >= len(p.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	return fmt.Sprintf("character %q", r)
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) Node {
	n := p.parseValue(depth)
	n.End = int32(p.pos)
	return n
}

func (p *parser) parseValue(depth int) Node {
	if p.pos >= len(p.data) {
		p.fail("unexpected end of input (expected a value)")
		return Node{}
	}
	start := p.pos
	switch c := p.data[p.pos]; {
	case p.mode == keepTop && depth > 0 && (c == '{' || c == '['):
		p.skipContainer(depth + 1)
		if c == '{' {
			return Node{Kind: Object, Offset: int32(start)}
		}
		return Node{Kind: Array, Offset: int32(start)}
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		s := p.str()
		return Node{Kind: String, Text: s, Offset: int32(start)}
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		p.literal("true")
		return Node{Kind: Bool, True: true, Offset: int32(start)}
	case c == 'f':
		p.literal("false")
		return Node{Kind: Bool, Offset: int32(start)}
	case c == 'n':
		p.literal("null")
		return Node{Kind: Null, Offset: int32(start)}
	}
	p.fail("unexpected %s (expected a value)", p.describe())
	return Node{}
}

func (p *parser) literal(word string) {
	if len(p.data)-p.pos >= len(word) && string(p.data[p.pos:p.pos+len(word)]) == word {
		p.pos += len(word)
		return
	}
	p.fail("invalid literal (expected %s)", word)
}

func (p *parser) object(depth int) Node {
	n := Node{Kind: Object, Offset: int32(p.pos)}
	if depth > MaxDepth {
		p.fail("nesting deeper than %d levels", MaxDepth)
		return n
	}
	p.pos++ // {
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return n
	}
	base := len(p.members)
	for p.err == nil {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			p.fail("unexpected %s (expected a string key)", p.describe())
			break
		}
		key := p.str()
		p.skipSpace()
		if !p.expect(':', "':' after an object key") {
			break
		}
		p.skipSpace()
		v := p.value(depth)
		p.members = append(p.members, Member{Key: key, Value: v})
		if p.closeOrComma('}') {
			break
		}
	}
	n.Members = p.keepMembers(base)
	return n
}

func (p *parser) array(depth int) Node {
	n := Node{Kind: Array, Offset: int32(p.pos)}
	if depth > MaxDepth {
		p.fail("nesting deeper than %d levels", MaxDepth)
		return n
	}
	p.pos++ // [
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return n
	}
	base := len(p.items)
	for p.err == nil {
		v := p.value(depth)
		p.items = append(p.items, v)
		if p.closeOrComma(']') {
			break
		}
	}
	n.Items = p.keepItems(base)
	return n
}

// skipContainer checks an object or array as object and array do, and
// with the same errors, but builds nothing.
func (p *parser) skipContainer(depth int) {
	if depth > MaxDepth {
		p.fail("nesting deeper than %d levels", MaxDepth)
		return
	}
	closer := byte(']')
	if p.data[p.pos] == '{' {
		closer = '}'
	}
	p.pos++
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == closer {
		p.pos++
		return
	}
	for p.err == nil {
		if closer == '}' {
			if p.pos >= len(p.data) || p.data[p.pos] != '"' {
				p.fail("unexpected %s (expected a string key)", p.describe())
				return
			}
			p.skipStr()
			p.skipSpace()
			if !p.expect(':', "':' after an object key") {
				return
			}
			p.skipSpace()
		}
		switch {
		case p.pos < len(p.data) && p.data[p.pos] == '"':
			p.skipStr()
		case p.pos < len(p.data) && (p.data[p.pos] == '{' || p.data[p.pos] == '['):
			p.skipContainer(depth + 1)
		default:
			p.parseValue(depth)
		}
		if p.closeOrComma(closer) {
			return
		}
	}
}

// closeOrComma consumes "," (returning false: more follows) or the closing
// bracket (returning true). On an error it returns true.
func (p *parser) closeOrComma(closer byte) bool {
	if p.err != nil {
		return true
	}
	p.skipSpace()
	if p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
			return false
		case closer:
			p.pos++
			return true
		}
	}
	p.fail("unexpected %s (expected ',' or '%c')", p.describe(), closer)
	return true
}

func (p *parser) expect(c byte, what string) bool {
	if p.pos < len(p.data) && p.data[p.pos] == c {
		p.pos++
		return true
	}
	p.fail("unexpected %s (expected %s)", p.describe(), what)
	return false
}

func (p *parser) number() Node {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(p.data) && p.data[p.pos] == '0':
		p.pos++
	case p.pos < len(p.data) && p.data[p.pos] >= '1' && p.data[p.pos] <= '9':
		p.digits()
	default:
		p.fail("invalid number (expected a digit)")
		return Node{}
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if !p.digits() {
			p.fail("invalid number (expected a digit after '.')")
			return Node{}
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if !p.digits() {
			p.fail("invalid number (expected a digit in the exponent)")
			return Node{}
		}
	}
	return Node{Kind: Number, Text: p.text[start:p.pos], Offset: int32(start)}
}

func (p *parser) digits() bool {
	start := p.pos
	for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
		p.pos++
	}
	return p.pos > start
}

// str decodes a string starting at the opening quote.
func (p *parser) str() string {
	p.pos++ // opening quote
	start := p.pos
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			s := p.text[start:p.pos]
			p.pos++
			return s
		case c == '\\':
			return p.escapedStr(start)
		case c < 0x20:
			p.fail("control character %q in a string (escape it)", rune(c))
			return ""
		}
		p.pos++
	}
	p.fail("unterminated string")
	return ""
}

// skipStr checks a string as str does, decoding nothing.
func (p *parser) skipStr() {
	p.pos++ // opening quote
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == '"':
			p.pos++
			return
		case c == '\\':
			if _, ok := p.escape(); !ok {
				return
			}
			continue
		case c < 0x20:
			p.fail("control character %q in a string (escape it)", rune(c))
			return
		}
		p.pos++
	}
	p.fail("unterminated string")
}

// escapedStr continues a string that contains escapes, from its start.
func (p *parser) escapedStr(start int) string {
	buf := append([]byte(nil), p.data[start:p.pos]...)
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(buf)
		case c < 0x20:
			p.fail("control character %q in a string (escape it)", rune(c))
			return ""
		case c != '\\':
			buf = append(buf, c)
			p.pos++
			continue
		}
		r, ok := p.escape()
		if !ok {
			return ""
		}
		buf = utf8.AppendRune(buf, r)
	}
	p.fail("unterminated string")
	return ""
}

var simpleEscapes = map[byte]rune{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escape decodes one escape sequence at p.pos (the backslash).
func (p *parser) escape() (rune, bool) {
	if p.pos+1 >= len(p.data) {
		p.pos = len(p.data)
		p.fail("unterminated string")
		return 0, false
	}
	e := p.data[p.pos+1]
	if r, ok := simpleEscapes[e]; ok {
		p.pos += 2
		return r, true
	}
	if e != 'u' {
		p.pos++
		p.fail("invalid escape '\\%c' in a string", e)
		return 0, false
	}
	r, ok := p.hex4()
	if !ok {
		return 0, false
	}
	if utf16.IsSurrogate(r) {
		if p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
			save := p.pos
			if r2, ok := p.hex4(); ok {
				if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
					return pair, true
				}
			}
			p.err = nil
			p.pos = save
		}
		return utf8.RuneError, true
	}
	return r, true
}

// hex4 decodes \uXXXX at p.pos.
func (p *parser) hex4() (rune, bool) {
	if p.pos+6 > len(p.data) {
		p.pos += 2
		p.fail("invalid \\u escape (expected 4 hex digits)")
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.pos+2 : p.pos+6] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			p.pos += 2
			p.fail("invalid \\u escape (expected 4 hex digits)")
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	p.pos += 6
	return r, true
}
