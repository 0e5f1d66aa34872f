// Package pgtest starts a PostgreSQL server of the tests' own: a new
// cluster in a temporary folder, listening on a Unix socket there only,
// trusting its local connections. It uses the server programs installed on
// the machine (Debian's postgresql package: /usr/lib/postgresql/N/bin, or
// initdb and pg_ctl on PATH). As root, the server runs as the postgres
// account, as PostgreSQL requires.
//
// Without PostgreSQL the tests that need it are skipped, unless
// ELICIT_TEST_POSTGRES=required (the README's test command sets it), when
// they fail.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Server is a running PostgreSQL server in a folder of its own.
type Server struct {
	dir, bin string
	asUser   string // the account the server runs as ("" this process's)
	n        atomic.Int64
}

// RequiredEnv makes a missing PostgreSQL a failure instead of a skip.
const RequiredEnv = "ELICIT_TEST_POSTGRES"

// Start starts a server, or says why it cannot.
func Start() (*Server, error) {
	bin, err := findBin()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "elicit-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, bin: bin}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, errors.New("running as root, and there is no postgres account to run the server as")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		s.asUser = "postgres"
	}
	if out, err := s.run("initdb", "-D", s.data(), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	if err := s.Restart(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return s, nil
}

// Runner is what Main runs: a *testing.M.
type Runner interface{ Run() int }

// Main runs a test binary's tests with a server started for them (*srv
// is nil when none can start, and the binary fails when one is required),
// and exits with their code.
func Main(m Runner, srv **Server) { os.Exit(Run(m, srv)) }

// Run is Main without the exit: it returns the tests' code, for a
// TestMain that exits by itself (testscript.Main).
func Run(m Runner, srv **Server) int {
	s, err := Start()
	if err != nil {
		if os.Getenv(RequiredEnv) == "required" {
			fmt.Fprintf(os.Stderr, "pgtest: PostgreSQL is required (%s=required) and cannot start: %v\n", RequiredEnv, err)
			return 1
		}
		fmt.Fprintf(os.Stderr, "pgtest: the PostgreSQL tests are skipped: %v\n", err)
	}
	*srv = s
	code := m.Run()
	if s != nil {
		s.Stop()
	}
	return code
}

// Need skips t without a server.
func Need(t testing.TB, s *Server) {
	t.Helper()
	if s == nil {
		t.Skip("no PostgreSQL server (install Debian's postgresql package)")
	}
}

func findBin() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return version(b) - version(a) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("no initdb and pg_ctl on PATH or in /usr/lib/postgresql/*/bin")
}

func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func (s *Server) data() string { return filepath.Join(s.dir, "data") }

// run runs one of the server's programs, as the server's account.
func (s *Server) run(prog string, args ...string) ([]byte, error) {
	path := filepath.Join(s.bin, prog)
	if _, err := os.Stat(path); err != nil {
		path = prog
	}
	var cmd *exec.Cmd
	if s.asUser != "" {
		cmd = exec.Command("runuser", append([]string{"-u", s.asUser, "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = s.dir
	return cmd.CombinedOutput()
}

// Stop stops the server and removes its folder.
func (s *Server) Stop() {
	s.run("pg_ctl", "-D", s.data(), "-m", "immediate", "-w", "stop")
	os.RemoveAll(s.dir)
}

// Kill stops the server at once, as a crash would (connections drop,
// nothing is flushed politely).
func (s *Server) Kill() error {
	out, err := s.run("pg_ctl", "-D", s.data(), "-m", "immediate", "-w", "stop")
	if err != nil {
		return fmt.Errorf("pg_ctl stop: %v: %s", err, out)
	}
	return nil
}

// Restart starts the server (again).
func (s *Server) Restart() error {
	opts := fmt.Sprintf("-c listen_addresses='' -c unix_socket_directories='%s' -c fsync=off -c max_connections=300", s.dir)
	out, err := s.run("pg_ctl", "-D", s.data(), "-o", opts, "-l", filepath.Join(s.dir, "log"), "-w", "-t", "60", "start")
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
		return fmt.Errorf("pg_ctl start: %v: %s%s", err, out, log)
	}
	return nil
}

// URL is the address of database name on the server.
func (s *Server) URL(name string) string {
	return "postgres://postgres@/" + name + "?host=" + s.dir
}

// NewDatabase creates an empty database of its own for a test and gives
// its address.
func (s *Server) NewDatabase(t testing.TB) string {
	t.Helper()
	url, err := s.Create()
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// Create creates an empty database and gives its address.
func (s *Server) Create() (string, error) {
	name := fmt.Sprintf("t%d_%d", os.Getpid(), s.n.Add(1))
	return s.URL(name), s.Exec("postgres", "CREATE DATABASE "+name)
}

// Exec runs SQL in database name.
func (s *Server) Exec(name, sql string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.URL(name))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// Dir is the server's folder (its socket is there).
func (s *Server) Dir() string { return strings.TrimSuffix(s.dir, "/") }
