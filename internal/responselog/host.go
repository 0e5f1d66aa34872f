package responselog

import (
	"os/user"
	"path/filepath"
	"strings"

	"github.com/elicit/elicit/internal/config"
)

// The environment variables that tell which agent ran the CLI, checked in
// order: what each host sets for the commands it runs (Claude Code sets
// CLAUDECODE=1 for its shell and hooks; Codex sets CODEX_THREAD_ID, and
// CODEX_SANDBOX / CODEX_SANDBOX_NETWORK_DISABLED inside its sandbox). Found
// in the hosts' own binaries, and in the list Claude Code itself uses to
// tell it was started by another agent.
var hostEnv = []struct{ name, host string }{
	{"CLAUDECODE", "claude-code"},
	{"CODEX_THREAD_ID", "codex"},
	{"CODEX_SANDBOX", "codex"},
	{"CODEX_SANDBOX_NETWORK_DISABLED", "codex"},
	{"GEMINI_CLI", "gemini-cli"},
	{"CURSOR_AGENT", "cursor"},
	{"COPILOT_CLI", "copilot-cli"},
}

// HostEnv overrides the detected host: ELICIT_HOST=name.
const HostEnv = "ELICIT_HOST"

// CLIHost is who ran the CLI: ELICIT_HOST when set, else the agent whose
// variable is in the environment, else "cli" (a person at a terminal, or a
// script).
func CLIHost(getenv func(string) string) Who {
	if h := strings.TrimSpace(getenv(HostEnv)); h != "" {
		return Who{Host: h, Via: "cli"}
	}
	for _, e := range hostEnv {
		if getenv(e.name) != "" {
			return Who{Host: e.host, Via: "cli"}
		}
	}
	return Who{Host: "cli", Via: "cli"}
}

// MCPHost is who called the MCP server: the client's name and version from
// initialize ("unknown" when it sent none).
func MCPHost(name, version string) Who {
	if name == "" {
		name = "unknown"
	}
	return Who{Host: name, HostVersion: version, Via: "mcp"}
}

// DirFor is the log's folder: $ELICIT_HOME/log, or ~/.elicit/log; "" when
// neither ELICIT_HOME nor HOME is set.
func DirFor(getenv func(string) string) string {
	home, err := config.Home(getenv)
	if err != nil {
		return ""
	}
	return filepath.Join(home, "log")
}

// UserEnv names the person records are kept for; without it, the system's
// user name ($USER, $LOGNAME, else the account's name).
const UserEnv = "ELICIT_USER"

// UserName is who records are kept for (see UserEnv).
func UserName(getenv func(string) string) string {
	for _, e := range []string{UserEnv, "USER", "LOGNAME"} {
		if u := strings.TrimSpace(getenv(e)); u != "" {
			return u
		}
	}
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return ""
}

// ProjectPath is the project folder dir as records keep it: absolute.
func ProjectPath(dir string) string {
	if dir == "" {
		dir = "."
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}
