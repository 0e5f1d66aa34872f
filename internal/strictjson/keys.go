package strictjson

import (
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/elicit/elicit/internal/jsonnode"
	"github.com/elicit/elicit/internal/spelling"
)

// smallObject is the most members an object has for Keys to find a key
// given before by looking back, without a map.
const smallObject = 16

// Keys ranges over the members of object n in document order, yielding
// each member's index and, for a key given before, the index of its first
// member (-1 for a key's first member): which of two values a reader
// takes is a guess, so a strict reader refuses the second.
func Keys(n *jsonnode.Node) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		var first map[string]int
		if len(n.Members) > smallObject {
			first = make(map[string]int, len(n.Members))
		}
		for i := range n.Members {
			key, at := n.Members[i].Key, -1
			if first != nil {
				if j, ok := first[key]; ok {
					at = j
				} else {
					first[key] = i
				}
			} else {
				for j := range i {
					if n.Members[j].Key == key {
						at = j
						break
					}
				}
			}
			if !yield(i, at) {
				return
			}
		}
	}
}

// Suggest returns the known key that key most likely misspells, or "" when
// none is close: the nearest by edit distance, ignoring case, within a
// third of key's length plus two. Ties go to the earlier known key.
func Suggest(key string, known []string) string {
	folded := make([]string, len(known))
	for i, k := range known {
		folded[i] = strings.ToLower(k)
	}
	best := spelling.Closest(strings.ToLower(key), folded, len(key)/3+2)
	if best == "" {
		return ""
	}
	return known[slices.Index(folded, best)]
}

// Key is the path of member key of the value at path: key itself at the
// top (path ""), else path.key.
func Key(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Index is the path of element i of the array at path: path[i].
func Index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}
