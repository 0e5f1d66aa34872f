//go:build !unix

package consult

import (
	"os/exec"
	"syscall"
)

func setGroup(*exec.Cmd) {}

// signalGroup kills the child; without process groups its children may
// live on.
func signalGroup(cmd *exec.Cmd, _ syscall.Signal) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

// groupAlive: without process groups there is none to end after the child.
func groupAlive(*exec.Cmd) bool { return false }
