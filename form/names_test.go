package form

import (
	"regexp"
	"testing"
)

// The patterns the plain-code checks implement, as their oracles.
var (
	dateRE         = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	templateNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	slotNameRE     = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)
)

var nameChecks = []struct {
	name   string
	check  func(string) bool
	oracle *regexp.Regexp
}{
	{"dateShaped", dateShaped, dateRE},
	{"validTemplateName", validTemplateName, templateNameRE},
	{"validSlotName", validSlotName, slotNameRE},
}

func TestNameChecks(t *testing.T) {
	for _, tc := range []struct {
		in                   string
		date, template, slot bool
	}{
		{"2026-12-01", true, true, true},
		{"0000-00-00", true, true, true},
		{"2026-1-01", false, true, true},
		{"2026-12-011", false, true, true},
		{"2026/12/01", false, false, false},
		{"２026-12-01", false, false, false},
		{"release-plan", false, true, true},
		{"ship_date", false, false, true},
		{"a", false, true, true},
		{"9", false, true, true},
		{"-x", false, false, false},
		{"_x", false, false, false},
		{"Release", false, false, false},
		{"../etc", false, false, false},
		{"a.json", false, false, false},
		{"", false, false, false},
	} {
		for i, want := range []bool{tc.date, tc.template, tc.slot} {
			c := nameChecks[i]
			if got := c.check(tc.in); got != want {
				t.Errorf("%s(%q) = %t, want %t", c.name, tc.in, got, want)
			}
			if re := c.oracle.MatchString(tc.in); re != want {
				t.Errorf("%s: oracle disagrees with the table on %q: %t", c.name, tc.in, re)
			}
		}
	}
}

func FuzzNameChecks(f *testing.F) {
	for _, s := range []string{"2026-12-01", "release-plan", "ship_date", "-", "1999-99-99\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range nameChecks {
			if got, want := c.check(s), c.oracle.MatchString(s); got != want {
				t.Fatalf("%s(%q) = %t, regexp says %t", c.name, s, got, want)
			}
		}
	})
}
