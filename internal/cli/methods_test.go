package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseNums(t *testing.T) {
	tests := []struct {
		name, in string
		want     []int
		usage    bool
	}{
		{"one", "20", []int{20}, false},
		{"several with blanks", " 20, 11 ,", []int{20, 11}, false},
		{"empty", "", nil, false},
		{"not a num", "20,ToT", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseNums(tt.in)
			var u *usageError
			if errors.As(err, &u) != tt.usage {
				t.Fatalf("parseNums(%q) error = %v, want usage error %t", tt.in, err, tt.usage)
			}
			if diff := cmp.Diff(tt.want, got); !tt.usage && diff != "" {
				t.Errorf("parseNums(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestPickWithoutTerminal runs pick in-process with buffers, which are not
// terminals: it must not try to draw the form.
func TestPickWithoutTerminal(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Run([]string{"methods", "pick", "--phase", "forge:3", "--title", "Architecture Design"},
		strings.NewReader("\r"), &out, &errOut)
	if code != exitUsage || out.Len() != 0 || !strings.Contains(errOut.String(), "--choose NUM[,NUM...]") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 with the --choose hint", code, out.String(), errOut.String())
	}
}

// TestRegistryFromEnvironment checks that ELICIT_METHODS is read through
// the app's getenv, and that the flag wins over it.
func TestRegistryFromEnvironment(t *testing.T) {
	a := &app{getenv: func(k string) string {
		if k == "ELICIT_METHODS" {
			return "/nonexistent/methods.csv"
		}
		return ""
	}}
	if r := a.registry(&registryFlags{}); len(r.Methods) != 0 {
		t.Errorf("ELICIT_METHODS ignored: %d methods", len(r.Methods))
	}
	if r := a.registry(&registryFlags{registry: "/nonexistent/other.csv"}); !strings.Contains(r.WarningTexts()[0], "other.csv") {
		t.Errorf("--registry did not win: %q", r.WarningTexts())
	}
	a.getenv = func(string) string { return "" }
	if r := a.registry(&registryFlags{}); len(r.Methods) != 24 {
		t.Errorf("embedded registry: %d methods", len(r.Methods))
	}
}
