package term

import (
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/internal/golden"
	"github.com/elicit/elicit/internal/termui/termuitest"
	"github.com/google/go-cmp/cmp"
)

// TestAskConstructs answers the constructs that take one answer per row or
// rank slot on the interactive widgets and line by line, and checks what
// collect makes of the answers and what a person saw.
func TestAskConstructs(t *testing.T) {
	tests := []struct {
		form, keys, lines string
		want              map[string]any
	}{
		// sqli: keep the suggestion; the util row: "dismiss" is first; race: defer.
		{"triage", enter + enter + down + enter + enter, "\n\n2\n\n",
			map[string]any{"findings": map[string]string{"sqli": "fix now", "Unused import in the util package": "dismiss", "race": "defer"}}},
		// themes: the proposal slot by slot (each slot offers what is left);
		// hires: skipped (optional).
		{"ranking", enter + enter + enter + strings.Repeat(down, 6) + enter, "\n\n\n\n",
			map[string]any{"themes": []string{"Reliability", "Performance", "Onboarding"}}},
		// go: accept (suggested); db: edit… then the text; the CI row: reject.
		{"assumptions", enter + down + down + enter + "PostgreSQL and Redis" + enter + down + enter, "\nPostgreSQL and Redis\nreject\n",
			map[string]any{"assumed": map[string]any{"go": "accept", "db": map[string]any{"edit": "PostgreSQL and Redis"}, "Deploys go through the CI pipeline": "reject"}}},
	}
	forms := formtest.Forms(t)
	for _, tt := range tests {
		t.Run(tt.form, func(t *testing.T) {
			f := formtest.MustParse(t, forms[tt.form])
			scr := &termuitest.Screen{}
			got, err := Ask(f, NewSession(strings.NewReader(tt.keys), scr, 81))
			if err != nil {
				t.Fatalf("Ask: %v\n%s", err, scr)
			}
			r, err := form.Collect(f, got, nil)
			if err != nil {
				t.Fatalf("Collect: %v (answers %v)\n%s", err, got, scr)
			}
			if diff := cmp.Diff(tt.want, r.Responses); diff != "" {
				t.Errorf("widgets: responses (-want +got):\n%s", diff)
			}
			golden.Check(t, tt.form+".txt", []byte(scr.String()))

			var out strings.Builder
			got, err = AskLines(f, strings.NewReader(tt.lines), &out)
			if err != nil {
				t.Fatalf("AskLines: %v\n%s", err, out.String())
			}
			if r, err = form.Collect(f, got, nil); err != nil {
				t.Fatalf("Collect: %v (answers %v)\n%s", err, got, out.String())
			}
			if diff := cmp.Diff(tt.want, r.Responses); diff != "" {
				t.Errorf("lines: responses (-want +got):\n%s", diff)
			}
			golden.Check(t, "lines-"+tt.form+".txt", []byte(out.String()))
		})
	}
}
