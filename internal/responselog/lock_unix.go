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

// openJournal opens (creating it) the journal at path for appending. It
// opens the descriptor itself and wraps it with os.NewFile, so that the
// file stays out of the runtime's poller: os.OpenFile would try to register
// it (five system calls more for a regular file, and the poller's set-up
// when it is the process's first file), which every CLI call that logs
// would pay.
func openJournal(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDWR|syscall.O_APPEND|syscall.O_CREAT|syscall.O_CLOEXEC, 0o600)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
