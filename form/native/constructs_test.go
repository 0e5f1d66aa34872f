package native

import (
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/google/go-cmp/cmp"
)

// TestConstructRoundTrip answers the dialog's dotted properties as a client
// sends them back and checks that collect folds them into each construct's
// answer; every property it sends is one Render asked for.
func TestConstructRoundTrip(t *testing.T) {
	tests := []struct {
		form    string
		content map[string]any
		want    map[string]any
	}{
		{"triage", map[string]any{"findings.sqli": "fix now", "findings.Unused import in the util package": "dismiss", "findings.race": "defer"},
			map[string]any{"findings": map[string]string{"sqli": "fix now", "Unused import in the util package": "dismiss", "race": "defer"}}},
		{"assumptions", map[string]any{"assumed.go": "accept", "assumed.go.text": "", "assumed.db": "edit", "assumed.db.text": "PostgreSQL and Redis",
			"assumed.Deploys go through the CI pipeline": "reject"},
			map[string]any{"assumed": map[string]any{"go": "accept", "db": map[string]any{"edit": "PostgreSQL and Redis"}, "Deploys go through the CI pipeline": "reject"}}},
		{"ranking", map[string]any{"themes.1": "Performance", "themes.2": "Reliability", "themes.3": "Onboarding", "hires.1": "SRE", "hires.2": "Design"},
			map[string]any{"themes": []string{"Performance", "Reliability", "Onboarding"}, "hires": []string{"SRE", "Design"}}},
		{"confirm", map[string]any{"drop": "Approve", "deploy": "Hold"}, map[string]any{"drop": "Approve", "deploy": "Hold"}},
		{"deliberation", map[string]any{"engine": "SQLite"}, map[string]any{"engine": "SQLite"}},
	}
	for _, tt := range tests {
		t.Run(tt.form, func(t *testing.T) {
			f := formtest.MustParse(t, formtest.Forms(t)[tt.form])
			props := map[string]bool{}
			for _, p := range Render(f).Schema.Properties {
				props[p.Name] = true
			}
			for k := range tt.content {
				if !props[k] {
					t.Errorf("the answer %q has no property in the dialog", k)
				}
			}
			r, err := form.Collect(f, Answers(f, tt.content), nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, r.Responses); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
		})
	}
}
