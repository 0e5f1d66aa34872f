package stackroom

// reserve is the stack room grow asks for: more than package
// initialisation and the deepest command use; the runtime rounds the stack
// up to the next power of two (64 KiB).
const reserve = 48 << 10

func init() { grow(false) }

// grow makes the goroutine's stack at least reserve bytes bigger than its
// use at the call, in one copy.
//
//go:noinline
func grow(never bool) {
	if never {
		var room [reserve]byte
		keep(room[:])
	}
}

// keep stops the compiler from dropping grow's frame.
//
//go:noinline
func keep(b []byte) { b[len(b)-1] = 1 }
