package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/relay"
	"github.com/elicit/elicit/problem"
)

// sendBackground starts `elicit deliberate send ID --background-worker` in
// a session of its own and returns once the worker has noted the
// consultation in the state (or refused it): the worker prints that on its
// standard output, then closes it and consults.
func (a *app) sendBackground(st *deliberation.Store, id string, f *sendFlags, asJSON bool) error {
	said, err := a.spawnWorker(st, id, f.args())
	if err != nil {
		return err
	}
	var o relay.Outcome
	if json.Unmarshal(said, &o) != nil || o.Status == "" {
		var f failure
		if json.Unmarshal(said, &f) == nil && len(f.Problems) > 0 {
			if asJSON {
				a.stdout.Write(said)
				return errReported
			}
			var probs problem.List
			for _, p := range f.Problems {
				probs = append(probs, problem.Problem{Message: p})
			}
			return probs
		}
		return fmt.Errorf("the background consultation did not start (%q)", strings.TrimSpace(string(said)))
	}
	if asJSON {
		return writeJSON(a.stdout, o)
	}
	v := o.Consultation
	fmt.Fprintf(a.stdout, "consulting %s on iteration %d in the background (process %d)\nnext: elicit deliberate wait %s\n", v.Consultant, v.Iteration, v.PID, id)
	return nil
}

// spawnWorker starts `elicit deliberate send ID --background-worker
// --json ARGS...` in a session of its own and returns what it printed
// before it closed its standard output.
func (a *app) spawnWorker(st *deliberation.Store, id string, args []string) ([]byte, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("start the background consultation: %w", err)
	}
	cmd := exec.Command(exe, append([]string{"deliberate", "send", st.StatePath(id), "--background-worker", "--json"}, args...)...)
	cmd.Args[0] = os.Args[0] // how this binary was called (a test binary dispatches on it)
	detach(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start the background consultation: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the background consultation: %w", err)
	}
	said, _ := io.ReadAll(io.LimitReader(out, 1<<20))
	cmd.Process.Release()
	return said, nil
}

// backgroundWorker notes the consultation in the state, says so on
// standard output and closes it, then consults until the answer or a
// failure is recorded; SIGTERM (deliberate cancel) stops it.
func (a *app) backgroundWorker(st *deliberation.Store, id string, c consult.Consultant, opts *relay.Options) error {
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	opts.Background = true
	call, err := relay.Begin(st, id, c, opts)
	if err != nil {
		return a.delibProblems(true, err)
	}
	o, err := relay.Status(st, id)
	if err == nil {
		err = writeJSON(a.stdout, o)
	}
	if cl, ok := a.stdout.(io.Closer); ok {
		cl.Close()
	}
	a.stdout, a.stderr = io.Discard, io.Discard
	call.Run(ctx)
	return err
}

func (a *app) deliberateWait() *cobra.Command {
	var timeout time.Duration
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "wait ID",
		Short: "Wait for a deliberation's consultation to end and print its answer",
		Long: `Wait for the consultation of the deliberation's current step (send --background, an MCP
server, another terminal) and print the answer as send does. Exit 0 when the answer is recorded,
1 when the consultant failed or nothing was consulted, 3 when it was canceled or interrupted or
--timeout ran out while it still runs.`,
		Args: exactArgs(1, "ID"),
		RunE: func(_ *cobra.Command, args []string) error {
			if timeout < 0 {
				return usagef("--timeout must not be negative")
			}
			return a.delibWithStore(args, func(st *deliberation.Store, id string) error {
				ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
				defer stop()
				limit := timeout
				if limit == 0 {
					limit = 1<<63 - 1
				}
				if c, err := st.Council(id); err != nil || c != nil {
					if err != nil {
						return a.delibProblems(asJSON, err)
					}
					return a.councilWait(st, id, limit, asJSON)
				}
				o, err := relay.Wait(ctx, st, id, limit, 250*time.Millisecond)
				if err != nil {
					return a.delibProblems(asJSON, err)
				}
				return a.printOutcome(o, asJSON)
			})
		},
	}
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "give up after this long (0: wait until it ends)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {status, result | failure | consultation, next} as JSON")
	return cmd
}

// printOutcome prints where a consultation stands and picks the exit code.
func (a *app) printOutcome(o *relay.Outcome, asJSON bool) error {
	var ret error
	switch o.Status {
	case relay.StatusFailed, relay.StatusIdle:
		ret = errReported
	case relay.StatusCanceled, relay.StatusInterrupted, relay.StatusRunning:
		ret = &noAnswerError{}
	}
	if asJSON {
		if err := writeJSON(a.stdout, outcomeJSON(o, ret == errReported)); err != nil {
			return err
		}
		return ret
	}
	switch o.Status {
	case relay.StatusDone:
		a.printSent(o.Result)
	case relay.StatusFailed:
		fmt.Fprintf(a.stderr, "elicit: %s: %s: %s\n", o.Failure.Consultant, o.Failure.Kind, o.Failure.Message)
	case relay.StatusCanceled:
		fmt.Fprintf(a.stderr, "elicit: the consultation of %s was canceled; the next send opens a fresh session\n", o.ID)
	case relay.StatusInterrupted:
		fmt.Fprintf(a.stderr, "elicit: the consultation of %s was interrupted (process %d is gone); the next send recovers it in a fresh session\n", o.ID, o.Consultation.PID)
	case relay.StatusRunning:
		fmt.Fprintf(a.stderr, "elicit: %s is still consulted on iteration %d (%d s so far, process %d)\n", o.Consultation.Consultant, o.Consultation.Iteration, o.Consultation.ElapsedSeconds, o.Consultation.PID)
	case relay.StatusIdle:
		fmt.Fprintf(a.stderr, "elicit: no consultation in the current step of %s (send starts one)\n", o.ID)
	}
	return ret
}

// outcomeJSON is the outcome as --json prints it: an exit 1 (failed, or
// nothing consulted) also says "success": false, as every exit-1 JSON
// does, and nothing consulted is told as a problem.
func outcomeJSON(o *relay.Outcome, failed bool) any {
	if !failed {
		return o
	}
	raw, err := json.Marshal(o)
	var m map[string]any
	if err != nil || json.Unmarshal(raw, &m) != nil {
		return o
	}
	m["success"] = false
	if o.Status == relay.StatusIdle {
		m["problems"] = []string{fmt.Sprintf("no consultation in the current step of %s (send starts one)", o.ID)}
	}
	return m
}

func (a *app) deliberateCancel() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "cancel ID",
		Short: "Stop a deliberation's running consultation",
		Long: `Stop the consultation of the deliberation's current step: the process that runs it kills
the consultant's process group and records the cancellation. The prompt stays pending, and the
next send opens a fresh session. A consultation whose process is gone is ended at once.`,
		Args: exactArgs(1, "ID"),
		RunE: func(_ *cobra.Command, args []string) error {
			return a.delibWithStore(args, func(st *deliberation.Store, id string) error {
				if c, err := st.Council(id); err != nil || c != nil {
					if err != nil {
						return a.delibProblems(asJSON, err)
					}
					return a.councilCancel(st, c, asJSON)
				}
				if err := relay.Cancel(st, id, 15*time.Second); err != nil {
					return a.delibProblems(asJSON, err)
				}
				o, err := relay.Status(st, id)
				if err != nil {
					return a.delibProblems(asJSON, err)
				}
				if asJSON {
					return writeJSON(a.stdout, o)
				}
				fmt.Fprintf(a.stdout, "consultation of %s: %s\n", id, o.Status)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print where the consultation stands as JSON")
	return cmd
}
