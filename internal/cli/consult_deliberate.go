package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/relay"
	"github.com/elicit/elicit/problem"
	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
)

// sendFlags are the flags of `deliberate send` and `deliberate start --send`.
type sendFlags struct {
	consultant, effort, model string
	timeout, idle, maxTime    time.Duration
	maxTokens                 int64
	structured, fresh         bool
	// consultantSet: --consultant was given (a council's are fixed);
	// effortSet: --effort was (on a council, it overrides each member's
	// own for this send, as --model does).
	consultantSet, effortSet bool
	// background runs the consultation in a process of its own; worker is
	// that process (a hidden flag), member the council member it consults
	// (another).
	background, worker bool
	member             string
	// started: start --send created the deliberation, so the JSON carries
	// its id, state file and notes, a failure's too (the agent retries
	// with send ID).
	started *startInfo
}

// startInfo is what deliberate start --json prints.
type startInfo struct {
	ID        string   `json:"id"`
	StateFile string   `json:"state_file"`
	Notes     []string `json:"notes,omitempty"`
}

// register adds the flags to cmd and returns their names.
func (f *sendFlags) register(cmd *cobra.Command) []string {
	fl := cmd.Flags()
	fl.StringVar(&f.consultant, "consultant", "codex", "the consultant: codex, or command:`PROGRAM` [ARGS...] (prompt on stdin, answer on stdout)")
	fl.StringVar(&f.effort, "effort", consult.DefaultEffort, "reasoning effort: high, or xhigh for non-obvious consequences")
	fl.StringVar(&f.model, "model", "", "the codex model (default: codex's configured model)")
	fl.DurationVar(&f.timeout, "timeout", consult.DefaultTimeout, "wall-clock limit of one call (consultations take 5-20+ minutes)")
	fl.DurationVar(&f.idle, "idle-timeout", consult.DefaultIdleTimeout, "end a codex call after this long without an event")
	fl.Int64Var(&f.maxTokens, "max-tokens", 0, "token budget of the whole deliberation (0: none; the last one given stays)")
	fl.DurationVar(&f.maxTime, "max-time", 0, "consultant-time budget of the whole deliberation (0: none; the last one given stays)")
	fl.BoolVar(&f.structured, "structured", false, "hold codex to a JSON answer schema (labelled points, defended or conceded challenge IDs), recorded as text")
	fl.BoolVar(&f.fresh, "fresh", false, "open a fresh session with the Recovery prompt instead of resuming the recorded one")
	fl.BoolVar(&f.background, "background", false, "consult in the background and return at once (then: elicit deliberate wait ID)")
	fl.BoolVar(&f.worker, "background-worker", false, "run the background consultation (internal)")
	fl.MarkHidden("background-worker")
	fl.StringVar(&f.member, "member", "", "the council member the background worker consults (internal)")
	fl.MarkHidden("member")
	return []string{"consultant", "effort", "model", "timeout", "idle-timeout", "max-tokens", "max-time",
		"structured", "fresh", "background", "background-worker", "member"}
}

// args are the flags again, for the background worker's command line;
// --consultant and --effort only when given (a council's consultants are
// its members', and a given effort overrides each member's own).
func (f *sendFlags) args() []string {
	out := []string{"--timeout", f.timeout.String(),
		"--idle-timeout", f.idle.String(), "--max-tokens", strconv.FormatInt(f.maxTokens, 10), "--max-time", f.maxTime.String()}
	if f.consultantSet {
		out = append(out, "--consultant", f.consultant)
	}
	if f.effortSet {
		out = append(out, "--effort", f.effort)
	}
	if f.model != "" {
		out = append(out, "--model", f.model)
	}
	if f.structured {
		out = append(out, "--structured")
	}
	if f.fresh {
		out = append(out, "--fresh")
	}
	return out
}

func (f *sendFlags) check() error {
	if f.effort != "high" && f.effort != "xhigh" {
		return usagef("--effort must be high or xhigh (got %q)", f.effort)
	}
	if f.timeout <= 0 || f.idle <= 0 || f.maxTime < 0 || f.maxTokens < 0 {
		return usagef("--timeout and --idle-timeout must be positive, --max-tokens and --max-time not negative")
	}
	var over []string
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--timeout", f.timeout}, {"--idle-timeout", f.idle}, {"--max-time", f.maxTime}} {
		if d.v > consult.MaxDuration {
			over = append(over, fmt.Sprintf("%s %s is over the maximum of %s (365 days)", d.flag, d.v, consult.MaxDuration))
		}
	}
	if len(over) > 0 {
		return usagef("%s", strings.Join(over, "; "))
	}
	return nil
}

