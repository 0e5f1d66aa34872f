package cli

import (
	"bytes"
	"net"
	"os"
	"strings"
	"testing"
)

// TestServeAddressInUse: an address that is well formed but cannot be
// listened on ends serve with exit 1 and a message naming --http and the
// address, not a bare "listen tcp" error.
func TestServeAddressInUse(t *testing.T) {
	home := t.TempDir()
	if err := os.Chmod(home, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ELICIT_HOME", home)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	var stdout, stderr bytes.Buffer
	code := Run([]string{"serve", "--http", addr}, strings.NewReader(""), &stdout, &stderr)
	_, last, _ := strings.Cut(strings.TrimSuffix(stderr.String(), "\n"), "\n") // after the line naming the token file
	if want := "elicit: --http " + addr + ": cannot serve: listen tcp " + addr + ": "; code != 1 || !strings.HasPrefix(last, want) {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q...", code, stderr.String(), want)
	}
}
