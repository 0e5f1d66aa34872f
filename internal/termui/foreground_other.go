//go:build !unix

package termui

import "os"

// InBackground is false here: there are no background process groups.
func InBackground(*os.File) bool { return false }
