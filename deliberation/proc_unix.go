//go:build unix && !linux

package deliberation

import "syscall"

// procStart is unknown outside Linux.
func procStart(int) string { return "" }

// processAlive reports whether pid runs (a later process that reused the
// PID counts too: without /proc the start time is unknown).
func processAlive(pid int, _ string) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
