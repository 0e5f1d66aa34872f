package spelling

import (
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "ab", 2}, {"maximun", "maximum", 1}, {"kitten", "sitting", 3}, {"same", "same", 0},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	keys := []string{"iteration", "response", "points"}
	tests := []struct {
		word   string
		within int
		want   string
	}{
		{"respons", 3, "response"},
		{"iteratoin", 3, "iteration"},
		{"zzz", 3, ""},
		{"point", 1, ""},
		{"point", 2, "points"},
	}
	for _, tt := range tests {
		if got := Closest(tt.word, keys, tt.within); got != tt.want {
			t.Errorf("Closest(%q, %d) = %q, want %q", tt.word, tt.within, got, tt.want)
		}
	}
}

func TestDistanceLong(t *testing.T) {
	a := strings.Repeat("ab", 40)
	if got := Distance(a, a+"c"); got != 1 {
		t.Errorf("Distance of 80 and 81 bytes = %d, want 1", got)
	}
	if got := Distance(a[:63], a[:60]); got != 3 {
		t.Errorf("Distance of 63 and 60 bytes = %d, want 3", got)
	}
}

// TestClosestLongWord: a word far longer than every candidate cannot be
// close to one, and costs no edit-distance table (a megabyte-long unknown
// key once cost a megabyte-wide table per candidate).
func TestClosestLongWord(t *testing.T) {
	word := strings.Repeat("x", 1<<20)
	keys := []string{"iteration", "response", "points"}
	allocs := testing.AllocsPerRun(3, func() {
		if got := Closest(word, keys, len(word)/3+2); got != "" {
			t.Fatalf("got %q", got)
		}
	})
	if allocs != 0 {
		t.Errorf("Closest allocated %v times, want 0", allocs)
	}
}
