//go:build unix

package deliberation

import (
	"fmt"
	"os"
	"syscall"
)

// lockFile takes an exclusive flock on f, released when f is closed.
func lockFile(f *os.File) error { return flock(f, syscall.LOCK_EX) }

// lockShared takes a shared flock on f, released when f is closed.
func lockShared(f *os.File) error { return flock(f, syscall.LOCK_SH) }

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err == nil {
			return nil
		}
		if err != syscall.EINTR {
			return fmt.Errorf("deliberation store: lock %s: %w", f.Name(), err)
		}
	}
}
