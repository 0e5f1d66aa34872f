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

// killGroup sends SIGKILL to the child's process group.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		return cmd.Process.Kill()
	}
	return nil
}
