//go:build unix && !linux

package consult

import "syscall"

// deathSignal is Linux-only: elsewhere a consultant outlives a SIGKILL of
// elicit (any other end of elicit cancels it first).
func deathSignal(*syscall.SysProcAttr) {}
