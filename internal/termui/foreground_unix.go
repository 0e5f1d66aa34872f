//go:build unix

package termui

import (
	"os"

	"golang.org/x/sys/unix"
)

// InBackground reports whether f is this process's controlling terminal
// and the process is not in its foreground process group (tcgetpgrp on f
// differs from getpgrp), as under `timeout` without --foreground or after
// `&`. There, changing the terminal's modes stops the process (SIGTTOU) and
// so does reading from it (SIGTTIN), for good when nothing resumes it. A
// terminal that is not the controlling one sends neither: false.
func InBackground(f *os.File) bool {
	owner, err := unix.IoctlGetInt(int(f.Fd()), unix.TIOCGPGRP)
	return err == nil && owner != unix.Getpgrp()
}
