package jsonnode

import (
	"bytes"
	"fmt"
	"math"
	"strings"
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
	// Children are gathered on the front of an arena while their
	// container is open and moved, when it closes, to the arena's back as
	// the container's exactly sized slice. The pending children and the
	// finished slices together never outnumber the values of the input, so
	// an arena sized by a count of the input's structure holds the whole
	// tree: one allocation, no growing stack and no second copy.
	items   arena[Node]
	members arena[Member]
	trees   *trees // the recycled tree memory, in mode reuseTree
	mode    mode
}

// arena holds pending children at its front (buf[:top]) and finished
// child slices at its back (buf[back:]).
type arena[T any] struct {
	buf       []T
	top, back int
}

func (a *arena[T]) reset(buf []T) {
	a.buf, a.top, a.back = buf, 0, len(buf)
}

func (a *arena[T]) push(v T) {
	if a.top == a.back {
		a.grow()
	}
	a.buf[a.top] = v
	a.top++
}

// grow moves the pending children to a larger buffer; finished slices stay
// where they are, in the old one.
func (a *arena[T]) grow() {
	buf := make([]T, max(2*len(a.buf), smallArena))
	copy(buf, a.buf[:a.top])
	clear(a.buf[:a.top])
	a.buf, a.back = buf, len(buf)
}

// keep turns the children pending since base into a finished slice.
func (a *arena[T]) keep(base int) []T {
	n := a.top - base
	dst := a.back - n
	copy(a.buf[dst:a.back], a.buf[base:a.top]) // may overlap: copy is a memmove
	clear(a.buf[base:min(a.top, dst)])
	a.top, a.back = base, dst
	return a.buf[dst : dst+n : dst+n]
}

// smallArena is an arena's first size when the input's structure is not
// counted (only the top level is kept).
const smallArena = 64

// treePool recycles the arenas of ParseScoped trees; trees of more than
// maxRecycled values are not kept.
var treePool = sync.Pool{New: func() any { return new(trees) }}

const maxRecycled = 4096

type trees struct {
	items   []Node
	members []Member
}

// presize sizes the arenas from a count of the structural characters: an
// upper bound of the array items and object members to come.
func (p *parser) presize() {
	if p.mode == keepTop {
		p.items.reset(make([]Node, smallArena))
		p.members.reset(make([]Member, smallArena/2))
		return
	}
	items, members := countStructure(p.data)
	if p.mode == reuseTree && members <= maxRecycled && items <= maxRecycled {
		p.trees = treePool.Get().(*trees)
		p.members.reset(grow(&p.trees.members, members))
		p.items.reset(grow(&p.trees.items, items))
		return
	}
	p.members.reset(make([]Member, members))
	p.items.reset(make([]Node, items))
}

// countStructure bounds the array items (by the commas in arrays and the
// opening brackets) and object members (by the colons) of JSON text. When
// the quick count is large it counts again, leaving out the characters in
// strings and the commas between members, so that neither sizes the
// arenas.
func countStructure(data []byte) (items, members int) {
	members = bytes.Count(data, []byte{':'})
	items = bytes.Count(data, []byte{','}) + bytes.Count(data, []byte{'['})
	if items+members <= maxRecycled {
		return items, members
	}
	items, members = 0, 0
	var inArray []bool // the open containers, innermost last
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '[':
			items++
			inArray = append(inArray, true)
		case '{':
			inArray = append(inArray, false)
		case ']', '}':
			if len(inArray) > 0 {
				inArray = inArray[:len(inArray)-1]
			}
		case ',':
			if len(inArray) > 0 && inArray[len(inArray)-1] {
				items++
			}
		case ':':
			members++
		}
	}
	return items, members
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
	if p.trees != nil {
		clear(p.trees.members)
		clear(p.trees.items)
		treePool.Put(p.trees)
		p.trees = nil
	}
}

func (p *parser) keepItems(base int) []Node { return p.items.keep(base) }

func (p *parser) keepMembers(base int) []Member { return p.members.keep(base) }

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
	if w := p.word(); w != "" {
		p.fail("unexpected word %q (expected a value: an object, a list, a string, a number, true, false or null)", w)
		return Node{}
	}
	p.fail("unexpected %s (expected a value)", p.describe())
	return Node{}
}

func (p *parser) literal(word string) {
	if len(p.data)-p.pos >= len(word) && string(p.data[p.pos:p.pos+len(word)]) == word {
		p.pos += len(word)
		return
	}
	w := p.word()
	if p.pos+len(w) == len(p.data) && strings.HasPrefix(word, w) {
		p.fail("%q is cut short (expected %s)", w, word)
		return
	}
	p.fail("unexpected word %q (expected a value: an object, a list, a string, a number, true, false or null)", w)
}

// word is the run of ASCII letters at the current position (at most 20),
// for messages about a bare word where a value belongs.
func (p *parser) word() string {
	end := p.pos
	for end < len(p.data) && end-p.pos < 20 && (p.data[end] >= 'a' && p.data[end] <= 'z' || p.data[end] >= 'A' && p.data[end] <= 'Z') {
		end++
	}
	return string(p.data[p.pos:end])
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
	base := p.members.top
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
		p.members.push(Member{Key: key, Value: v})
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
	base := p.items.top
	for p.err == nil {
		v := p.value(depth)
		p.items.push(v)
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
		run := p.pos // the bytes up to the next quote, escape or control character go in at once
		for p.pos < len(p.data) {
			if c := p.data[p.pos]; c == '"' || c == '\\' || c < 0x20 {
				break
			}
			p.pos++
		}
		buf = append(buf, p.data[run:p.pos]...)
		if p.pos == len(p.data) {
			break
		}
		switch c := p.data[p.pos]; {
		case c == '"':
			p.pos++
			return string(buf)
		case c < 0x20:
			p.fail("control character %q in a string (escape it)", rune(c))
			return ""
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

// simpleEscape is the character a one-letter escape \e stands for.
func simpleEscape(e byte) (rune, bool) {
	switch e {
	case '"', '\\', '/':
		return rune(e), true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// escape decodes one escape sequence at p.pos (the backslash).
func (p *parser) escape() (rune, bool) {
	if p.pos+1 >= len(p.data) {
		p.pos = len(p.data)
		p.fail("unterminated string")
		return 0, false
	}
	e := p.data[p.pos+1]
	if r, ok := simpleEscape(e); ok {
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
