package deliberation

import (
	"regexp"
	"testing"
)

// The patterns the plain-code ID checks implement, as their oracles.
var (
	validIDRE     = regexp.MustCompile(`^[0-9]{8}-[0-9]{6}(?:[0-9]{3})?(?:-[0-9]+)?$`)
	challengeIDRE = regexp.MustCompile(`^C[1-9][0-9]*$`)
	pointIDRE     = regexp.MustCompile(`^P[1-9][0-9]*$`)
)

var idChecks = []struct {
	name   string
	check  func(string) bool
	oracle *regexp.Regexp
}{
	{"validID", validID, validIDRE},
	{"challenge", func(s string) bool { return numberedID('C', s) }, challengeIDRE},
	{"point", func(s string) bool { return numberedID('P', s) }, pointIDRE},
}

func TestIDChecks(t *testing.T) {
	for _, tc := range []struct {
		in                   string
		id, challenge, point bool
	}{
		{"20261130-161914", true, false, false},
		{"20261130-161914123", true, false, false},
		{"20261130-161914-2", true, false, false},
		{"20261130-161914123-10", true, false, false},
		{"20261130-1619141", false, false, false},
		{"20261130-161914-", false, false, false},
		{"20261130-161914-2-3", false, false, false},
		{"2026113-161914", false, false, false},
		{"20261130_161914", false, false, false},
		{"../20261130-161914", false, false, false},
		{"C1", false, true, false},
		{"C120", false, true, false},
		{"P7", false, false, true},
		{"C0", false, false, false},
		{"C01", false, false, false},
		{"C", false, false, false},
		{"c1", false, false, false},
		{"C1a", false, false, false},
		{"", false, false, false},
	} {
		for i, want := range []bool{tc.id, tc.challenge, tc.point} {
			c := idChecks[i]
			if got := c.check(tc.in); got != want {
				t.Errorf("%s(%q) = %t, want %t", c.name, tc.in, got, want)
			}
			if re := c.oracle.MatchString(tc.in); re != want {
				t.Errorf("%s: oracle disagrees with the table on %q: %t", c.name, tc.in, re)
			}
		}
	}
}

func FuzzIDChecks(f *testing.F) {
	for _, s := range []string{"20261130-161914", "20261130-161914123-4", "C12", "P1", "P0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range idChecks {
			if got, want := c.check(s), c.oracle.MatchString(s); got != want {
				t.Fatalf("%s(%q) = %t, regexp says %t", c.name, s, got, want)
			}
		}
	})
}
