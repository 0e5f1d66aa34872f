//go:build !unix

package relay

import "fmt"

// terminate cannot signal another process here.
func terminate(pid int) error {
	return fmt.Errorf("cannot cancel the consultation of process %d from another process on this system: stop that process", pid)
}
