package markdown

import (
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/google/go-cmp/cmp"
)

// TestConstructReplies reads typed replies to the constructs that take one
// answer per row or rank slot, and checks what collect makes of them.
func TestConstructReplies(t *testing.T) {
	forms := formtest.Forms(t)
	// Row keys holding ", " and ": " (a row without an id is keyed by its
	// label), answered exactly as the template prints them.
	forms["colon-rows"] = []byte(`{"title":"t","fields":[{"id":"f","text":"Rule each","type":"triage","dispositions":["fix","skip"],
		"triage_items":[{"id":"ünïcode_row_identifier","label":"Row one"},{"label":"Row, without id: yes"}]},
		{"id":"g","text":"And these","type":"triage","dispositions":["fix","defer"],"triage_items":[{"label":"Row, without id: yes"}]}]}`)
	tests := []struct {
		name, form, reply string
		want              map[string]any
		probs             []string
	}{
		// "skip" is a ruling here, not no answer.
		{"row keys with colons", "colon-rows", "f.ünïcode_row_identifier: skip\nf.Row, without id: yes: skip\ng.Row, without id: yes: 2",
			map[string]any{"f": map[string]string{"ünïcode_row_identifier": "skip", "Row, without id: yes": "skip"},
				"g": map[string]string{"Row, without id: yes": "defer"}}, nil},
		// Where "skip" is no ruling, its line says so: never dropped silently.
		{"none word on a required row", "colon-rows", "f.ünïcode_row_identifier: 1\nf.Row, without id: yes: 2\ng.Row, without id: yes: skip", nil, []string{
			`answers.g.Row, without id: yes: reply line 3: "skip" is no answer, but row "Row, without id: yes" needs one (fix, defer)`,
		}},
		{"triage by name and number", "triage", "findings.sqli: fix now\nfindings.unused import in the util package: 3\n- `findings.race`: defer\nnotes: 2",
			map[string]any{"findings": map[string]string{"sqli": "fix now", "Unused import in the util package": "dismiss", "race": "defer"}, "notes": "Re-run the scan"}, nil},
		{"triage row missing", "triage", "findings.sqli: fix now\nfindings.race: 2", nil, []string{
			`answers.findings: no ruling for "Unused import in the util package" (every row needs one)`,
		}},
		{"triage bad ruling", "triage", "findings.sqli: later\nfindings.race: 2\nFindings.Unused-import-in-the-util-package: defer", nil, []string{
			`answers.findings.sqli: reply line 1: "later" is not one of the options (1 "fix now", 2 "defer", 3 "dismiss")`,
		}},
		{"ranking on one line", "ranking", "themes: 3, 1, Onboarding\nhires: SRE > data",
			map[string]any{"themes": []string{"Performance", "Reliability", "Onboarding"}, "hires": []string{"SRE", "Data"}}, nil},
		{"ranking by slot", "ranking", "themes.1: Onboarding\nthemes.2: 1\nthemes.3: performance",
			map[string]any{"themes": []string{"Onboarding", "Reliability", "Performance"}}, nil},
		{"ranking too short", "ranking", "themes: 3, 1", nil, []string{
			"answers.themes: ranks 2 option(s); rank exactly 3 (every option)",
		}},
		{"assumptions", "assumptions", "assumed.go: accept\nassumed.db: PostgreSQL and Redis\nassumed.deploys go through the ci pipeline: 2",
			map[string]any{"assumed": map[string]any{"go": "accept", "db": map[string]any{"edit": "PostgreSQL and Redis"}, "Deploys go through the CI pipeline": "reject"}}, nil},
		{"assumption edit prefix", "assumptions", "assumed.go: edit: Go 1.25\nassumed.db: 1\nassumed.Deploys go through the CI pipeline: accept",
			map[string]any{"assumed": map[string]any{"go": map[string]any{"edit": "Go 1.25"}, "db": "accept", "Deploys go through the CI pipeline": "accept"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := formtest.MustParse(t, forms[tt.form])
			answers, err := Parse(f, tt.reply, nil)
			var r *form.Response
			if err == nil {
				r, err = form.Collect(f, answers, nil)
			}
			if tt.probs != nil {
				if err == nil {
					t.Fatalf("no problems: %v", r.Responses)
				}
				if diff := cmp.Diff(tt.probs, problemStrings(err)); diff != "" {
					t.Errorf("problems (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, r.Responses); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
		})
	}
}

func problemStrings(err error) []string {
	if l, ok := err.(interface{ Strings() []string }); ok {
		return l.Strings()
	}
	return []string{err.Error()}
}
