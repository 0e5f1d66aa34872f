package consult

import (
	"errors"
	"io"
	"io/fs"
	"os/exec"
	"time"
)

// Runner starts child processes. The default, [OSRunner], runs them in
// their own process group so a timeout can end the whole tree.
type Runner interface {
	Start(spec Spec) (Process, error)
}

// Spec describes a child process.
type Spec struct {
	// Path is the program, a path or a name looked up in PATH.
	Path string
	Args []string
	// Env is the whole environment of the child.
	Env []string
	// Dir is the working directory; empty means the current one.
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Process is a started child process.
type Process interface {
	// Wait waits for the process to exit and its output to be copied; it
	// returns an *exec.ExitError for a non-zero exit.
	Wait() error
	// Kill ends the process and every process it started.
	Kill() error
}

// ErrNotFound is returned by a Runner when the program does not exist.
var ErrNotFound = errors.New("program not found")

// OSRunner starts real processes, each in a new process group (on Unix).
type OSRunner struct{}

// Start implements Runner.
func (OSRunner) Start(spec Spec) (Process, error) {
	path, err := exec.LookPath(spec.Path)
	if err != nil {
		return nil, notFound(spec.Path, err)
	}
	cmd := exec.Command(path, spec.Args...)
	cmd.Env, cmd.Dir = spec.Env, spec.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = spec.Stdin, spec.Stdout, spec.Stderr
	// A grandchild that keeps stdout open must not keep Wait waiting.
	cmd.WaitDelay = 5 * time.Second
	setGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, notFound(spec.Path, err)
	}
	return &osProcess{cmd: cmd}, nil
}

func notFound(path string, err error) error {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return &notFoundError{path: path, err: err}
	}
	return err
}

type notFoundError struct {
	path string
	err  error
}

func (e *notFoundError) Error() string { return e.path + ": " + e.err.Error() }
func (e *notFoundError) Is(target error) bool {
	return target == ErrNotFound
}

type osProcess struct{ cmd *exec.Cmd }

func (p *osProcess) Wait() error { return p.cmd.Wait() }
func (p *osProcess) Kill() error { return killGroup(p.cmd) }
