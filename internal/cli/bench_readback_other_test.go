//go:build !linux

package cli

import (
	"errors"
	"os"
)

// dropFromCache is Linux-only (posix_fadvise).
func dropFromCache(*os.File) error {
	return errors.New("ELICIT_BENCH_READBACK needs Linux")
}
