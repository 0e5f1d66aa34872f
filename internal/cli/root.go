// Package cli is elicit's command line: flags become options, options become
// a call into a domain package, and the result is printed. Exit codes are
// mapped in exit.go and nowhere else.
package cli

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/elicit/elicit/config"
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
	// subcommand is the command of a group the call runs, when its second
	// word names one: the group builds only it (addSubcommands).
	subcommand string
}

// Main runs elicit with the process's arguments and streams and returns the
// exit code.
func Main() int {
	return Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// Run runs elicit with the given arguments and streams and returns the exit
// code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-v") {
		// What the --version flag prints, without building the commands.
		fmt.Fprintln(stdout, version.Get())
		return 0
	}
	groups := groupsFor(args)
	if isDirect(args) {
		return runDirect(args, stdin, stdout, stderr, groups)
	}
	sub := ""
	if len(groups) == 1 && len(args) > 1 {
		sub = args[1] // the group builds only it, if it is one of its commands
	}
	return run(args, stdin, stdout, stderr, groups, sub)
}

// run runs elicit with the command groups given; sub, when it is not "",
// is the one command each group builds if it has a command by that name.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, groups []commandGroup, sub string) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, subcommand: sub}
	root := a.rootCommand(groups)
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

func (a *app) rootCommand(groups []commandGroup) *cobra.Command {
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
	if len(groups) < len(commandGroups) {
		// Only the group the call names: nothing here lists or completes
		// the others.
		root.CompletionOptions.DisableDefaultCmd = true
	}
	for _, g := range groups {
		root.AddCommand(g.build(a))
	}
	return root
}

// versionFunc adds the version template's function to cobra's (global)
// template functions once.
var versionFunc sync.Once

// commandGroup is one group of commands (form, methods, deliberate, ...):
// its name, the first word of a call that runs it, and its constructor.
type commandGroup struct {
	name  string
	build func(*app) *cobra.Command
}

// commandGroups are elicit's command groups, in one explicit list: a new
// group is added here, not by an init function in its own file.
var commandGroups = []commandGroup{
	{"config", configCommand},
	{"deliberate", deliberateCommand},
	{"form", formCommand},
	{"templates", templatesCommand},
	{"methods", methodsCommand},
	{"responses", responsesCommand},
	{"stats", statsCommand},
	{"serve", serveCommand},
	{"version", versionCommand},
}

// groupsFor returns the command groups a call needs: only the one its first
// argument names, so that a call builds the commands it can run and not
// elicit's whole tree; all of them otherwise (no arguments, a flag first,
// help, completion, a mistyped name that gets suggestions).
func groupsFor(args []string) []commandGroup {
	if len(args) > 0 {
		for i, g := range commandGroups {
			if g.name == args[0] {
				return commandGroups[i : i+1 : i+1]
			}
		}
	}
	return commandGroups
}

// subcommand is one command of a group and the name a call runs it by.
type subcommand struct {
	name  string
	build func() *cobra.Command
}

// addSubcommands adds a group's commands, listed explicitly, to group: only
// the one the call runs when its second word names one (the others are
// neither run nor listed by it), all of them otherwise (help, a flag first,
// a mistyped name that gets suggestions).
func (a *app) addSubcommands(group *cobra.Command, cmds ...subcommand) {
	for _, c := range cmds {
		if c.name == a.subcommand {
			group.AddCommand(c.build())
			return
		}
	}
	for _, c := range cmds {
		group.AddCommand(c.build())
	}
}

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
