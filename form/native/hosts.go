package native

import (
	"strconv"
	"strings"

	"github.com/elicit/elicit/form"
)

// Host is what a known MCP client does with a form elicitation, and the
// surface to ask with instead when it shows nothing.
type Host struct {
	// Client is the client's name in its clientInfo.
	Client string
	// Name is the host as people call it.
	Name string
	// Measured is the last version measured; versions up to it are not sent
	// a form request at all, later ones are tried and fall back the same
	// way if they decline or cancel.
	Measured string
	// Does says what the host did with a form request, as measured.
	Does string
	// Fallback is the surface its agent asks with instead.
	Fallback form.Surface
}

// hosts are the clients measured to answer a form elicitation without
// showing it to anyone (shared/reference/hosts.md).
var hosts = []Host{
	{Client: "claude-code", Name: "Claude Code", Measured: "2.1.332", Fallback: form.SurfaceAsk,
		Does: "answers cancel at once without showing anything (print mode, protocol 2026-07-28)"},
	{Client: "codex-mcp-client", Name: "Codex CLI", Measured: "0.171.0", Fallback: form.SurfaceCodex,
		Does: "answers decline at once without showing anything (codex exec, protocol 2025-06-18)"},
}

// SkipsForms returns the profile of a client measured to dismiss form
// requests unseen, when its version is at most the one measured (or cannot
// be read), or nil: such a client gets the fallback without a request.
func SkipsForms(client, version string) *Host {
	h := hostOf(client)
	if h == nil || !atMost(version, h.Measured) {
		return nil
	}
	return h
}

// hostOf returns the profile of a known client, whatever its version, or
// nil.
func hostOf(client string) *Host {
	for i := range hosts {
		if hosts[i].Client == client {
			return &hosts[i]
		}
	}
	return nil
}

// FallbackFor is the surface a client's agent asks with when native
// elicitation shows nothing: its profile's, or AskUserQuestion's (with the
// markdown follow-up, which every chat can show).
func FallbackFor(client string) form.Surface {
	if h := hostOf(client); h != nil {
		return h.Fallback
	}
	return form.SurfaceAsk
}

// atMost compares dotted version numbers ("2.1.332"); a version that does
// not read as one counts as at most.
func atMost(version, limit string) bool {
	v, ok := parseVersion(version)
	l, _ := parseVersion(limit)
	if !ok {
		return true
	}
	for i := range max(len(v), len(l)) {
		a, b := part(v, i), part(l, i)
		if a != b {
			return a < b
		}
	}
	return true
}

func part(v []int, i int) int {
	if i < len(v) {
		return v[i]
	}
	return 0
}

// parseVersion reads "v2.1.332" or "2.1.332-beta" as [2 1 332].
func parseVersion(s string) ([]int, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexAny(s, "-+ "); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		return nil, false
	}
	var out []int
	for _, p := range strings.Split(s, ".") {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}
