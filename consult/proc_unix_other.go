//go:build unix && !linux

package consult

// groupRunning: without /proc, a group with any process in it (zombies
// too) is running.
func groupRunning(int) bool { return true }
