package cli

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/internal/config"
	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/elicit/elicit/internal/version"
	"github.com/elicit/elicit/mcpserver"
	"github.com/elicit/elicit/method"
	"github.com/spf13/cobra"
)

func serveCommand(a *app) *cobra.Command {
	var addr, token, tokenFile, tokensFile, tools string
	var origins, consultants []string
	rf := &registryFlags{}
	cmd := &cobra.Command{
		Use:   "serve [--tools LIST] [--allow-consultant NAME]... [--http ADDR [--token-file FILE | --tokens-file FILE] [--allow-origin ORIGIN]...]",
		Short: "Serve elicit's tools, prompts and resources over MCP (stdio by default, or Streamable HTTP)",
		Long: `Serve MCP over standard input and output (the default), or over Streamable HTTP at
http://ADDR/mcp with --http. Over HTTP every request must send a bearer token: the one in
--token-file or ELICIT_TOKEN, else one elicit keeps in $ELICIT_HOME/serve-token (only you
can read it; stderr says where it is). For a team, --tokens-file holds one token per person
(by hash; elicit token NAME --tokens-file FILE makes one), and each call is its
person's. A bare port binds to 127.0.0.1; a host that is not loopback needs a token of your
own. Requests from browser pages of other origins than
loopback ones and those given with --allow-origin are refused.
The consultants deliberation_send may run are fixed here: over HTTP codex and those named
with --allow-consultant (codex, command:PROGRAM ARGS exactly, or command:PROGRAM ARGS *
for any further arguments); over stdio any the host asks for, unless --allow-consultant
is given.
--tools serves a subset: groups (forms, methods, deliberation) and tool names, separated
by commas; the prompts, resources and instructions follow the groups served.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			users, err := a.serveUsers(cmd, tokensFile)
			if err != nil {
				return err
			}
			tok, err := a.serveToken(cmd, token, tokenFile)
			if err != nil {
				return err
			}
			if err := mcpserver.CheckOrigins(origins); err != nil {
				return usagef("%v", err)
			}
			allowed, err := allowedConsultants(addr != "", consultants)
			if err != nil {
				return err
			}
			var names []string
			if cmd.Flags().Changed("tools") {
				var err error
				if names, err = mcpserver.ResolveTools(tools); err != nil {
					return usagef("%v", err)
				}
			}
			reg := a.registry(rf)
			a.warn(reg)
			// The consultations deliberation_send runs in the background
			// stop with the server (SIGTERM, Ctrl-C, stdin closed), each
			// recorded as canceled so its deliberation recovers.
			bg := mcpserver.NewBackground()
			defer bg.Stop(15 * time.Second)
			rlog, writes := a.serveLog()
			var logDir string
			var warn func(string)
			if rlog != nil {
				logDir, warn = rlog.Dir(), rlog.Warn
			}
			s := mcpserver.New(&mcpserver.Options{
				Version:        version.Get().Version,
				Templates:      a.templates(),
				Registry:       func() *method.Registry { return reg },
				Project:        a.project(),
				Getenv:         a.getenv,
				Tools:          names,
				Background:     bg,
				Consultants:    allowed,
				ResponseLogDir: logDir,
				NoLogWrites:    !writes,
				Warn:           warn,
			})
			if err := a.tightenHome(); err != nil {
				fmt.Fprintln(a.stderr, "elicit: warning: "+err.Error())
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			// On a signal the consultations stop at once, so that the
			// deliberation_wait calls in flight return before the
			// server waits for its calls to end.
			defer context.AfterFunc(ctx, func() { bg.Stop(15 * time.Second) })()
			defer ingestInBackground(rlog)()
			if addr == "" {
				err := mcpserver.ServeStdio(ctx, s, bg)
				if ctx.Err() != nil {
					return nil // stopped by SIGTERM or Ctrl-C: a normal end
				}
				return err
			}
			listenToken := tok
			if users != nil {
				listenToken = tokensFile
			}
			listen, err := mcpserver.ListenAddr(addr, listenToken)
			if err != nil {
				return usagef("%v", err)
			}
			if tok == "" && users == nil {
				if tok, err = a.keptToken(); err != nil {
					return err
				}
			}
			served := false
			// With a team database the server is one of its replicas.
			db, _ := config.DatabaseFor(a.project(), a.getenv)
			ho := &mcpserver.HTTPOptions{Token: tok, Users: users, AllowedOrigins: origins, Replicas: db.URL != ""}
			err = mcpserver.ServeHTTP(ctx, s, listen, ho, func(bound string) {
				served = true
				fmt.Fprintf(a.stderr, "elicit: serving MCP at http://%s/mcp\n", bound)
			})
			if err != nil && !served {
				return fmt.Errorf("--http %s: %w", addr, err)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&tools, "tools", "", "serve only these tools: `LIST` of groups (forms, methods, deliberation) and tool names")
	cmd.Flags().StringVar(&addr, "http", "", "serve Streamable HTTP on `ADDR` (PORT or HOST:PORT) instead of stdio")
	cmd.Flags().StringVar(&tokenFile, "token-file", "", "read the bearer token every HTTP request must send from `FILE` (default $ELICIT_TOKEN)")
	cmd.Flags().StringVar(&tokensFile, "tokens-file", "", "a team's tokens: `FILE` of NAME SHA256 lines, one per person (elicit token makes them); each call is its token's person's")
	cmd.Flags().StringVar(&token, "token", "", "the bearer `TOKEN` itself (visible to other users in the process list: prefer --token-file or ELICIT_TOKEN)")
	cmd.Flags().StringArrayVar(&consultants, "allow-consultant", nil, "let deliberation_send run consultant `NAME` (codex, command:PROGRAM ARGS, or command:PROGRAM ARGS * for any further arguments; repeatable); over HTTP only codex and these run")
	cmd.Flags().StringArrayVar(&origins, "allow-origin", nil, "also accept requests from browser pages of `ORIGIN` (http(s)://host[:port]; repeatable; no *); loopback origins always are")
	cmd.Flags().StringVar(&rf.registry, "registry", "", "method registry CSV `file` (default $ELICIT_METHODS, else the embedded registry)")
	return cmd
}

// tokensInput is the cap on a tokens file.
var tokensInput = infile.Limit{Max: 1 << 20, What: "a tokens file", Fix: "it holds one NAME SHA256 line per person"}

// serveUsers reads --tokens-file: nil without it. It goes with --http
// alone, and not with a token of its own.
func (a *app) serveUsers(cmd *cobra.Command, file string) (*mcpserver.Users, error) {
	if file == "" {
		return nil, nil
	}
	if cmd.Flags().Changed("token") || cmd.Flags().Changed("token-file") {
		return nil, usagef("--tokens-file holds every token: give it without --token or --token-file")
	}
	if !cmd.Flags().Changed("http") {
		return nil, usagef("--tokens-file is for --http: over stdio the host that starts the server is its one user")
	}
	data, err := a.readInput(file, tokensInput)
	if err != nil {
		return nil, fmt.Errorf("--tokens-file: %w", err)
	}
	return mcpserver.ParseUsers(file, data)
}

// serveTokenCommand makes a person's token: it prints the token (once:
// the file keeps only its hash) and adds its line to the tokens file.
func tokenCommand(a *app) *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "token NAME --tokens-file FILE",
		Short: "Make a person's token for serve --tokens-file: print it, and add its hash to FILE",
		Args:  exactArgs(1, "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if file == "" {
				return usagef("elicit token needs --tokens-file FILE")
			}
			token, line, err := mcpserver.NewToken(args[0])
			if err != nil {
				return err
			}
			f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
			if err != nil {
				return err
			}
			if _, err := f.WriteString(line); err != nil {
				f.Close()
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
			fmt.Fprintln(a.stdout, token)
			fmt.Fprintf(a.stderr, "elicit: %s's token is above, shown this once; %s keeps its SHA-256\n", args[0], file)
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "tokens-file", "", "the tokens `FILE` to add the token's hash to (created 0600)")
	return cmd
}

// tokenInput is the cap on a token file.
var tokenInput = infile.Limit{Max: 4 << 10, What: "a token file", Fix: "it holds one token"}

// serveToken resolves the HTTP bearer token: --token-file, else --token
// (with a warning: the process list shows it), else ELICIT_TOKEN.
func (a *app) serveToken(cmd *cobra.Command, token, file string) (string, error) {
	if cmd.Flags().Changed("token") && cmd.Flags().Changed("token-file") {
		return "", usagef("give the token once: --token-file or --token, not both")
	}
	if cmd.Flags().Changed("token") {
		fmt.Fprintln(a.stderr, "elicit: warning: --token is visible to other users of this machine in the process list (ps, /proc/PID/cmdline); use --token-file FILE or ELICIT_TOKEN")
	}
	if file != "" {
		data, err := a.readInput(file, tokenInput)
		if err != nil {
			return "", fmt.Errorf("--token-file: %w", err)
		}
		if token = strings.TrimSpace(string(data)); token == "" {
			return "", fmt.Errorf("--token-file %s is empty (write the token into it)", file)
		}
		if err := checkToken(token); err != nil {
			return "", fmt.Errorf("--token-file %s: %v", file, err)
		}
		if fi, err := os.Stat(file); err == nil && file != "-" && fi.Mode().Perm()&0o077 != 0 {
			fmt.Fprintf(a.stderr, "elicit: warning: token file %s is readable by other users (chmod 600 %s)\n", file, file)
		}
		return token, nil
	}
	source := "--token"
	if token == "" {
		token, source = a.getenv("ELICIT_TOKEN"), "ELICIT_TOKEN"
	}
	if token != "" {
		if err := checkToken(token); err != nil {
			return "", fmt.Errorf("%s: %v", source, err)
		}
	}
	return token, nil
}

// checkToken refuses a token a client cannot send as it is in
// "Authorization: Bearer TOKEN": one word of visible ASCII characters. A
// file of several lines would otherwise make every request fail with 401.
func checkToken(token string) error {
	if n := strings.Count(token, "\n") + 1; n > 1 {
		return fmt.Errorf("holds %d lines; it must hold the token alone, on one line", n)
	}
	for _, r := range token {
		if r <= ' ' || r > '~' {
			return fmt.Errorf("the token holds %q; a bearer token is one word of visible ASCII characters (letters, digits, -._~+/=)", r)
		}
	}
	return nil
}

// serveLog is the server's response log, its warnings serialized (tool
// calls run concurrently), and whether it records (ELICIT_LOG=off keeps it
// readable by elicitation_stats only).
func (a *app) serveLog() (*responselog.Log, bool) {
	writes := a.responseLog() != nil
	dir := responselog.DirFor(a.getenv)
	if dir == "" {
		return nil, false
	}
	l := responselog.Open(dir)
	l.Keep = a.logRetention()
	var mu sync.Mutex
	l.Warn = func(w string) {
		mu.Lock()
		defer mu.Unlock()
		a.logWarn(w)
	}
	l.UseDatabase(a.project(), a.getenv)
	return l, writes
}

// ingestInBackground moves the journal into the database while the server
// starts, so that the first elicitation_stats is quick; the returned
// function waits for it.
func ingestInBackground(l *responselog.Log) (wait func()) {
	if l == nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if s, err := l.Read(); err == nil {
			s.Close()
		}
	}()
	return func() { <-done }
}

// allowedConsultants are the consultants the server may run: over HTTP
// codex and those named, over stdio any unless some are named (the host
// that started the server is its operator and chooses in each call).
func allowedConsultants(overHTTP bool, named []string) (*consult.Allowed, error) {
	if !overHTTP && len(named) == 0 {
		return nil, nil
	}
	allowed, err := consult.AllowConsultants(append([]string{"codex"}, named...))
	if err != nil {
		return nil, usagef("--allow-consultant: %v", err)
	}
	return allowed, nil
}

// tokenFileName is the file under $ELICIT_HOME holding the token serve
// --http uses when none is given.
const tokenFileName = "serve-token"

// keptToken is the bearer token of a server given none: the one kept in
// $ELICIT_HOME/serve-token when only its owner can read it, else a new one
// written there (0600). stderr says where it is, never the token itself.
func (a *app) keptToken() (string, error) {
	home, err := config.Home(a.getenv)
	if err != nil {
		return "", fmt.Errorf("--http: no token given and none can be kept: %w (or give one with --token-file FILE or ELICIT_TOKEN)", err)
	}
	path := filepath.Join(home, tokenFileName)
	if tok, ok := readKeptToken(path); ok {
		fmt.Fprintf(a.stderr, "elicit: no token given: clients must send the one in %s (kept from an earlier serve; delete the file for a new one) as \"Authorization: Bearer <its content>\"\n", path)
		return tok, nil
	}
	buf := make([]byte, 32)
	if _, err := rand.Read(buf); err != nil {
		return "", fmt.Errorf("--http: generating a token: %w", err)
	}
	tok := base64.RawURLEncoding.EncodeToString(buf)
	if err := writePrivate(path, []byte(tok+"\n")); err != nil {
		return "", fmt.Errorf("--http: no token given, and the one generated cannot be kept: %w (give one with --token-file FILE or ELICIT_TOKEN)", err)
	}
	fmt.Fprintf(a.stderr, "elicit: no token given: generated one in %s (mode 0600, only you can read it); clients must send it as \"Authorization: Bearer <its content>\"\n", path)
	return tok, nil
}

// readKeptToken reads a kept token: a regular file only its owner can read
// or write, holding one token long enough to be one elicit generated.
func readKeptToken(path string) (string, bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o077 != 0 || fi.Size() > tokenInput.Max {
		return "", false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	tok := strings.TrimSpace(string(data))
	if len(tok) < 32 || checkToken(tok) != nil {
		return "", false
	}
	return tok, true
}

// writePrivate writes a file only its owner can read (0600) in a private
// elicit home, atomically: a temporary file renamed over the old one (or
// over a link, never through it).
func writePrivate(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, config.HomeMode); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