func (a *app) deliberateSend() *cobra.Command {
	f := &sendFlags{}
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "send ID",
		Short: "Send the pending prompt to the consultant and record its answer",
		Long: `Send the pending prompt to the consultant (codex by default): a new session on the first
iteration, a resume after it. When a resume fails (thread not found, expired, timeout, error),
a fresh session gets the Recovery prompt built from the state file, noted in the state; so does a
send after recover, after a degraded context, with another consultant, or with --fresh. The stress
test and arbitration go to a session of their own. The answer and the session id are recorded;
evaluate the answer next. On a terminal, progress goes to stderr. Ctrl-C (or SIGTERM) stops the
consultant and records the cancellation (exit 3); the next send opens a fresh session.

With --background the consultation runs in a process of its own and send returns at once
({"status":"running",...}); 'elicit deliberate wait ID' waits for it, 'elicit deliberate status ID'
shows it, 'elicit deliberate cancel ID' stops it.`,
		Args: exactArgs(1, "ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			f.consultantSet, f.effortSet = cmd.Flags().Changed("consultant"), cmd.Flags().Changed("effort")
			return a.delibWithStore(args, func(st *deliberation.Store, id string) error {
				return a.send(st, id, f, asJSON)
			})
		},
	}
	f.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}

// addStartSend gives start a --send flag: start, then send the First Call.
func (a *app) addStartSend(start *cobra.Command) {
	f := &sendFlags{}
	var send bool
	start.Flags().BoolVar(&send, "send", false, "send the First Call to the consultant at once (see elicit deliberate send)")
	names := f.register(start)
	run := start.RunE
	start.RunE = func(cmd *cobra.Command, args []string) error {
		if !send {
			// Without --send nothing is sent, so a send flag would be
			// ignored: it is refused instead (docs/decisions.md,
			// "`deliberate start` takes the send flags only with `--send`").
			var given []string
			for _, name := range names {
				if cmd.Flags().Changed(name) {
					given = append(given, "--"+name)
				}
			}
			if len(given) > 0 {
				verb, them := "applies", "it"
				if len(given) > 1 {
					verb, them = "apply", "them"
				}
				return usagef("%s: %s only %s with --send (or give %s to 'elicit deliberate send ID' later)", cmd.CommandPath(), strings.Join(given, ", "), verb, them)
			}
			return run(cmd, args)
		}
		if err := f.check(); err != nil {
			return err
		}
		f.consultantSet, f.effortSet = cmd.Flags().Changed("consultant"), cmd.Flags().Changed("effort")
		// The consultant is checked before the deliberation is created: a
		// usage error leaves nothing behind.
		if _, _, err := a.consultant(f.spec()); err != nil {
			return err
		}
		asJSON, _ := cmd.Flags().GetBool("json")
		started, err := a.startQuietly(run, cmd, args, asJSON)
		if err != nil || started == nil {
			return err
		}
		f.started = started
		id := started.ID
		st, err := a.deliberationStore()
		if err != nil {
			return err
		}
		return a.send(st, id, f, asJSON)
	}
}

// startQuietly runs start in JSON mode into a buffer and returns what it
// printed; a failure's output goes through unchanged.
func (a *app) startQuietly(run func(*cobra.Command, []string) error, cmd *cobra.Command, args []string, asJSON bool) (*startInfo, error) {
	if err := cmd.Flags().Set("json", "true"); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	out := a.stdout
	a.stdout = &buf
	err := run(cmd, args)
	a.stdout = out
	var started startInfo
	if err != nil || json.Unmarshal(buf.Bytes(), &started) != nil || started.ID == "" {
		if asJSON || err == nil {
			io.Copy(out, &buf)
		}
		return nil, err
	}
	if !asJSON {
		fmt.Fprintf(a.stdout, "deliberation %s started (state: %s); sending the First Call\n", started.ID, started.StateFile)
		for _, n := range started.Notes {
			fmt.Fprintf(a.stdout, "note: %s\n", n)
		}
	}
	return &started, nil
}

func (f *sendFlags) spec() consultantSpec {
	return consultantSpec{name: f.consultant, model: f.model, effort: f.effort, timeout: f.timeout, idleTimeout: f.idle}
}

// cliWords name the next steps of a send in messages: the CLI's commands
// and flags.
var cliWords = relay.Words{Evaluate: "elicit deliberate evaluate", Wait: "deliberate wait ID", Cancel: "deliberate cancel ID",
	MaxTokens: "--max-tokens", MaxTime: "--max-time"}

