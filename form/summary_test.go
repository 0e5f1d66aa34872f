package form

import (
	"strings"
	"testing"
)

func TestSummary(t *testing.T) {
	f := mustParse(t, testForms(t)["six"])
	r, err := Collect(f, map[string]any{
		"platforms": []any{"linux", "macos"},
		"budget":    2.5,
		"ship_date": "2026-12-01",
		"notes":     "Use *bold* claims\nand [links](x) <b>sparingly</b> | ok_done",
	}, fixedCollectOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := `**Release plan** — answered (resp-20261130-070809-deadbeef)
- Which release track?: **stable**
- Which platforms ship?: **linux, macos**
- Announce on the mailing list?: **Yes**
- How many hours may it take?: **2.5**
- When should it ship?: **2026-12-01**
- Anything the release notes must say?: **Use \*bold\* claims / and \[links\](x) \<b\>sparingly\</b\> \| ok\_done**
`
	if got := Summary(f, r); got != want {
		t.Errorf("Summary =\n%s\nwant\n%s", got, want)
	}
}

func TestSummaryConstructs(t *testing.T) {
	forms := testForms(t)
	tests := []struct {
		form    string
		answers map[string]any
		want    string
	}{
		{"triage", map[string]any{"findings.sqli": "fix now", "findings.Unused import in the util package": "dismiss", "findings.race": "defer"},
			"- Rule on each finding: **String-built SQL in the login query: fix now; Unused import in the util package: dismiss; Counter updated without a lock: defer**\n"},
		{"ranking", map[string]any{"themes": []any{"Performance", "Reliability", "Onboarding"}},
			"- Order these themes by priority: **1. Performance; 2. Reliability; 3. Onboarding**\n"},
		{"assumptions", map[string]any{"assumed": map[string]any{"go": "accept", "db": map[string]any{"edit": "PostgreSQL and Redis"}, "Deploys go through the CI pipeline": "reject"}},
			"- I inferred these from the repository; rule on each: **The service targets Go 1.26: accept; PostgreSQL is the only database: edit → PostgreSQL and Redis; Deploys go through the CI pipeline: reject**\n"},
		{"confirm", map[string]any{"drop": "Approve", "deploy": "Hold"},
			"- Drop the staging database and rebuild it?: **Approve**\n- Deploy the rebuilt service to production afterwards?: **Hold**\n"},
	}
	for _, tt := range tests {
		f := mustParse(t, forms[tt.form])
		r, err := Collect(f, tt.answers, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.form, err)
		}
		_, lines, _ := strings.Cut(Summary(f, r), "\n")
		if lines != tt.want {
			t.Errorf("%s: summary lines =\n%s\nwant\n%s", tt.form, lines, tt.want)
		}
	}
}
