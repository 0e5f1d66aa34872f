package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/term"
	"github.com/elicit/elicit/internal/termui"
	"github.com/spf13/cobra"
)

func (a *app) formAsk() *cobra.Command {
	var src formSource
	var accessible bool
	cmd := &cobra.Command{
		Use:   "ask FILE|--template NAME [--slot k=v] [--accessible]",
		Short: "Ask a form on the terminal and print collect's JSON (exit 3 when cancelled)",
		Long: `On a terminal, ask shows one control per field (arrows or j/k and enter to pick, space to
toggle, a line editor with collect's checks as you type, ctrl-d to end a text); the drawing goes
to standard error (or the terminal itself when standard error is redirected), collect's JSON to
standard output. When standard input is not a terminal, or
with --accessible, it asks line by line instead: one answer per line (an option's number or name,
several separated by commas, yes or no, a date, text; an empty line keeps the default), a bad
answer asked again with collect's message. Escape, Ctrl-C, SIGTERM, SIGHUP or the end of
the input print {"success":false,"action":"cancel"} and exit 3, the terminal restored. For a
time limit use timeout --foreground: in the background (timeout without it) ask exits 2.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 && args[0] == "-" {
				return usagef("form ask reads the answers from standard input: give the form as FILE or --template NAME")
			}
			return src.checkArgs(cmd, args, 0, "")
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			f, tid, err := a.loadForm(&src, args)
			if err != nil {
				return reportJSON(a.stdout, err)
			}
			d, rf := a.door(), runForm(f, tid, &src)
			a.recall(d, &rf)
			answers, err := a.askForm(f, accessible)
			switch {
			case errors.Is(err, io.EOF):
				fmt.Fprintln(a.stderr, "elicit: the input ended before every question was answered")
				fallthrough
			case errors.Is(err, termui.ErrCancelled):
				if werr := writeJSON(a.stdout, unanswered{Action: "cancel"}); werr != nil {
					return werr
				}
				return &noAnswerError{} // the JSON above says so
			case err != nil:
				return err
			}
			r, err := form.Collect(f, answers, &form.CollectOptions{TemplateID: tid})
			d.Shown(rf, form.SurfaceTerminal)
			d.Collected(rf, form.SurfaceTerminal, r, err)
			if err != nil {
				return reportJSON(a.stdout, err)
			}
			return writeJSON(a.stdout, r)
		},
	}
	src.register(cmd)
	a.registerRecall(cmd)
	cmd.Flags().BoolVar(&accessible, "accessible", false, "ask line by line (for screen readers), even on a terminal")
	return cmd
}

// askForm asks f on the terminal (see widgetTerminal), or line by line when
// there is none or accessible is set. A stop signal (Ctrl-C in line mode,
// SIGTERM, SIGHUP) is a cancel.
func (a *app) askForm(f *form.Form, accessible bool) (map[string]any, error) {
	if a.inBackground() {
		return nil, usagef("form ask cannot ask on the terminal: %s, or give the answers on standard input (form ask FILE < answers.txt)", inBackgroundFix)
	}
	if accessible {
		return askLines(f, a.stdin, a.stderr)
	}
	in, out, done, ok := a.widgetTerminal()
	if !ok {
		return askLines(f, a.stdin, a.stderr)
	}
	defer done()
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	ui, err := term.Open(ctx, in, out)
	if err != nil {
		return nil, err
	}
	defer ui.Close()
	return term.Ask(f, ui)
}

// inBackgroundFix says why a command cannot ask on the terminal when
// inBackground and what to do instead.
const inBackgroundFix = "elicit runs in a background process group (as under timeout without --foreground), " +
	"where the system stops a process that reads the terminal or changes its modes; run it in the foreground " +
	"(timeout --foreground SECONDS elicit ...)"

// inBackground reports whether standard input is the terminal and elicit
// does not own it (see termui.InBackground): asking there, on the widgets
// or line by line, would stop elicit for good instead of asking, so form
// ask and methods pick refuse at once (exit 2).
func (a *app) inBackground() bool {
	in, ok := a.stdin.(*os.File)
	return ok && termui.IsTerminal(in) && termui.InBackground(in)
}

// widgetTerminal is where the terminal widgets (form ask, methods pick)
// read keys and draw: standard input when it is a terminal, drawing on
// standard error, or on the terminal itself (/dev/tty) when standard error
// is redirected too. Standard output stays free for the result, so it may
// be captured (a file, a pipe, $(...)). ok is false when standard input is
// not a terminal or there is nowhere to draw; done releases what was
// opened.
func (a *app) widgetTerminal() (in, out *os.File, done func(), ok bool) {
	in, isFile := a.stdin.(*os.File)
	if !isFile || !termui.IsTerminal(in) {
		return nil, nil, nil, false
	}
	if e, isFile := a.stderr.(*os.File); isFile && termui.IsTerminal(e) {
		return in, e, func() {}, true
	}
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return nil, nil, nil, false
	}
	return in, tty, func() { tty.Close() }, true
}

// askLines runs term.AskLines; a stop signal (Ctrl-C on a terminal in line
// mode, SIGTERM, SIGHUP) is a cancel.
func askLines(f *form.Form, in io.Reader, out io.Writer) (map[string]any, error) {
	type result struct {
		answers map[string]any
		err     error
	}
	done := make(chan result, 1)
	go func() {
		answers, err := term.AskLines(f, in, out)
		done <- result{answers, err}
	}()
	interrupt := make(chan os.Signal, 1)
	signal.Notify(interrupt, stopSignals...)
	defer signal.Stop(interrupt)
	select {
	case r := <-done:
		return r.answers, r.err
	case <-interrupt:
		fmt.Fprintln(out)
		return nil, termui.ErrCancelled
	}
}
