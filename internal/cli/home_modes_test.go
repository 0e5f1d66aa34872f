package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHomeFilesArePrivate runs commands that keep something in the home
// (a collect and a render logged, stats ingesting them into the database,
// a template saved from the log, a deliberation started) and checks the
// mode of every file and folder there: the user's alone (0600, 0700).
func TestHomeFilesArePrivate(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	t.Setenv("ELICIT_HOME", filepath.Join(home, ".elicit"))
	t.Setenv("HOME", home)
	t.Setenv("ELICIT_LOG", "")
	t.Setenv("ELICIT_TEMPLATES", "")
	form := filepath.Join(work, "form.json")
	answers := filepath.Join(work, "answers.json")
	os.WriteFile(form, []byte(`{"title": "Pick a cache", "fields": [{"id": "a", "text": "Which?", "type": "single_select", "options": ["redis", "memcached"]}]}`), 0o644)
	os.WriteFile(answers, []byte(`{"a": "redis"}`), 0o644)
	run := func(args ...string) string {
		t.Helper()
		var out, errOut strings.Builder
		if code := Run(args, strings.NewReader(""), &out, &errOut); code != 0 {
			t.Fatalf("elicit %s: exit %d: %s", strings.Join(args, " "), code, errOut.String())
		}
		return out.String()
	}
	for range 3 {
		run("form", "render", form)
		run("form", "collect", form, answers)
	}
	run("stats")
	run("responses", "export", "--json")
	run("deliberate", "start", "--question", "Where should retries live?", "--interpretation", "in the importer",
		"--interpretation", "in the scheduler", "--path", "/srv/importer/client.py", "--shape", "a concrete place", "--tangents", "none")
	files := 0
	filepath.WalkDir(filepath.Join(home, ".elicit"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		fi, err := d.Info()
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s is %v: others may read it", path, fi.Mode().Perm())
		}
		if !d.IsDir() {
			files++
		}
		return nil
	})
	if files < 3 {
		t.Errorf("only %d files in the home", files)
	}
}
