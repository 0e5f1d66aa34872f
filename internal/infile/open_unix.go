//go:build unix

package infile

import (
	"io"
	"os"
	"syscall"
)

// openFile opens path for reading without blocking: opening a FIFO with no
// writer returns at once, and the caller refuses it by its type.
func openFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// readRegular reads the regular file at path under l with system calls of
// its own, not an *os.File: an os.File registers with the runtime's poller
// (and the first one sets the poller up: an epoll instance, an eventfd and
// a thread waiting on them), which a CLI call that reads one small file and
// exits pays for at every start. A path that cannot be opened gets the
// error os.OpenFile gives; ok is false when path is not a regular file:
// ReadFile then goes the *os.File way, whose errors (a FIFO, a directory)
// stay exactly as they were.
func readRegular(path string, l Limit) (data []byte, ok bool, err error) {
	var fd int
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, true, &os.PathError{Op: "open", Path: path, Err: err} // as os.OpenFile's
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, false, nil
	}
	if st.Size > l.Max {
		return nil, true, &TooLargeError{Name: path, Limit: l}
	}
	size := int64(512)
	if st.Size > 0 {
		size = st.Size + 1 // one more, to see the end without growing
	}
	data, err = readAll(&capped{r: fdReader{fd: fd, name: path}, name: path, limit: l, left: l.Max}, min(size, l.Max+1))
	return data, true, err
}

// fdReader reads a regular file's descriptor as an *os.File would: zero
// bytes is the end, and errors name the file.
type fdReader struct {
	fd   int
	name string
}

func (r fdReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := syscall.Read(r.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: r.name, Err: err}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
