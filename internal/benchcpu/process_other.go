//go:build !unix

package benchcpu

import "time"

// Process is the CPU time this process has used so far; 0 where it is not
// measured.
func Process() time.Duration { return 0 }
