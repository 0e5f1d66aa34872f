package codex

import (
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/google/go-cmp/cmp"
)

// askedInParts reports whether every row or rank slot of an expanding
// field is asked.
func askedInParts(asked map[string]bool, f *form.Field) bool {
	parts := f.Parts()
	for _, p := range parts {
		if !asked[p.Field.ID] {
			return false
		}
	}
	return len(parts) > 0
}

// TestConstructRoundTrip answers every question a construct expands into
// as request_user_input reports it ({id: {answers: [label or Other
// text]}}) and checks that collect folds them back.
func TestConstructRoundTrip(t *testing.T) {
	tests := []struct {
		form    string
		answers func(r *Result) map[string]any
		want    map[string]any
	}{
		{"triage", func(r *Result) map[string]any {
			return map[string]any{"findings_sqli": pick("fix now (Recommended)"), "findings_unused_import_in_the_util_package": pick("defer"),
				"findings_race": pick("dismiss")}
		}, map[string]any{"findings": map[string]string{"sqli": "fix now", "Unused import in the util package": "defer", "race": "dismiss"}}},
		{"assumptions", func(r *Result) map[string]any {
			return map[string]any{"assumed_go": pick("accept (Recommended)"), "assumed_db": pick("PostgreSQL and Redis"),
				"assumed_deploys_go_through_the_ci_pipeline": pick("reject")}
		}, map[string]any{"assumed": map[string]any{"go": "accept", "db": map[string]any{"edit": "PostgreSQL and Redis"}, "Deploys go through the CI pipeline": "reject"}}},
		{"ranking", func(r *Result) map[string]any {
			return map[string]any{"themes_1": pick("Onboarding"), "themes_2": pick("Reliability"), "themes_3": pick("Performance (Recommended)"),
				"hires_1": pick("Group 1"), "hires_1_group_1": pick("SRE"), "hires_2": pick("Group 2"), "hires_2_group_2": pick("Data")}
		}, map[string]any{"themes": []string{"Onboarding", "Reliability", "Performance"}, "hires": []string{"SRE", "Data"}}},
	}
	for _, tt := range tests {
		t.Run(tt.form, func(t *testing.T) {
			f := formtest.MustParse(t, formtest.Forms(t)[tt.form])
			r := Render(f)
			if len(r.Unsupported) > 0 {
				t.Fatalf("unsupported: %+v", r.Unsupported)
			}
			answers, err := Answers(f, tt.answers(r))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := form.Collect(f, answers, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, resp.Responses); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
		})
	}
}

func pick(label string) map[string]any { return map[string]any{"answers": []any{label}} }
