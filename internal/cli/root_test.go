package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/version"
)

// TestVersionFlag checks that --version and -v, which read the build
// information only when asked, print what the version command's library
// says.
func TestVersionFlag(t *testing.T) {
	want := version.Get().String() + "\n"
	for _, flag := range []string{"--version", "-v"} {
		var out bytes.Buffer
		if code := Run([]string{flag}, strings.NewReader(""), &out, io.Discard); code != 0 || out.String() != want {
			t.Errorf("%s: exit %d, printed %q, want %q", flag, code, out.String(), want)
		}
	}
}