func (a *app) send(st *deliberation.Store, id string, f *sendFlags, asJSON bool) error {
	if council, err := st.Council(id); err != nil || council != nil {
		if err != nil {
			return a.delibProblems(asJSON, err)
		}
		return a.councilSend(st, council, f, f.consultantSet, asJSON)
	}
	if f.member != "" {
		return usagef("--member is for a council's background worker, and %s is no council", id)
	}
	c, _, err := a.consultant(f.spec())
	if err != nil {
		return err
	}
	opts := &relay.Options{Effort: f.effort, Budget: relay.Budget{MaxTokens: f.maxTokens, MaxTime: f.maxTime},
		Structured: f.structured, Fresh: f.fresh, Words: &cliWords}
	switch {
	case f.worker:
		return a.backgroundWorker(st, id, c, opts)
	case f.background:
		return a.sendBackground(st, id, f, asJSON)
	}
	// Ctrl-C, SIGTERM and a closed terminal stop the consultant's whole
	// process group (it has a group of its own) and record the
	// cancellation.
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	opts.Progress = a.progress()
	r, err := relay.Send(ctx, st, id, c, opts)
	a.endProgress(opts.Progress)
	if err != nil {
		var started map[string]any
		if f.started != nil {
			started = map[string]any{"id": id, "state_file": f.started.StateFile}
			if len(f.started.Notes) > 0 {
				started["notes"] = f.started.Notes
			}
		}
		return a.sendFailure(err, asJSON, started)
	}
	if asJSON && f.started != nil {
		return writeJSON(a.stdout, struct {
			*relay.Result
			StateFile string   `json:"state_file"`
			Notes     []string `json:"notes,omitempty"`
		}{r, f.started.StateFile, f.started.Notes})
	}
	if asJSON {
		return writeJSON(a.stdout, r)
	}
	a.printSent(r)
	return nil
}

func (a *app) printSent(r *relay.Result) {
	session := r.SessionID
	if session == "" {
		session = "without an id"
	}
	how := "new session " + session
	switch {
	case r.Side:
		how = "a session of its own, " + session
	case r.Recovery != "":
		how = fmt.Sprintf("recovered: new session %s after %s", session, r.Recovery)
	case r.Resumed:
		how = "resumed " + session
	}
	fmt.Fprintf(a.stdout, "%s answered iteration %d (%s; %s, %d tokens; deliberation total %d tokens in %d calls)\n\n%s\n",
		r.Consultant, r.Iteration, how, (time.Duration(r.DurationMS) * time.Millisecond).Round(time.Second), r.Usage.Total(), r.Totals.Tokens, r.Totals.Calls, r.Answer)
	fmt.Fprintf(a.stdout, "\nnext: elicit deliberate evaluate %s --file EVALUATION.json\n", r.ID)
}

// sendFailure prints a consultant failure (as JSON with --json) and exits
// 1, or 3 when it was canceled (no answer). started (the id and state file
// of a deliberation start --send created) goes into the JSON.
func (a *app) sendFailure(err error, asJSON bool, started map[string]any) error {
	err = deliberation.NameRestore(err, restoreCommand)
	var ce *consult.Error
	if !errors.As(err, &ce) {
		var probs problem.List
		if !asJSON || started == nil || !errors.As(err, &probs) {
			return a.delibProblems(asJSON, err)
		}
		started["success"], started["problems"] = false, probs.Strings()
		if werr := writeJSON(a.stdout, started); werr != nil {
			return werr
		}
		return errReported
	}
	ret := error(errReported)
	if ce.Kind == consult.KindCanceled {
		ret = &noAnswerError{}
	}
	if asJSON {
		out := map[string]any{"success": false, "failure": map[string]any{
			"consultant": ce.Consultant, "kind": ce.Kind, "message": ce.Message, "exit_code": ce.ExitCode, "stderr_tail": ce.StderrTail}}
		for k, v := range started {
			out[k] = v
		}
		if werr := writeJSON(a.stdout, out); werr != nil {
			return werr
		}
		return ret
	}
	if ce.Kind == consult.KindCanceled {
		return &noAnswerError{msg: err.Error()}
	}
	return err
}

// progress returns a progress printer when stderr is a terminal, else nil.
func (a *app) progress() func(consult.Progress) {
	f, ok := a.stderr.(*os.File)
	if !ok || !isatty.IsTerminal(f.Fd()) {
		return nil
	}
	return func(p consult.Progress) {
		fmt.Fprintf(f, "\r\033[Kconsulting: %s, %d events (last %s)", p.Elapsed.Round(time.Second), p.Events, p.Last)
	}
}

func (a *app) endProgress(p func(consult.Progress)) {
	if p != nil {
		fmt.Fprint(a.stderr, "\r\033[K")
	}
}
