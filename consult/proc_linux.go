package consult

import (
	"bytes"
	"os"
	"strconv"
)

// groupRunning reports whether /proc shows a process of group pgid that is
// not a zombie: where no init reaps orphans (a container), the dead members
// of a group stay in it as zombies.
func groupRunning(pgid int) bool {
	dir, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	want := strconv.Itoa(pgid)
	for _, e := range dir {
		if name := e.Name(); name[0] < '0' || name[0] > '9' {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and ')'.
		i := bytes.LastIndexByte(data, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(data[i+1:])
		if len(f) >= 3 && string(f[2]) == want && string(f[0]) != "Z" && string(f[0]) != "X" {
			return true
		}
	}
	return false
}
