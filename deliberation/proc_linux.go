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
	start, _ := procStat(pid)
	return start
}

// procStat reads process pid's start time (field 22 of /proc/PID/stat)
// and whether it has ended: a zombie (state Z, or X while it is reaped)
// is a process that was killed or exited and that its parent has not yet
// waited for, which can take a while (the parent may be an init that reaps
// late); it no longer runs.
func procStat(pid int) (start string, ended bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", false
	}
	fields := strings.Fields(s[i+1:])
	if len(fields) < 20 {
		return "", false
	}
	return fields[19], fields[0] == "Z" || fields[0] == "X"
}

// processAlive reports whether pid runs (a zombie does not) and, when
// start is known, is the same process (not a later one that got its PID).
func processAlive(pid int, start string) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	got, ended := procStat(pid)
	return !ended && (start == "" || got == start)
}
