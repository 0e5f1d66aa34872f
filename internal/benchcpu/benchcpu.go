// Package benchcpu reports the CPU time a benchmark's operations take. On a
// shared machine the wall time of an operation includes waiting for a core;
// the process's CPU time (user and system, every thread, the garbage
// collector's included) says what it costs. It is for benchmarks only.
package benchcpu

import (
	"testing"
	"time"
)

// Start begins measuring; call the returned function after b's loop to
// report the CPU time per operation as "cpu-ms/op".
func Start(b *testing.B) func() {
	start := Process()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(Process()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		}
	}
}
