//go:build linux

package deliberation

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// procStart is the start time of process pid as /proc reports it (clock
// ticks since boot, field 22 of /proc/PID/stat), or "" when unknown.
func procStart(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	fields := strings.Fields(s[i+1:])
	if len(fields) < 20 {
		return ""
	}
	return fields[19]
}

// processAlive reports whether pid runs and, when start is known, is the
// same process (not a later one that got its PID).
func processAlive(pid int, start string) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	return start == "" || procStart(pid) == start
}
