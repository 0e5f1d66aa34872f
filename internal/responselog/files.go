package responselog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/elicit/elicit/internal/infile"
)

// Every file the log writes is the user's alone: the journal, the files
// set aside for ingesting, the database with its -wal and -shm, and a
// damaged database set aside.
const fileMode = 0o600

// notRegular is the error for a log file that is not a regular file: a
// named pipe would block a writer (or swallow its records), a device
// such as /dev/zero would discard them, a directory or a socket cannot
// hold them. fi describes what was opened (or found) at path.
func notRegular(path string, fi fs.FileInfo) error {
	what := infile.Kind(fi.Mode())
	if link, err := os.Readlink(path); err == nil {
		if fi.Mode()&fs.ModeSymlink != 0 {
			what = "a symbolic link (to " + link + ")"
		} else {
			what = "a symbolic link to " + what + " (" + link + ")"
		}
	}
	return fmt.Errorf("%s is %s, not a regular file: the response log keeps its records in regular files only; remove it, and elicit starts a new one", path, what)
}

// checkOpened refuses f unless it is a regular file; it closes f when it
// refuses it.
func checkOpened(f *os.File, path string) (*os.File, error) {
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = notRegular(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// checkPath refuses a file at path that is not a regular file (a symbolic
// link included: SQLite does not follow one); a missing file is fine.
// SQLite opens the database itself, so this is checked before it does.
func checkPath(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		if fi.Mode()&fs.ModeSymlink != 0 {
			if target, err := os.Stat(path); err == nil {
				fi = target
			}
			if fi.Mode().IsRegular() {
				link, _ := os.Readlink(path)
				return fmt.Errorf("%s is a symbolic link (to %s): SQLite opens the database only as a regular file; move the file itself there", path, link)
			}
		}
		return notRegular(path, fi)
	}
	return nil
}

// private makes a file elicit wrote before it kept its files private
// (an older database was 0644) the user's alone; a missing file is fine.
func private(path string) error {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&^fileMode == 0 {
		return nil
	}
	return os.Chmod(path, fileMode)
}
