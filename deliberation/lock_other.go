//go:build !unix

package deliberation

import "os"

// lockFile is a no-op where flock is unavailable (Linux is the target).
func lockFile(*os.File) error { return nil }

// lockShared is a no-op where flock is unavailable.
func lockShared(*os.File) error { return nil }
