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

// TestEscapeMarkdownControlCharacters: control characters never reach
// markdown raw (a summary is often printed on a terminal); a person's answer
// stays intact in the response itself.
func TestEscapeMarkdownControlCharacters(t *testing.T) {
	tests := []struct{ in, want string }{
		{"T\x1b]0;pwned\aX\x1b[2J", `T\x1b\]0;pwned\x07X\x1b\[2J`},
		{"hidden\x1b[8m text", `hidden\x1b\[8m text`},
		{"c1\u009b2J del\x7f", `c1\u009b2J del\x7f`},
		{"line\r\nbreak\rhere\ttab", "line / break / here\ttab"},
		{"Safe \u202eBD dorp\u202c \u2067x\u2069 שלום\u200f", `Safe \u202eBD dorp\u202c \u2067x\u2069 שלום` + "\u200f"},
	}
	for _, tt := range tests {
		if got := EscapeMarkdown(tt.in); got != tt.want {
			t.Errorf("EscapeMarkdown(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	f := mustParse(t, []byte(`{"title": "T", "fields": [{"id": "a", "text": "A?", "type": "text_input"}]}`))
	r, err := Collect(f, map[string]any{"a": "x\x1b[2Jy"}, fixedCollectOptions())
	if err != nil || r.Responses["a"] != "x\x1b[2Jy" {
		t.Fatalf("the answer is not kept: %v, %v", r, err)
	}
	if got := Summary(f, r); strings.Contains(got, "\x1b") || !strings.Contains(got, `x\x1b\[2Jy`) {
		t.Errorf("Summary = %q", got)
	}
}
