package infile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Limit is the cap on one kind of input.
type Limit struct {
	// Max is the largest input accepted, in bytes.
	Max int64
	// What names the kind of input in errors: "a form", "the settings file".
	What string
	// Fix says what to do about input over the cap: "split it into smaller
	// forms".
	Fix string
}

// ErrTooLarge and ErrNotRegular match, with errors.Is, every
// *TooLargeError and every *NotRegularError.
var (
	ErrTooLarge   = errors.New("input over its cap")
	ErrNotRegular = errors.New("not a regular file")
)

// TooLargeError is input over its cap.
type TooLargeError struct {
	// Name is the file's path, or "standard input".
	Name  string
	Limit Limit
}

func (e *TooLargeError) Error() string {
	msg := fmt.Sprintf("%s: more than %s, the cap for %s", e.Name, Size(e.Limit.Max), e.Limit.What)
	if e.Limit.Fix != "" {
		msg += " (" + e.Limit.Fix + ")"
	}
	return msg
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// NotRegularError is a path that names something other than a regular file.
type NotRegularError struct {
	Name string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: %s, not a regular file (elicit reads only regular files; give the path of one)", e.Name, Kind(e.Mode))
}

// Is makes errors.Is(err, ErrNotRegular) true.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// Kind names a file type for an error: "a directory", "a named pipe
// (FIFO)", "a socket", "a character device", "a device", "a symbolic
// link", "an irregular file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a file"
}

// Size writes a cap for people: 64 KiB, 1 MiB, 1.5 MiB, 100 bytes.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<18) == 0:
		return trim(float64(n)/(1<<20)) + " MiB"
	case n >= 1<<10 && n%(1<<8) == 0:
		return trim(float64(n)/(1<<10)) + " KiB"
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

func trim(f float64) string { return fmt.Sprintf("%g", f) }

// File is an open regular file whose reads stop at its cap: reading past
// the cap fails with a *TooLargeError.
type File struct {
	f    *os.File
	name string
	r    capped
}

// Open opens the regular file at path for reading under l. A path that is
// not a regular file is a *NotRegularError; a file whose size is already
// over the cap is a *TooLargeError. Other errors are the *fs.PathError of
// opening it.
func Open(path string, l Limit) (*File, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Name: path, Mode: fi.Mode()}
	}
	if fi.Size() > l.Max {
		f.Close()
		return nil, &TooLargeError{Name: path, Limit: l}
	}
	return &File{f: f, name: path, r: capped{r: f, name: path, limit: l, left: l.Max}}, nil
}

// Read reads from the file; past the cap it fails with a *TooLargeError.
func (f *File) Read(p []byte) (int, error) { return f.r.Read(p) }

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// Name is the path the file was opened by.
func (f *File) Name() string { return f.name }

// ReadFile reads the whole regular file at path under l.
func ReadFile(path string, l Limit) ([]byte, error) {
	f, err := Open(path, l)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f)
}

// ReadStream reads r, such as standard input, to its end under l; name
// names it in errors ("standard input").
func ReadStream(r io.Reader, name string, l Limit) ([]byte, error) {
	return readAll(&capped{r: r, name: name, limit: l, left: l.Max})
}

// ReadFS reads the regular file name of fsys under l. With a Dir it never
// blocks; with another fs.FS the file's type is checked before it is
// opened and again after.
func ReadFS(fsys fs.FS, name string, l Limit) ([]byte, error) {
	if d, ok := fsys.(Dir); ok {
		p, err := d.path("open", name)
		if err != nil {
			return nil, err
		}
		data, err := ReadFile(p, l)
		return data, relative(err, name)
	}
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Name: name, Mode: fi.Mode()}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Name: name, Mode: fi.Mode()}
	}
	if fi.Size() > l.Max {
		return nil, &TooLargeError{Name: name, Limit: l}
	}
	return readAll(&capped{r: f, name: name, limit: l, left: l.Max})
}

// relative names a file of a Dir by its name inside the Dir, as fs.FS
// implementations do.
func relative(err error, name string) error {
	var pe *fs.PathError
	var nr *NotRegularError
	var tl *TooLargeError
	switch {
	case errors.As(err, &pe):
		pe.Path = name
	case errors.As(err, &nr):
		nr.Name = name
	case errors.As(err, &tl):
		tl.Name = name
	}
	return err
}

// Dir is a directory as an fs.FS, like os.DirFS, except that it opens
// files without blocking, so ReadFS refuses a FIFO in it at once.
type Dir string

// Open opens name in the directory.
func (d Dir) Open(name string) (fs.File, error) {
	p, err := d.path("open", name)
	if err != nil {
		return nil, err
	}
	f, err := openFile(p)
	if err != nil {
		return nil, relative(err, name)
	}
	return f, nil
}

// path is name's path on disk, or an error for a name fs.FS does not
// allow.
func (d Dir) path(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return filepath.Join(string(d), filepath.FromSlash(name)), nil
}

// Lstat describes name without following a final symbolic link (Dir is an
// fs.ReadLinkFS, so fs.Lstat works on it).
func (d Dir) Lstat(name string) (fs.FileInfo, error) {
	p, err := d.path("lstat", name)
	if err != nil {
		return nil, err
	}
	fi, err := os.Lstat(p)
	return fi, relative(err, name)
}

// ReadLink returns the target of the symbolic link name.
func (d Dir) ReadLink(name string) (string, error) {
	p, err := d.path("readlink", name)
	if err != nil {
		return "", err
	}
	target, err := os.Readlink(p)
	return target, relative(err, name)
}

// capped reads at most limit.Max bytes from r and fails with a
// *TooLargeError when r has more.
type capped struct {
	r     io.Reader
	name  string
	limit Limit
	left  int64 // bytes still allowed
	err   error
}

func (c *capped) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if c.left <= 0 {
		// At the cap: one more byte says whether the input goes on.
		var one [1]byte
		for range 100 {
			n, err := c.r.Read(one[:])
			if n > 0 {
				c.err = &TooLargeError{Name: c.name, Limit: c.limit}
				return 0, c.err
			}
			if err != nil {
				c.err = err
				return 0, err
			}
		}
		c.err = io.ErrNoProgress
		return 0, c.err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if err != nil {
		c.err = err
	}
	return n, err
}

// readAll is io.ReadAll, except that it returns no data with an error.
func readAll(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return data, nil
}
