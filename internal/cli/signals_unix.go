//go:build unix

package cli

import (
	"os"
	"os/exec"
	"syscall"
)

// stopSignals stop a consultation: Ctrl-C, SIGTERM and a closed terminal.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// detach runs cmd in a session of its own, so the terminal's signals and
// its closing do not reach it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
