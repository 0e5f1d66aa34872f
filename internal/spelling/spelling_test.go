package spelling

import "testing"

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
