//go:build !unix

package cli

import (
	"os"
	"os/exec"
)

// stopSignals stop a consultation: Ctrl-C.
var stopSignals = []os.Signal{os.Interrupt}

// detach does nothing here.
func detach(*exec.Cmd) {}
