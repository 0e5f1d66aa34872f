//go:build unix

package relay

import (
	"fmt"
	"syscall"
)

// terminate asks process pid to stop.
func terminate(pid int) error {
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil && err != syscall.ESRCH {
		return fmt.Errorf("cancel the consultation of process %d: %w", pid, err)
	}
	return nil
}
