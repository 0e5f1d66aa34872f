package cli

import (
	"fmt"
	"strings"
	"testing"
	"text/tabwriter"
)

// TestStreamTableIsTabwritersUpToABlock checks that a table of up to
// tableBlock rows prints as tabwriter would, and that a longer one keeps
// the first block's widths.
func TestStreamTableIsTabwritersUpToABlock(t *testing.T) {
	rows := [][]string{{"RESPONSE", "TIME", "TITLE"}, {"resp-1", "2026-12-03 05:00", "Storage"}, {"r", "é-wide-ünïcode", ""}, {"", "", "last"}}
	var want, got strings.Builder
	tw := tabwriter.NewWriter(&want, 0, 4, 2, ' ', 0)
	st := &streamTable{w: &got}
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
		if err := st.row(r...); err != nil {
			t.Fatal(err)
		}
	}
	tw.Flush()
	st.flush()
	if got.String() != want.String() {
		t.Errorf("got\n%s\nwant tabwriter's\n%s", got.String(), want.String())
	}

	got.Reset()
	st = &streamTable{w: &got}
	for i := range tableBlock + 2 {
		st.row(fmt.Sprint(i), "x")
	}
	st.row("a much longer cell than the others", "y")
	st.flush()
	lines := strings.Split(strings.TrimSuffix(got.String(), "\n"), "\n")
	if len(lines) != tableBlock+3 || lines[0] != "0     x" || lines[tableBlock+1] != "1001  x" || lines[tableBlock+2] != "a much longer cell than the others  y" {
		t.Errorf("%d lines: %q … %q", len(lines), lines[0], lines[len(lines)-2:])
	}
}
