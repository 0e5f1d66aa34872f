//go:build !unix

package consult

import "os/exec"

func setGroup(*exec.Cmd) {}

// killGroup kills the child; without process groups its children may live on.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}
