package stackroom

import (
	"testing"
	"unsafe"
)

// TestGrowOnce checks that grow makes room at once: a new goroutine's stack
// moves when grow runs (the runtime copied it into a bigger one), and not
// again while calls use up to reserve less a margin, as a command's would.
func TestGrowOnce(t *testing.T) {
	addrs := make(chan [3]uintptr)
	go func() {
		var local int
		at := func() uintptr { return uintptr(unsafe.Pointer(&local)) }
		before := at()
		grow(false)
		grown := at()
		useStack(reserve - 8<<10)
		addrs <- [3]uintptr{before, grown, at()}
	}()
	a := <-addrs
	if a[0] == a[1] {
		t.Fatal("grow did not grow the stack: the goroutine's stack stayed where it started")
	}
	if a[1] != a[2] {
		t.Fatalf("the stack moved again after grow: %d bytes were not enough room", reserve)
	}
}

// useStack uses at least n bytes of stack, 1 KiB per call.
//
//go:noinline
func useStack(n int) byte {
	var frame [1 << 10]byte
	frame[n%len(frame)] = byte(n)
	if n <= len(frame) {
		return frame[0]
	}
	return useStack(n-len(frame)) + frame[n%len(frame)]
}
