//go:build unix

package cli

import (
	"os"
	"os/exec"
	"syscall"
)

// stopSignals stop a consultation: Ctrl-C, SIGTERM and a closed terminal.
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} // SIGINT is os.Interrupt, written as a constant: data, not work at package initialisation

// detach runs cmd in a session of its own, so the terminal's signals and
// its closing do not reach it.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
