package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestDocsStartJSONSamples: the `deliberate start --json` samples of
// docs/deliberation.md's worked example and of the README name the keys
// the command prints, in its order; the worked example's id and notes are
// the real ones (its prompt is abbreviated).
func TestDocsStartJSONSamples(t *testing.T) {
	home := t.TempDir()
	os.Chmod(home, 0o700)
	t.Setenv("ELICIT_HOME", home)
	t.Setenv("ELICIT_NOW", "2026-01-31T17:15:00Z")
	const cmd = "elicit deliberate start --question 'Should the importer retry on HTTP 429?' --fact 'no new infrastructure' --json"
	var stdout, stderr bytes.Buffer
	if code := Run([]string{"deliberate", "start", "--question", "Should the importer retry on HTTP 429?", "--fact", "no new infrastructure", "--json"},
		strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("start: exit %d: %s", code, stderr.String())
	}
	realKeys, real := jsonKeys(t, stdout.Bytes())

	page, err := os.ReadFile("../../docs/deliberation.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(page), cmd+"\n# ")
	if !ok {
		t.Fatalf("docs/deliberation.md has no sample after %q", cmd)
	}
	line, _, _ := strings.Cut(after, "\n")
	keys, sample := jsonKeys(t, []byte(line))
	if strings.Join(keys, ",") != strings.Join(realKeys, ",") {
		t.Errorf("docs/deliberation.md: the start sample has the keys %q, start prints %q", keys, realKeys)
	}
	for _, k := range []string{"id", "notes"} {
		if got, want := string(sample[k]), string(real[k]); got != want {
			t.Errorf("docs/deliberation.md: the start sample's %s is %s, start prints %s", k, got, want)
		}
	}

	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := `elicit deliberate start --question 'Should the importer retry on HTTP 429?' --json   # {"` + strings.Join(realKeys, `","`) + `"}`
	if !strings.Contains(string(readme), want) {
		t.Errorf("README lacks the start line with the keys start prints:\n%s", want)
	}
}

// jsonKeys returns an object's keys in their order, and its values.
func jsonKeys(t *testing.T, data []byte) ([]string, map[string]json.RawMessage) {
	t.Helper()
	var values map[string]json.RawMessage
	if err := json.Unmarshal(data, &values); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.Token()
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	for k, v := range values {
		var compact bytes.Buffer
		json.Compact(&compact, v)
		values[k] = compact.Bytes()
	}
	return keys, values
}

// TestDeliberateStartQuestionCap: the CLI refuses a question over the cap
// with the problem the library and the MCP tool give, and starts nothing.
func TestDeliberateStartQuestionCap(t *testing.T) {
	home := t.TempDir()
	os.Chmod(home, 0o700)
	t.Setenv("ELICIT_HOME", home)
	var stdout, stderr bytes.Buffer
	code := Run([]string{"deliberate", "start", "--question", strings.Repeat("q", 64<<10+1)}, strings.NewReader(""), &stdout, &stderr)
	want := "question: is 65537 bytes, over the cap of 64 KiB for a deliberation's question (every prompt may carry it): keep it short and put longer material in a file the consultee reads (its absolute path in paths, --path)"
	if code != 1 || !strings.Contains(stderr.String(), want) {
		t.Errorf("exit %d, stderr %q, want exit 1 and %q", code, stderr.String(), want)
	}
	if entries, _ := os.ReadDir(home + "/deliberations"); len(entries) != 0 {
		t.Errorf("a refused start wrote %v", entries)
	}
}
