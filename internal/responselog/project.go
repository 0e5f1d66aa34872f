package responselog

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// Project is the name records give the project folder dir. In a folder's
// own log it is the absolute path. In a team database, where members keep
// one repository in folders of their own, it is the repository's origin
// (git remote "origin", as host/path, with the folder below the checkout's
// top appended), so that everyone's records of one repository match; a
// folder that is no git checkout with an origin keeps its path. A nil Log
// is a folder's own.
func (l *Log) Project(dir string) string {
	abs := ProjectPath(dir)
	if l == nil || l.DatabaseURL == "" {
		return abs
	}
	if origin := gitOrigin(abs); origin != "" {
		return origin
	}
	return abs
}

// gitOrigin is the origin of the git checkout holding dir, normalized
// (git@github.com:org/repo.git and https://user@github.com/org/repo are
// both github.com/org/repo), plus dir's path below the checkout's top; ""
// when there is none.
func gitOrigin(dir string) string {
	for top := dir; ; {
		if gitDir := gitDirOf(top); gitDir != "" {
			origin := normalizeRemote(remoteURL(filepath.Join(gitDir, "config"), "origin"))
			if origin == "" {
				return ""
			}
			if rel, err := filepath.Rel(top, dir); err == nil && rel != "." {
				origin += "/" + filepath.ToSlash(rel)
			}
			return origin
		}
		up := filepath.Dir(top)
		if up == top {
			return ""
		}
		top = up
	}
}

// gitDirOf is the git folder whose config a checkout at top uses: top/.git,
// or for a worktree (a .git file saying "gitdir: …") the main checkout's.
func gitDirOf(top string) string {
	p := filepath.Join(top, ".git")
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		return ""
	case fi.IsDir():
		return p
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	gitDir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return ""
	}
	gitDir = strings.TrimSpace(gitDir)
	if !filepath.IsAbs(gitDir) {
		gitDir = filepath.Join(top, gitDir)
	}
	if common, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(common))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		return filepath.Clean(c)
	}
	return gitDir
}

// remoteURL is the url of remote name in a git config file.
func remoteURL(config, name string) string {
	f, err := os.Open(config)
	if err != nil {
		return ""
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			in = line == `[remote "`+name+`"]`
			continue
		}
		if k, v, ok := strings.Cut(line, "="); in && ok && strings.TrimSpace(k) == "url" {
			return strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return ""
}

// normalizeRemote is a git remote's address as host/path: no scheme, no
// user or password, no port, no trailing .git or slash, lower-case host.
func normalizeRemote(u string) string {
	if u == "" {
		return ""
	}
	if scheme, rest, ok := strings.Cut(u, "://"); ok && !strings.ContainsAny(scheme, "/@:") {
		if scheme == "file" {
			return ""
		}
		u = rest
	} else if host, path, ok := strings.Cut(u, ":"); ok && !strings.Contains(host, "/") {
		u = host + "/" + path // scp-like: git@host:org/repo
	} else {
		return "" // a local path: no shared name
	}
	host, path, _ := strings.Cut(u, "/")
	if i := strings.LastIndex(host, "@"); i >= 0 {
		host = host[i+1:]
	}
	if h, _, ok := strings.Cut(host, ":"); ok {
		host = h
	}
	path = strings.TrimSuffix(strings.TrimSuffix(strings.Trim(path, "/"), ".git"), "/")
	if host == "" || path == "" {
		return ""
	}
	return strings.ToLower(host) + "/" + path
}
