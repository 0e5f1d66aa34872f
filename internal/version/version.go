// Package version says which elicit this is: its version, commit and build
// date, from the linker flags a release sets (-X) or else from the build
// information the Go toolchain records (module version and VCS stamp).
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Set by a release build:
//
//	go build -ldflags "-X github.com/elicit/elicit/internal/version.version=1.2.3
//	  -X github.com/elicit/elicit/internal/version.commit=abc1234
//	  -X github.com/elicit/elicit/internal/version.date=2026-11-30T12:00:00Z"
var version, commit, date string

// Info describes the running binary.
type Info struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Date     string `json:"date"`
	Modified bool   `json:"modified"` // built from a work tree with changes
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// Get reads the build information (cheap; called when asked, not at init).
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return from(bi, version, commit, date)
}

// from resolves Info from build information and the linker's values, which
// win when set.
func from(bi *debug.BuildInfo, ver, rev, when string) Info {
	in := Info{Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			in.Version = strings.TrimPrefix(v, "v")
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				in.Commit = s.Value
			case "vcs.time":
				in.Date = s.Value
			case "vcs.modified":
				in.Modified = s.Value == "true"
			}
		}
	}
	if ver != "" {
		in.Version = strings.TrimPrefix(ver, "v")
	}
	if rev != "" {
		in.Commit, in.Modified = rev, false
	}
	if when != "" {
		in.Date = when
	}
	in.Version = orUnknown(in.Version, "dev")
	in.Commit = orUnknown(in.Commit, "unknown")
	in.Date = orUnknown(in.Date, "unknown")
	return in
}

func orUnknown(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// String is the one-line form `elicit --version` prints.
func (in Info) String() string {
	commit := in.Commit
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if in.Modified {
		commit += "+dirty"
	}
	return fmt.Sprintf("elicit %s (commit %s, built %s, %s %s)", in.Version, commit, in.Date, in.Go, in.Platform)
}
