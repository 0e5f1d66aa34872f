// Package cli is elicit's command line: flags become options, options become
// a call into a domain package, and the result is printed. Exit codes are
// mapped in exit.go and nowhere else.
package cli

import (
	"io"
	"os"
	"sync"

	"github.com/elicit/elicit/internal/config"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/elicit/elicit/internal/version"
	"github.com/spf13/cobra"
)

// env reads environment variables; tests replace it.
type env func(string) string

// app carries what every command needs from the outside world.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         env
	// Global flags.
	templatesDir string
	projectDir   string
	// The response log, resolved on first use (log.go).
	log         *responselog.Log
	logResolved bool
	// The warnings printed so far (logWarn prints each once).
	warned map[string]bool
	// noRecall is the form commands' --no-recall.
	noRecall bool
}

// Main runs elicit with the process's arguments and streams and returns the
// exit code.
func Main() int {
	return Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// Run runs elicit with the given arguments and streams and returns the exit
// code: cobra runs the command the arguments name, and exitCode maps its
// error.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}
	root := a.rootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	path := root.Name()
	if cmd != nil {
		path = cmd.CommandPath()
	}
	return exitCode(err, stderr, path)
}

// rootCommand is elicit's whole command tree.
func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "elicit",
		Short: "Structured ways for coding agents to ask, think and argue",
		// Version only turns --version on: the template reads the build
		// information when --version is given, not on every call.
		Version:       "-",
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          noArgs,
		RunE:          groupHelp,
		// Every command: a --project folder that does not exist is an
		// error, as config set says, not the defaults used silently.
		PersistentPreRunE: func(*cobra.Command, []string) error {
			if a.projectDir == "" {
				return nil
			}
			return config.CheckProject(a.projectDir)
		},
	}
	versionFunc.Do(func() { cobra.AddTemplateFunc("elicitVersion", func() string { return version.Get().String() }) })
	root.SetVersionTemplate("{{elicitVersion}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usagef("%s", err) })
	root.PersistentFlags().StringVar(&a.templatesDir, "templates", "", "a folder of form templates `DIR` (default $ELICIT_TEMPLATES)")
	root.PersistentFlags().StringVar(&a.projectDir, "project", "", "the project directory `DIR` holding elicit.config.json (default: the working directory)")
	root.AddCommand(configCommand(a), deliberateCommand(a), formCommand(a), templatesCommand(a), methodsCommand(a),
		responsesCommand(a), decisionsCommand(a), statsCommand(a), serveCommand(a), tokenCommand(a), versionCommand(a))
	return root
}

// versionFunc adds the version template's function to cobra's (global)
// template functions once.
var versionFunc sync.Once

// groupHelp is the RunE of a command that only groups subcommands: without
// arguments it prints help, with an unknown subcommand it is a usage error.
func groupHelp(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("unknown command %q for %q", args[0], cmd.CommandPath())
	}
	return cmd.Help()
}

func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 && !cmd.HasSubCommands() {
		return usagef("%s takes no arguments", cmd.CommandPath())
	}
	return nil
}

// exactArgs is cobra.ExactArgs as a usage error.
func exactArgs(n int, names string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usagef("%s needs %s (got %d argument(s))", cmd.CommandPath(), names, len(args))
		}
		return nil
	}
}
