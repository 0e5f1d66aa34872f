//go:build unix

package deliberation

import (
	"fmt"
	"os"
	"syscall"
)

// lockFile takes an exclusive flock on f, released when f is closed.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err == nil {
			return nil
		}
		if err != syscall.EINTR {
			return fmt.Errorf("deliberation store: lock %s: %w", f.Name(), err)
		}
	}
}
