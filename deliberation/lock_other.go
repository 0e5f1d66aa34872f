//go:build !unix

package deliberation

import "os"

// lockFile is a no-op where flock is unavailable (Linux is the target).
func lockFile(*os.File) error { return nil }
