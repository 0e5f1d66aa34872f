package crossmodel

import (
	"regexp"
	"strings"
	"testing"
)

// simpleNameRE is the pattern simpleName implements, as the oracle.
var simpleNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)

func TestSimpleName(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"elicit", true},
		{"20261130-161914", true},
		{"a", true},
		{"A.b_c-9", true},
		{strings.Repeat("x", 100), true},
		{strings.Repeat("x", 101), false},
		{"", false},
		{".hidden", false},
		{"-flag", false},
		{"_x", false},
		{"a/b", false},
		{"a b", false},
		{"naïve", false},
		{"a\n", false},
	} {
		if got := simpleName(tc.in); got != tc.want {
			t.Errorf("simpleName(%q) = %t, want %t", tc.in, got, tc.want)
		}
		if re := simpleNameRE.MatchString(tc.in); re != tc.want {
			t.Errorf("oracle disagrees with the table on %q: %t", tc.in, re)
		}
	}
}

func FuzzSimpleName(f *testing.F) {
	for _, s := range []string{"elicit", "a.b", "-a", "", strings.Repeat("z", 100), "é", "a\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := simpleName(s), simpleNameRE.MatchString(s); got != want {
			t.Fatalf("simpleName(%q) = %t, regexp says %t", s, got, want)
		}
	})
}
