package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDirectBehavesAsCobra runs the calls Run runs directly (isDirect) both
// ways, directly and through cobra's ExecuteC, and compares what they print
// and their exit codes: valid and broken inputs, missing files, too few and
// too many arguments.
func TestDirectBehavesAsCobra(t *testing.T) {
	home := t.TempDir()
	if err := os.Chmod(home, 0o700); err != nil { // private already: no notice on the first call only
		t.Fatal(err)
	}
	t.Setenv("ELICIT_HOME", home)
	t.Setenv("ELICIT_NOW", "2026-01-31T17:15:00Z")
	dir := t.TempDir()
	write := func(name, data string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	form := write("form.json", `{"title": "T", "fields": [{"id": "a", "text": "A?", "type": "boolean"}, {"id": "n", "text": "How many?", "type": "number", "minimum": 1}]}`)
	broken := write("broken.json", `{"title": "T", "fields": [{"id": "a", "type": "boolean"}]}`)
	notJSON := write("not.json", `{"title": `)
	answers := write("answers.json", `{"a": true, "n": 3}`)
	wrong := write("wrong.json", `{"a": "maybe", "n": 0, "x": 1}`)
	missing := filepath.Join(dir, "missing.json")
	if code := Run([]string{"deliberate", "start", "--question", "Retry on 429?"}, strings.NewReader(""), &strings.Builder{}, &strings.Builder{}); code != 0 {
		t.Fatalf("deliberate start: exit %d", code)
	}
	calls := [][]string{
		{"form", "validate", form}, {"form", "validate", broken}, {"form", "validate", notJSON}, {"form", "validate", missing},
		{"form", "validate", dir}, {"form", "validate"}, {"form", "validate", form, form},
		{"form", "render", form}, {"form", "render", broken}, {"form", "render", missing}, {"form", "render"},
		{"form", "collect", form, answers}, {"form", "collect", form, wrong}, {"form", "collect", broken, answers},
		{"form", "collect", form, missing}, {"form", "collect", form}, {"form", "collect", form, answers, answers},
		{"form", "summary", form, answers}, {"form", "summary", form, wrong}, {"form", "summary", form},
		{"deliberate", "status", "20260131-171500"}, {"deliberate", "status", "nope"}, {"deliberate", "status"},
		{"deliberate", "status", "a", "b"},
	}
	resp := regexp.MustCompile(`resp-\d{8}-\d{6}-[0-9a-f]{8}`)
	for _, args := range calls {
		t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
			if !isDirect(args) {
				t.Fatalf("%q is not a direct call", args)
			}
			direct := resp.ReplaceAllString(runOnce(args, nil, ""), "resp-X")
			cobra := resp.ReplaceAllString(runOnce(args, groupsFor(args), ""), "resp-X")
			if direct != cobra {
				t.Errorf("directly:\n%s\nthrough cobra:\n%s", direct, cobra)
			}
		})
	}
}

func TestIsDirect(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"form", "render", "f.json"}, true},
		{[]string{"form", "render"}, true},
		{[]string{"deliberate", "status", "x"}, true},
		{[]string{"form", "render", "-"}, false},
		{[]string{"form", "render", "f.json", "--surface", "widget"}, false},
		{[]string{"form", "render", "--", "f.json"}, false},
		{[]string{"form", "render", "-h"}, false},
		{[]string{"form", "ask", "f.json"}, false},
		{[]string{"form"}, false},
		{[]string{"methods", "select"}, false},
		{[]string{"--project", "p", "form", "render", "f.json"}, false},
	} {
		if got := isDirect(tc.args); got != tc.want {
			t.Errorf("isDirect(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
