package consult

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"sync"
	"syscall"
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
	// Kill ends the process and every process it started (in its process
	// group).
	Kill() error
}

// ErrNotFound is returned by a Runner when the program does not exist.
var ErrNotFound = errors.New("program not found")

// How an [OSRunner] process ends. A consultant is judged by its own exit:
// once it has exited, what it wrote is its answer, whatever it left behind.
const (
	// outputGrace is how long output may still arrive after the consultant
	// exited, from descendants that hold its standard output or error.
	outputGrace = 500 * time.Millisecond
	// termGrace is how long the process group has between SIGTERM and
	// SIGKILL.
	termGrace = time.Second
)

// OSRunner starts real processes, each in a new process group (on Unix).
// When the process exits, is killed or times out, its whole group is ended
// (SIGTERM, then SIGKILL after a second): nothing it started outlives the
// call, and a descendant that keeps its standard output open delays the
// result by half a second at most.
type OSRunner struct{}

// Start implements Runner.
func (OSRunner) Start(spec Spec) (Process, error) {
	path, err := exec.LookPath(spec.Path)
	if err != nil {
		return nil, notFound(spec.Path, err)
	}
	cmd := exec.Command(path, spec.Args...)
	cmd.Env, cmd.Dir = spec.Env, spec.Dir
	p := &osProcess{cmd: cmd, copied: make(chan struct{})}
	// The pipes are elicit's own, not exec's: exec would wait for every
	// holder of the write end (a background grandchild) to close it.
	var child []*os.File
	var copies []func()
	pipe := func(w io.Writer, set **os.File) error {
		if w == nil {
			return nil
		}
		r, wf, err := os.Pipe()
		if err != nil {
			return err
		}
		*set = wf
		child, p.ends = append(child, wf), append(p.ends, r)
		copies = append(copies, func() { io.Copy(w, r) })
		return nil
	}
	var stdout, stderr *os.File
	err = pipe(spec.Stdout, &stdout)
	if err == nil {
		err = pipe(spec.Stderr, &stderr)
	}
	var stdinW *os.File
	if err == nil && spec.Stdin != nil {
		var r *os.File
		if r, stdinW, err = os.Pipe(); err == nil {
			cmd.Stdin = r
			child, p.ends = append(child, r), append(p.ends, stdinW)
		}
	}
	closeAll := func(fs []*os.File) {
		for _, f := range fs {
			f.Close()
		}
	}
	if err != nil {
		closeAll(child)
		closeAll(p.ends)
		return nil, err
	}
	if stdout != nil {
		cmd.Stdout = stdout
	}
	if stderr != nil {
		cmd.Stderr = stderr
	}
	setGroup(cmd)
	err = cmd.Start()
	closeAll(child)
	if err != nil {
		closeAll(p.ends)
		return nil, notFound(spec.Path, err)
	}
	if stdinW != nil {
		// A consultant that exits without reading its input ends the copy
		// (EPIPE); Wait closes the pipe for one whose descendants hold it.
		go func() {
			io.Copy(stdinW, spec.Stdin)
			stdinW.Close()
		}()
	}
	var wg sync.WaitGroup
	for _, c := range copies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c()
		}()
	}
	go func() {
		wg.Wait()
		close(p.copied)
	}()
	return p, nil
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

type osProcess struct {
	cmd    *exec.Cmd
	ends   []*os.File    // elicit's ends of the pipes, closed by Wait
	copied chan struct{} // closed when standard output and error are copied

	mu     sync.Mutex
	killed bool        // Kill was called
	ended  bool        // Wait has ended the group: no signal may follow
	timer  *time.Timer // SIGKILL after a Kill's SIGTERM
}

// Wait waits for the process to exit, then for its output for outputGrace
// at most, and ends its process group. Its result is the process's own
// exit status, whatever its descendants do.
func (p *osProcess) Wait() error {
	err := p.cmd.Wait()
	p.mu.Lock()
	killed := p.killed
	p.mu.Unlock()
	if !killed {
		p.awaitOutput(outputGrace)
	}
	p.endGroup()
	p.awaitOutput(outputGrace)
	for _, f := range p.ends {
		f.Close()
	}
	<-p.copied
	return err
}

// Kill sends the process group SIGTERM, and SIGKILL a second later unless
// Wait has ended it by then.
func (p *osProcess) Kill() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.killed || p.ended {
		return nil
	}
	p.killed = true
	p.timer = time.AfterFunc(termGrace, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if !p.ended {
			signalGroup(p.cmd, syscall.SIGKILL)
		}
	})
	return signalGroup(p.cmd, syscall.SIGTERM)
}

// endGroup ends what is left of the process group after the process
// exited: SIGTERM, then SIGKILL once termGrace has passed with a member
// still running. The group's id stays reserved for as long as one member
// lives, so the signals reach no other process.
func (p *osProcess) endGroup() {
	defer func() {
		p.mu.Lock()
		p.ended = true
		if p.timer != nil {
			p.timer.Stop()
		}
		p.mu.Unlock()
	}()
	if !groupAlive(p.cmd) {
		return
	}
	signalGroup(p.cmd, syscall.SIGTERM)
	deadline := time.Now().Add(termGrace)
	for time.Now().Before(deadline) {
		if !groupAlive(p.cmd) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	signalGroup(p.cmd, syscall.SIGKILL)
	// SIGKILL is delivered as the kernel schedules it: wait until it was.
	for i := 0; i < 100 && groupAlive(p.cmd); i++ {
		time.Sleep(10 * time.Millisecond)
	}
}

// awaitOutput waits until standard output and error are copied to the end,
// for d at most.
func (p *osProcess) awaitOutput(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.copied:
	case <-t.C:
	}
}
