package responselog

import (
	"os"
	"path/filepath"
	"testing"
)

func TestNormalizeRemote(t *testing.T) {
	for in, want := range map[string]string{
		"git@github.com:org/repo.git":             "github.com/org/repo",
		"https://ana:tok@GitHub.com/org/repo/":    "github.com/org/repo",
		"ssh://git@git.example:2222/team/app.git": "git.example/team/app",
		"https://git.example/group/sub/project":   "git.example/group/sub/project",
		"/srv/git/repo.git":                       "",
		"file:///srv/git/repo.git":                "",
		"../repo":                                 "",
		"":                                        "",
	} {
		if got := normalizeRemote(in); got != want {
			t.Errorf("normalizeRemote(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTeamProjectIsTheRepositorysOrigin(t *testing.T) {
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ana, ben, wt, plain := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	write(filepath.Join(ana, ".git", "config"), "[core]\n\tbare = false\n[remote \"upstream\"]\n\turl = git@other.example:x/y.git\n[remote \"origin\"]\n\turl = git@github.com:org/app.git\n")
	write(filepath.Join(ben, ".git", "config"), "[remote \"origin\"]\n\turl = https://github.com/org/app\n")
	write(filepath.Join(ben, ".git", "worktrees", "w", "commondir"), "../..\n")
	write(filepath.Join(wt, ".git"), "gitdir: "+filepath.Join(ben, ".git", "worktrees", "w")+"\n")
	os.MkdirAll(filepath.Join(ben, "svc", "auth"), 0o755)

	team := &Log{DatabaseURL: "postgres://h/db"}
	for _, tc := range []struct {
		l         *Log
		dir, want string
	}{
		{team, ana, "github.com/org/app"},
		{team, ben, "github.com/org/app"},
		{team, filepath.Join(ben, "svc", "auth"), "github.com/org/app/svc/auth"},
		{team, wt, "github.com/org/app"},
		{team, plain, plain},
		{&Log{}, ana, ana},
		{nil, ana, ana},
	} {
		if got := tc.l.Project(tc.dir); got != tc.want {
			t.Errorf("Project(%s) = %q, want %q", tc.dir, got, tc.want)
		}
	}
}
