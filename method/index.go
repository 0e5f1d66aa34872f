package method

import (
	"hash/maphash"
	"strings"

	"github.com/elicit/elicit/problem"
)

// index enforces unique nums and unique slugs (so, unique names in any case
// too): a row whose num or slug a method kept before it has is skipped with
// a warning after the row's own ones. Two names with one slug would share
// the files and the lookups a slug names.
//
// The rows are checked once all are read, not one by one: a look-up per
// row in a table of 100,000 slugs waits for memory each time, while a loop
// over all of them at the end keeps many look-ups in flight at once. Nums
// are checked by their order: while they only increase, as in a registry
// kept in order, none repeats. Only a registry where a check finds
// something (nums out of order, or two rows with one slug) is gone through
// row by row again, as it was read.
type index struct {
	seed     maphash.Seed
	origins  []origin // where each method was read, by position in the method list
	maxNum   int
	disorder bool // some num is not above every num before it
}

// origin is where a method was read: its slug's hash, the row it starts on
// and how many warnings the registry had once the row was read.
type origin struct {
	hash uint64
	line int32
	mark int32
}

func newIndex() index { return index{seed: maphash.MakeSeed()} }

// reserve makes room for n methods.
func (x *index) reserve(n int) {
	if n > cap(x.origins) {
		x.origins = append(make([]origin, 0, n), x.origins...)
	}
}

// add records m, read from the row at line with the slug slug, as the next
// method; warned is the registry's warning count after the row.
func (x *index) add(m *Method, slug []byte, line, warned int) {
	x.disorder = x.disorder || m.Num <= x.maxNum
	x.maxNum = max(x.maxNum, m.Num)
	x.origins = append(x.origins, origin{hash: maphash.Bytes(x.seed, slug), line: int32(line), mark: int32(warned)})
}

// settle removes from r every method whose num or slug one kept before it
// has, each with its warning.
func (x *index) settle(r *Registry) {
	if x.disorder || x.clash(r.Methods) {
		x.recheck(r)
	}
}

// clash reports whether two of methods have one slug.
func (x *index) clash(methods []Method) bool {
	t := newSlugTable(len(x.origins))
	for i, c := range x.origins {
		if t.find(c.hash, methods[i].Name, methods) >= 0 {
			return true
		}
		t.put(c.hash, int32(i))
	}
	return false
}

// recheck goes through r's methods in order, keeping those whose num and
// slug are new, and puts each warning about one that is not after the
// warnings of its row.
func (x *index) recheck(r *Registry) {
	methods, warnings := r.Methods, r.Warnings
	kept := methods[:0] // written at or before where it is read
	var w problem.List
	t := newSlugTable(len(methods))
	lines := make([]int32, 0, len(methods)) // of kept, by position
	nums := map[int]int{}                   // num -> position in kept
	done := 0                               // warnings copied
	for i, c := range x.origins {
		w = append(w, warnings[done:c.mark]...)
		done = int(c.mark)
		m, ok := methods[i], true
		if at, dup := nums[m.Num]; dup {
			w.Add(rowPath(int(c.line)), "Duplicate num %d for method %s (already used by %s) — skipping row", m.Num, m.Name, kept[at].Name)
			ok = false
		}
		if at := t.find(c.hash, m.Name, kept); at >= 0 {
			if other := kept[at].Name; !strings.EqualFold(other, m.Name) {
				w.Add(rowPath(int(c.line)), "Duplicate method slug '%s' for method %s (first on row %d, for %s) — skipping row", m.Slug(), m.Name, lines[at], other)
			} else {
				w.Add(rowPath(int(c.line)), "Duplicate method_name '%s' (first on row %d) — skipping row", m.Name, lines[at])
			}
			ok = false
		}
		if ok {
			nums[m.Num] = len(kept)
			t.put(c.hash, int32(len(kept)))
			lines = append(lines, c.line)
			kept = append(kept, m)
		}
	}
	clear(methods[len(kept):]) // nothing kept alive by the methods dropped
	r.Methods, r.Warnings = kept, append(w, warnings[done:]...)
}

// slugTable finds methods by slug: an open-addressing table of small
// pointer-free slots, for a position in a method list and the top half of
// the slug's hash.
type slugTable []slot

type slot struct {
	tag uint32 // never 0, the mark of a free slot
	pos int32
}

// newSlugTable makes a table for n slugs, at most half full.
func newSlugTable(n int) slugTable {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return make(slugTable, size)
}

// tag is the part of a hash kept in a slot: its top half, never 0.
func tag(hash uint64) uint32 { return max(uint32(hash>>32), 1) }

// put adds the method at pos, whose slug hashes to hash.
func (t slugTable) put(hash uint64, pos int32) {
	mask := uint64(len(t) - 1)
	for i := hash & mask; ; i = (i + 1) & mask {
		if t[i].tag == 0 {
			t[i] = slot{tag: tag(hash), pos: pos}
			return
		}
	}
}

// find returns the position among methods of the one whose slug is the
// slug of name (hashed to hash), or -1.
func (t slugTable) find(hash uint64, name string, methods []Method) int32 {
	mask, want := uint64(len(t)-1), tag(hash)
	for i := hash & mask; ; i = (i + 1) & mask {
		switch s := t[i]; {
		case s.tag == 0:
			return -1
		case s.tag == want && sameSlug(methods[s.pos].Name, name):
			return s.pos
		}
	}
}

// sameSlug reports whether two ASCII names, as every method read has, have
// one slug.
func sameSlug(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] && slugRune(rune(a[i])) != slugRune(rune(b[i])) {
			return false
		}
	}
	return true
}
