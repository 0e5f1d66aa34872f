package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// dropFromCache writes f's pages to disk and drops them from the page
// cache, so that the next process to map f reads it back from disk.
func dropFromCache(f *os.File) error {
	if err := f.Sync(); err != nil {
		return err
	}
	return unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
}
