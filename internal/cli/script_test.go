package cli

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/elicit/elicit/internal/pgtest"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run the elicit CLI as the command "elicit", and
// as "elicit-exit CODE ARGS...", which runs elicit with ARGS and succeeds
// only when elicit's exit code is CODE (so scripts can assert 1 versus 2).
func TestMain(m *testing.M) {
	testscript.Main(stopPostgres{m}, map[string]func(){
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
		Condition: func(cond string) (bool, error) {
			if cond != "postgres" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			postgresStarted.Store(true)
			s, err := postgres()
			if s == nil && os.Getenv(pgtest.RequiredEnv) == "required" {
				return false, fmt.Errorf("PostgreSQL is required (%s=required) and cannot start: %v", pgtest.RequiredEnv, err)
			}
			return s != nil, nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"teamdb":  teamdb,
			"mkfifo":  mkfifo,
			"bigfile": bigfile,
			"pagereq": pagereq,
		},
	})
}

// The scripts' PostgreSQL server starts with the first script that asks
// for one, and stops when the tests end.
var (
	postgres        = sync.OnceValues(pgtest.Start)
	postgresStarted atomic.Bool
)

type stopPostgres struct{ m *testing.M }

func (r stopPostgres) Run() int {
	code := r.m.Run()
	if postgresStarted.Load() {
		if s, _ := postgres(); s != nil {
			s.Stop()
		}
	}
	return code
}

// teamdb VAR creates an empty team database on the tests' PostgreSQL
// server ([postgres] says whether there is one) and sets VAR to its
// address.
func teamdb(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: teamdb VAR")
	}
	s, err := postgres()
	if s == nil {
		ts.Fatalf("no PostgreSQL server (check [postgres] first): %v", err)
	}
	url, err := s.Create()
	ts.Check(err)
	ts.Setenv(args[0], url)
}

// mkfifo NAME creates a named pipe.
func mkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo NAME")
	}
	ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o644))
}

// bigfile NAME SIZE [TEXT] writes a file of exactly SIZE bytes: TEXT (if
// given) followed by as many 'x' as it takes. SIZE may end in KiB or MiB
// and be followed by +N, as in 1MiB+1.
func bigfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: bigfile NAME SIZE [TEXT]")
	}
	sizeArg, extra, _ := strings.Cut(args[1], "+")
	unit := 1
	for suffix, u := range map[string]int{"KiB": 1 << 10, "MiB": 1 << 20} {
		if n, ok := strings.CutSuffix(sizeArg, suffix); ok {
			sizeArg, unit = n, u
		}
	}
	size, err := strconv.Atoi(sizeArg)
	ts.Check(err)
	size *= unit
	if extra != "" {
		n, err := strconv.Atoi(extra)
		ts.Check(err)
		size += n
	}
	text := ""
	if len(args) == 3 {
		text = args[2]
	}
	if len(text) > size {
		ts.Fatalf("bigfile: TEXT is longer than SIZE")
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(text+strings.Repeat("x", size-len(text))), 0o644))
}

// pagereq METHOD PATH [BODYFILE] sends a request to the page `elicit form
// open` serves, whose one-time address the script's $BROWSER stand-in wrote
// to the file url (waiting up to 10s for it): the first call opens it, as
// the browser would, and the page's own address it leads to is kept in the
// file page. PATH is appended to the page's address; "-token" replaces the
// token with a wrong one, "-reopen" is the one-time address again. It
// prints "status N" and the body on stdout.
func pagereq(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: pagereq METHOD PATH [BODYFILE]")
	}
	var code string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		data, err := os.ReadFile(ts.MkAbs("url"))
		if code = strings.TrimSpace(string(data)); err == nil && strings.Contains(code, "/open/") {
			break
		}
		if time.Now().After(deadline) {
			ts.Fatalf("pagereq: no address in the file url")
		}
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	kept, _ := os.ReadFile(ts.MkAbs("page"))
	opened, addr, _ := strings.Cut(strings.TrimSpace(string(kept)), "\n")
	if opened != code {
		resp, err := noRedirect.Get(code)
		ts.Check(err)
		resp.Body.Close()
		if addr = resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.HasSuffix(addr, "/") {
			ts.Fatalf("pagereq: GET %s = %d %q, want 303 to the page", code, resp.StatusCode, addr)
		}
		ts.Check(os.WriteFile(ts.MkAbs("page"), []byte(code+"\n"+addr), 0o600))
	}
	target := addr + args[1]
	switch args[1] {
	case "-token":
		target = addr[:strings.LastIndex(strings.TrimSuffix(addr, "/"), "/")] + "/wrong/"
	case "-reopen":
		target = code
	}
	var body io.Reader
	if len(args) == 3 {
		body = strings.NewReader(ts.ReadFile(args[2]))
	}
	req, err := http.NewRequest(args[0], target, body)
	ts.Check(err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := noRedirect.Do(req)
	ts.Check(err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	ts.Check(err)
	fmt.Fprintf(ts.Stdout(), "status %d\n%s", resp.StatusCode, data)
}
