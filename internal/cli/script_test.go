package cli

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run the elicit CLI as the command "elicit", and
// as "elicit-exit CODE ARGS...", which runs elicit with ARGS and succeeds
// only when elicit's exit code is CODE (so scripts can assert 1 versus 2).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"elicit":      func() { os.Exit(Main()) },
		"elicit-exit": elicitExit,
	})
}

func elicitExit() {
	want, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "elicit-exit: first argument must be the expected exit code")
		os.Exit(100)
	}
	got := Run(os.Args[2:], os.Stdin, os.Stdout, os.Stderr)
	if got != want {
		fmt.Fprintf(os.Stderr, "elicit-exit: exit code %d, want %d\n", got, want)
		os.Exit(101)
	}
	os.Exit(0)
}

// TestScript runs every CLI scenario in testdata/script/*.txtar. Run with
// -run TestScript/NAME to run one file.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			e.Setenv("ELICIT_HOME", e.WorkDir+"/.elicit")
			e.Setenv("HOME", e.WorkDir)
			return nil
		},
	})
}
