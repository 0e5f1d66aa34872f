package config

import (
	"os"
	"strings"
	"testing"
)

func TestDatabaseFor(t *testing.T) {
	for _, tc := range []struct {
		name, file, env   string
		url, source, fail string
		warn              string
	}{
		{name: "embedded by default", source: "default"},
		{name: "from the settings file", file: `{"database_url": "postgres://db.example/elicit"}`, url: "postgres://db.example/elicit", source: "FILE"},
		{name: "the environment wins", file: `{"database_url": "postgres://a/x"}`, env: "postgresql://b/y", url: "postgresql://b/y", source: DatabaseURLEnv},
		{name: "an empty setting is the default", file: `{"database_url": " "}`, source: "default"},
		{name: "not PostgreSQL", env: "mysql://u:secret@h/db", fail: `ELICIT_DATABASE_URL: "mysql://u:xxxxx@h/db" is not a PostgreSQL URL`},
		{name: "not a string", file: `{"database_url": 5}`, fail: `database_url must be a string such as "postgres://host/elicit" (got 5)`},
		{name: "a password in the file", file: `{"database_url": "postgres://me:secret@h/db"}`, url: "postgres://me:secret@h/db", source: "FILE", warn: "holds a password: keep it in PGPASSWORD or ~/.pgpass instead"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.file != "" {
				if err := os.WriteFile(Path(dir), []byte(tc.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d, err := DatabaseFor(dir, func(k string) string {
				if k == DatabaseURLEnv {
					return tc.env
				}
				return ""
			})
			if tc.fail != "" {
				if err == nil || !strings.Contains(err.Error(), tc.fail) || strings.Contains(err.Error(), "secret") {
					t.Fatalf("error %v, want one with %q and no password", err, tc.fail)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			source := strings.Replace(tc.source, "FILE", Path(dir), 1)
			if d.URL != tc.url || d.Source != source {
				t.Errorf("got %q from %q, want %q from %q", d.URL, d.Source, tc.url, source)
			}
			if got := strings.Join(d.Warnings, "\n"); tc.warn == "" && got != "" || !strings.Contains(got, tc.warn) {
				t.Errorf("warnings %q, want %q", got, tc.warn)
			}
		})
	}
}
