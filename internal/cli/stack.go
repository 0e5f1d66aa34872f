package cli

// growStack makes the goroutine's stack big enough for a command in one
// step, while it is shallow. A goroutine starts with a small stack that
// the runtime doubles, by copying, whenever a call would overflow it; each
// copy walks every frame on the stack and reads each function's stack maps
// from the binary's tables, pages that a CLI call otherwise never touches.
// After package initialisation (which grows it twice), a command's deep
// calls (cobra, then parsing) grew it once more, at full depth: about 30
// page faults. One frame of stackReserve bytes asks for the room at once;
// it is never written (the array is declared in a branch never taken), so
// the memory is only touched as the command uses it.
//
//go:noinline
func growStack(never bool) {
	if never {
		var room [stackReserve]byte
		keep(room[:])
	}
}

// keep stops the compiler from dropping growStack's frame.
//
//go:noinline
func keep(b []byte) { b[len(b)-1] = 1 }

// stackReserve is the room growStack asks for: about the deepest a
// command's stack goes.
const stackReserve = 48 << 10
