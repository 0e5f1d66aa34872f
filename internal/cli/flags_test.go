package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestRepeatable checks the repeatable flag against what pflag's
// StringArray did: every value kept as given (commas too), in order; no
// default shown in help; the kind named "stringArray".
func TestRepeatable(t *testing.T) {
	var got, want []string
	cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }}
	cmd.Flags().Var(repeatable{&got}, "new", "a value (repeatable)")
	cmd.Flags().StringArrayVar(&want, "old", nil, "a value (repeatable)")
	cmd.SetArgs([]string{"--new", "a,b", "--old", "a,b", "--new=c", "--old=c", "--new", "", "--old", ""})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != 3 {
		t.Fatalf("repeatable kept %q, StringArray %q", got, want)
	}
	usage := cmd.Flags().FlagUsages()
	line := map[string]string{}
	for _, l := range strings.Split(usage, "\n") {
		for _, name := range []string{"--new", "--old"} {
			if strings.Contains(l, name) {
				line[name] = l
			}
		}
	}
	if line["--new"] == "" || strings.Replace(line["--new"], "new", "old", 1) != line["--old"] {
		t.Fatalf("help differs from StringArray's:\n%s", usage)
	}
	if strings.Contains(usage, "default") {
		t.Fatalf("help shows a default:\n%s", usage)
	}
}
