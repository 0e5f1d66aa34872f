package cli

import (
	"testing"
	"unsafe"
)

// TestGrowStackOnce checks that growStack makes room at once: a new
// goroutine's stack moves when growStack runs (the runtime copied it into a
// bigger one), and not again while calls use up to stackReserve less a
// margin, as a command's would.
func TestGrowStackOnce(t *testing.T) {
	addrs := make(chan [3]uintptr)
	go func() {
		var local int
		at := func() uintptr { return uintptr(unsafe.Pointer(&local)) }
		before := at()
		growStack(false)
		grown := at()
		useStack(stackReserve - 8<<10)
		addrs <- [3]uintptr{before, grown, at()}
	}()
	a := <-addrs
	if a[0] == a[1] {
		t.Fatal("growStack did not grow the stack: the goroutine's stack stayed where it started")
	}
	if a[1] != a[2] {
		t.Fatalf("the stack moved again after growStack: %d bytes were not enough room", stackReserve)
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
