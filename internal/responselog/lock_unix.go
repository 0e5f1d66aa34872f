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
// would pay. Only a regular file is taken (see openRegular).
func openJournal(path string) (*os.File, error) {
	return openRegular(path, syscall.O_RDWR|syscall.O_APPEND|syscall.O_CREAT)
}

// openRead opens a log file for reading, a regular file only.
func openRead(path string) (*os.File, error) { return openRegular(path, syscall.O_RDONLY) }

// openRegular opens path with flags, refusing anything but a regular file
// without ever blocking: the file is opened non-blocking (a named pipe
// with no writer or reader would otherwise hang the open, and then every
// write or read), and without becoming the controlling terminal, then
// checked with fstat; the error names the file and what it is.
func openRegular(path string, flags int) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, flags|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, fileMode)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			syscall.Close(fd)
			return nil, &os.PathError{Op: "fstat", Path: path, Err: err}
		}
		if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			f := os.NewFile(uintptr(fd), path)
			return checkOpened(f, path)
		}
		// Blocking again (a no-op for a regular file, but os.NewFile
		// would take a non-blocking descriptor to the poller).
		if err := syscall.SetNonblock(fd, false); err != nil {
			syscall.Close(fd)
			return nil, &os.PathError{Op: "fcntl", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}

// writable reports whether this process may write path (a read-only
// file system included).
func writable(path string) bool { return syscall.Access(path, 2 /* W_OK */) == nil }

// lockDir takes an exclusive lock on the log's folder for setting a
// damaged database aside (one reader at a time); the function returned
// releases it. A lock not had within 10 seconds is gone without.
func (l *Log) lockDir() func() {
	f, err := os.Open(l.dir)
	if err != nil {
		return func() {}
	}
	lockWithin(f, 10*time.Second)
	return func() { f.Close() }
}
