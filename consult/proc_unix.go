//go:build unix

package consult

import (
	"os/exec"
	"syscall"
)

// setGroup runs the child in a process group of its own, so a timeout or
// a cancellation can end the whole tree; on Linux the child also gets
// SIGTERM when elicit dies, whatever kills it (deathSignal).
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	deathSignal(cmd.SysProcAttr)
}

// signalGroup sends sig to the child's process group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, sig)
	if err == syscall.ESRCH {
		return nil
	}
	return err
}

// groupAlive reports whether a process of the child's group still runs
// (a zombie that nobody reaps does not count, where that can be told).
func groupAlive(cmd *exec.Cmd) bool {
	if cmd.Process == nil {
		return false
	}
	pgid := cmd.Process.Pid
	if syscall.Kill(-pgid, 0) == syscall.ESRCH {
		return false
	}
	return groupRunning(pgid)
}
