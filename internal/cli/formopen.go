package cli

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/widget/page"
	"github.com/spf13/cobra"
)

// defaultOpenTimeout is how long form open waits for the person.
const defaultOpenTimeout = 30 * time.Minute

// unanswered is what form open prints when the form was not answered.
type unanswered struct {
	Success bool   `json:"success"`
	Action  string `json:"action"`
}

func (a *app) formOpen() *cobra.Command {
	var src formSource
	var noBrowser bool
	var timeout time.Duration
	var port int
	cmd := &cobra.Command{
		Use:   "open FILE|- [--no-browser] [--timeout D] [--port N]",
		Short: "Ask a person on a local web page and print the validated answers",
		Long: `Serves the form as a web page on 127.0.0.1 (a random port unless --port) behind a
token, prints "open URL" on stderr and opens the system browser (unless --no-browser,
or none is found). The printed address and the browser's each work once (the
browser's for 2 minutes) and lead to the page: the token is never printed or put on
a command line. $BROWSER names it: a colon-separated list of commands,
the first on PATH used, each with %s for the address (else it is added at the end). Each submission is checked with
collect, and problems are shown beside their fields. On success the page confirms and
collect's JSON is printed (exit 0). Cancel on the page, Ctrl-C, SIGTERM, SIGHUP (the
terminal closed) or the timeout (default 30m; 0 waits forever) print
{"success":false,"action":"cancel"} (exit 3).`,
		Args: func(cmd *cobra.Command, args []string) error { return src.checkArgs(cmd, args, 0, "") },
		RunE: func(cmd *cobra.Command, args []string) error {
			if timeout < 0 {
				return usagef("--timeout must be 0 (wait forever) or more (got %s)", timeout)
			}
			if port < 0 || port > 65535 {
				return usagef("--port must be 0 (any free port) to 65535 (got %d)", port)
			}
			f, tid, err := a.loadForm(&src, args)
			if err != nil {
				return err
			}
			// Ctrl-C, SIGTERM and a closed terminal (SIGHUP) are a cancel.
			ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
			defer stop()
			if timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, timeout)
				defer cancel()
			}
			// The address printed and the browser's each carry a one-time
			// code, not the page's token: a browser's command line is
			// there for every local user to read.
			opts := &page.Options{Port: port, TemplateID: tid, Ready: func(url string) { fmt.Fprintln(a.stderr, "open "+url) }}
			if !noBrowser {
				opts.Open = func(url string) {
					if err := a.openBrowser(url); err != nil {
						fmt.Fprintf(a.stderr, "elicit: %v; open the address above yourself\n", err)
					}
				}
			}
			d, rf := a.door(), runForm(f, tid, &src)
			a.recall(d, &rf)
			d.Shown(rf, form.SurfaceWidget)
			resp, err := page.Serve(ctx, f, opts)
			if err == nil {
				d.Collected(rf, form.SurfaceWidget, resp, nil)
			}
			if errors.Is(err, page.ErrNoAnswer) {
				if werr := writeJSON(a.stdout, unanswered{Action: "cancel"}); werr != nil {
					return werr
				}
				return &noAnswerError{} // the JSON above says so
			}
			if err != nil {
				return err
			}
			return writeJSON(a.stdout, resp)
		},
	}
	src.register(cmd)
	a.registerRecall(cmd)
	cmd.Flags().BoolVar(&noBrowser, "no-browser", false, "only print the address; do not open a browser")
	cmd.Flags().DurationVar(&timeout, "timeout", defaultOpenTimeout, "how long to wait for the answer (0: forever)")
	cmd.Flags().IntVar(&port, "port", 0, "the port on 127.0.0.1 (0: a free one)")
	return cmd
}

// openBrowser starts the system browser on url without waiting for it:
// $BROWSER when set (browserCommands: the first command of its list that
// is on PATH), else the platform's opener.
func (a *app) openBrowser(url string) error {
	cmds := [][]string{{"xdg-open", url}}
	switch {
	case a.getenv("BROWSER") != "":
		cmds = browserCommands(a.getenv("BROWSER"), url)
	case runtime.GOOS == "darwin":
		cmds = [][]string{{"open", url}}
	case runtime.GOOS == "windows":
		cmds = [][]string{{"rundll32", "url.dll,FileProtocolHandler", url}}
	}
	var missing []string
	for _, c := range cmds {
		path, err := exec.LookPath(c[0])
		if err != nil {
			missing = append(missing, c[0])
			continue
		}
		p := exec.Command(path, c[1:]...)
		if err := p.Start(); err != nil {
			return fmt.Errorf("start the browser %s: %w", c[0], err)
		}
		go func() { _ = p.Wait() }() // reap it; the answer does not depend on it
		return nil
	}
	if len(missing) == 0 {
		return fmt.Errorf("no browser found ($BROWSER names no command)")
	}
	return fmt.Errorf("no browser found (not on PATH: %s)", strings.Join(missing, ", "))
}

// browserCommands reads $BROWSER as the convention has it: a list of
// commands separated by the path list separator (':'), each split into
// arguments at spaces, with %s replaced by the URL (%% is a '%'), or the
// URL added as the last argument when there is no %s.
func browserCommands(env, url string) [][]string {
	var cmds [][]string
	for _, entry := range filepath.SplitList(env) {
		args := strings.Fields(entry)
		if len(args) == 0 {
			continue
		}
		placed := false
		for i, arg := range args {
			if i == 0 || !strings.Contains(arg, "%") {
				continue
			}
			var b strings.Builder
			for j := 0; j < len(arg); j++ {
				switch {
				case arg[j] == '%' && j+1 < len(arg) && arg[j+1] == 's':
					b.WriteString(url)
					placed = true
					j++
				case arg[j] == '%' && j+1 < len(arg) && arg[j+1] == '%':
					b.WriteByte('%')
					j++
				default:
					b.WriteByte(arg[j])
				}
			}
			args[i] = b.String()
		}
		if !placed {
			args = append(args, url)
		}
		cmds = append(cmds, args)
	}
	return cmds
}
