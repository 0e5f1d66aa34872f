package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHome(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
		err  string
	}{
		{map[string]string{"ELICIT_HOME": "/x/e", "HOME": "/h"}, "/x/e", ""},
		{map[string]string{"HOME": "/h"}, "/h/.elicit", ""},
		{map[string]string{}, "", "neither ELICIT_HOME nor HOME is set"},
	}
	for _, tt := range tests {
		got, err := Home(func(k string) string { return tt.env[k] })
		if got != tt.want || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("Home(%v) = %q, %v", tt.env, got, err)
		}
	}
}

// TestTightenHome: a home directory open to others becomes 0700 with a
// notice (an existing 0777 home used to stay 0777); a private one, or a
// missing one, is left alone.
func TestTightenHome(t *testing.T) {
	tests := []struct {
		mode   os.FileMode
		notice string
	}{
		{0o777, "from 0777 to 0700"},
		{0o755, "from 0755 to 0700"},
		{0o701, "from 0701 to 0700"},
		{0o700, ""},
		{0o500, ""},
	}
	for _, tt := range tests {
		dir := filepath.Join(t.TempDir(), "home")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, tt.mode); err != nil {
			t.Fatal(err)
		}
		notice, err := TightenHome(dir)
		if err != nil || (tt.notice == "") != (notice == "") || !strings.Contains(notice, tt.notice) {
			t.Errorf("%04o: notice %q, %v; want %q", tt.mode, notice, err, tt.notice)
		}
		if strings.Contains(notice, "\n") {
			t.Errorf("the notice is more than one line: %q", notice)
		}
		want := tt.mode
		if tt.notice != "" {
			want = HomeMode
		}
		if fi, _ := os.Stat(dir); fi.Mode().Perm() != want {
			t.Errorf("%04o: now %04o, want %04o", tt.mode, fi.Mode().Perm(), want)
		}
	}
	missing := filepath.Join(t.TempDir(), "missing")
	if notice, err := TightenHome(missing); notice != "" || err != nil {
		t.Errorf("missing: %q, %v", notice, err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("TightenHome created %s", missing)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := TightenHome(file); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("file: %v", err)
	}
}
