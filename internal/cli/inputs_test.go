package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// contractAnswers writes answers to the session-contract template in a
// temporary folder, which is $ELICIT_HOME too, and returns their path.
func contractAnswers(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.json")
	if err := os.WriteFile(answers, []byte(`{"mode": "Fix what is broken", "outcome": "o", "done_when": "d"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ELICIT_HOME", dir)
	return answers
}

// TestTemplateIDFlag: --template-id takes what templates save takes; a line
// break (which testscript cannot pass) is a usage error, not a broken row
// in responses list.
func TestTemplateIDFlag(t *testing.T) {
	answers := contractAnswers(t)
	tests := []struct {
		id     string
		code   int
		stderr string
	}{
		{"retro-2", 0, ""},
		{"a\nb", 2, `elicit: --template-id "a\nb" must be lower-case letters, digits and dashes, starting with a letter or digit`},
		{"x\r", 2, `elicit: --template-id "x\r" must be`},
		{"../etc", 2, `elicit: --template-id "../etc" must be`},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := Run([]string{"form", "collect", "--template", "session-contract", "--slot", "project=p", "--template-id", tt.id, answers},
			strings.NewReader(""), &out, &errOut)
		if code != tt.code || !strings.HasPrefix(errOut.String(), tt.stderr) {
			t.Errorf("--template-id %q: exit %d, stderr %q; want %d, %q", tt.id, code, errOut.String(), tt.code, tt.stderr)
		}
	}
}

// TestSummaryTakesALogRecord: the record responses show --json prints is a
// response for form summary, with its id (it failed with 14 problems).
func TestSummaryTakesALogRecord(t *testing.T) {
	answers := contractAnswers(t)
	tpl := []string{"--template", "session-contract", "--slot", "project=p"}
	run := func(stdin string, args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := Run(args, strings.NewReader(stdin), &out, &errOut); code != 0 {
			t.Fatalf("elicit %s: exit %d: %s", strings.Join(args, " "), code, errOut.String())
		}
		return out.String()
	}
	var collected struct {
		ResponseID string `json:"response_id"`
	}
	if err := json.Unmarshal([]byte(run("", append(append([]string{"form", "collect"}, tpl...), answers)...)), &collected); err != nil {
		t.Fatal(err)
	}
	record := run("", "responses", "show", collected.ResponseID, "--json")
	got := run(record, append(append([]string{"form", "summary"}, tpl...), "-")...)
	want := "**Session contract: p** — answered (" + collected.ResponseID + ")\n"
	if !strings.HasPrefix(got, want) || !strings.Contains(got, "**Fix what is broken**") {
		t.Errorf("summary of the record:\n%s\nwant it to start %q", got, want)
	}
}

// TestUsageErrorPointsAtItsCommand: a usage error names the help of the
// command that failed, not always the root's.
func TestUsageErrorPointsAtItsCommand(t *testing.T) {
	tests := []struct {
		args []string
		help string
	}{
		{[]string{"bogus"}, "elicit --help"},
		{[]string{"--bogus"}, "elicit --help"},
		{[]string{"methods", "bogus"}, "elicit methods --help"},
		{[]string{"methods", "list", "--tier", "0"}, "elicit methods list --help"},
		{[]string{"methods", "list", "--bogus"}, "elicit methods list --help"},
		{[]string{"form", "collect"}, "elicit form collect --help"},
		{[]string{"config", "get", "nope"}, "elicit config get --help"},
	}
	for _, tt := range tests {
		var errOut bytes.Buffer
		code := Run(tt.args, strings.NewReader(""), io.Discard, &errOut)
		want := "\nRun '" + tt.help + "' for usage.\n"
		if code != 2 || !strings.HasSuffix(errOut.String(), want) {
			t.Errorf("elicit %s: exit %d, stderr %q; want 2 and %q", strings.Join(tt.args, " "), code, errOut.String(), want)
		}
	}
}

// TestRepeatedFlagsKeepCommas: each value of a repeatable flag is one
// value as given, commas and all, not a list split at them.
func TestRepeatedFlagsKeepCommas(t *testing.T) {
	t.Setenv("ELICIT_HOME", t.TempDir())
	tests := []struct {
		args []string
		want string // in stdout
	}{
		{[]string{"form", "render", "--template", "session-contract", "--slot", "project=a, b"}, `"title": "Session contract: a, b"`},
		{[]string{"deliberate", "start", "--question", "q", "--fact", "x, y", "--fact", "z"}, "- F1 [user]: x, y\n- F2 [user]: z\n"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		if code := Run(tt.args, strings.NewReader(""), &out, &errOut); code != 0 || !strings.Contains(out.String(), tt.want) {
			t.Errorf("elicit %q: exit %d, stderr %q; want stdout with %q in:\n%s", tt.args, code, errOut.String(), tt.want, out.String())
		}
	}
}
