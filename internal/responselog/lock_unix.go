//go:build unix

package responselog

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// lockWithin takes an exclusive advisory lock on f, trying for up to wait;
// closing f releases it.
func lockWithin(f *os.File, wait time.Duration) (bool, error) {
	deadline := time.Now().Add(wait)
	for delay := 100 * time.Microsecond; ; delay *= 2 {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR):
			return false, err
		case time.Now().After(deadline):
			return false, nil
		}
		time.Sleep(min(delay, 5*time.Millisecond))
	}
}
