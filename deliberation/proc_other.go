//go:build !unix

package deliberation

// procStart is unknown here.
func procStart(int) string { return "" }

// processAlive cannot tell here, so a consultation is taken to be running
// until it is canceled.
func processAlive(pid int, _ string) bool { return pid > 0 }
