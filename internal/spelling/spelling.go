// Package spelling finds the word a user most likely meant, for "did you
// mean" hints in validation errors.
package spelling

// Closest returns the candidate nearest to word by edit distance, if that
// distance is below within; otherwise "". Ties go to the earlier candidate.
func Closest(word string, candidates []string, within int) string {
	best := ""
	for _, c := range candidates {
		// The distance is at least the difference in length: skip
		// candidates that cannot be closer, so a long word costs nothing.
		if abs(len(word)-len(c)) >= within {
			continue
		}
		if d := Distance(word, c); d < within {
			best, within = c, d
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Distance is the Levenshtein distance between a and b, in bytes.
func Distance(a, b string) int {
	var buf [2 * 64]int // no allocation for words up to 63 bytes
	var prev, cur []int
	if len(b) < 64 {
		prev, cur = buf[:len(b)+1], buf[64:64+len(b)+1]
	} else {
		prev, cur = make([]int, len(b)+1), make([]int, len(b)+1)
	}
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
