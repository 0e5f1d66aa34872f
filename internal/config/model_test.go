package config

import (
	"regexp"
	"testing"
)

// codexModelRE is CodexModelAllowlist compiled, as the oracle for
// ValidCodexModel.
var codexModelRE = regexp.MustCompile(CodexModelAllowlist)

func TestValidCodexModel(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"gpt-5-codex", true},
		{"gpt-5.3-codex", true},
		{"gpt-5.12-codex-spark", true},
		{"gpt-5-codex-spark", true},
		{"gpt-5.-codex", false},
		{"gpt-5.x-codex", false},
		{"gpt-5.3-codex-sparkle", false},
		{"gpt-5.3-codex\n", false},
		{"gpt-4.1-codex", false},
		{"gpt-5.3", false},
		{"gpt-5.3-codex-", false},
		{"", false},
	} {
		if got := ValidCodexModel(tc.in); got != tc.want {
			t.Errorf("ValidCodexModel(%q) = %t, want %t", tc.in, got, tc.want)
		}
		if re := codexModelRE.MatchString(tc.in); re != tc.want {
			t.Errorf("oracle disagrees with the table on %q: %t", tc.in, re)
		}
	}
}

func FuzzValidCodexModel(f *testing.F) {
	for _, s := range []string{"gpt-5-codex", "gpt-5.3-codex-spark", "gpt-5.", "gpt-5.1.2-codex"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ValidCodexModel(s), codexModelRE.MatchString(s); got != want {
			t.Fatalf("ValidCodexModel(%q) = %t, regexp says %t", s, got, want)
		}
	})
}
