package cli

import (
	"context"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// directCommands are the calls an agent's hooks and scripts make most. Run
// runs them without cobra's dispatch when the call has no flags at all: the
// command is built as always, and runDirect does what cobra's ExecuteC
// would do for it. cobra's dispatch (the hidden completion command it
// builds and drops, the command looked up twice, the flag sets merged and
// sorted for parsing) was 60,000-90,000 instructions and 4-6 page faults of
// each such call (form collect, form render).
// TestDirectBehavesAsCobra runs every kind of call both ways.
var directCommands = []string{"form validate", "form render", "form collect", "form summary", "deliberate status"}

// isDirect reports whether a call runs its command directly: its first two
// words name one of directCommands and no argument is or looks like a flag
// ("-" for standard input included, and "--").
func isDirect(args []string) bool {
	if len(args) < 2 || !slices.Contains(directCommands, args[0]+" "+args[1]) {
		return false
	}
	for _, a := range args[2:] {
		if strings.HasPrefix(a, "-") {
			return false
		}
	}
	return true
}

// runDirect runs a direct call (isDirect). It falls back to cobra's way if
// the command turns out to have a hook runDirect does not run.
func runDirect(args []string, stdin io.Reader, stdout, stderr io.Writer, groups []commandGroup) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, subcommand: args[1]}
	root := a.rootCommand(groups)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd := child(child(root, args[0]), args[1])
	if cmd == nil || !plain(cmd) {
		return run(args, stdin, stdout, stderr, groups, args[1])
	}
	cmd.SetContext(context.Background())
	return exitCode(execute(cmd, args[2:]), stderr, cmd.CommandPath())
}

// child is c's command named name, or nil.
func child(c *cobra.Command, name string) *cobra.Command {
	if c == nil {
		return nil
	}
	for _, sub := range c.Commands() {
		if sub.Name() == name {
			return sub
		}
	}
	return nil
}

// plain reports whether cmd has only what execute runs: RunE, an argument
// check, and persistent pre-run hooks (RunE) on the way to the root.
func plain(cmd *cobra.Command) bool {
	if cmd.RunE == nil || cmd.Run != nil || cmd.HasSubCommands() || cmd.Deprecated != "" || cmd.DisableFlagParsing ||
		cmd.PreRun != nil || cmd.PreRunE != nil || cmd.PostRun != nil || cmd.PostRunE != nil {
		return false
	}
	for p := cmd; p != nil; p = p.Parent() {
		if p.PersistentPreRun != nil || p.PersistentPostRun != nil || p.PersistentPostRunE != nil {
			return false
		}
	}
	return true
}

// execute runs cmd with args, none of them a flag, in cobra's order: the
// argument check, the nearest persistent pre-run hook, the required-flag
// and flag-group checks, then RunE.
func execute(cmd *cobra.Command, args []string) error {
	if err := cmd.ValidateArgs(args); err != nil {
		return err
	}
	for p := cmd; p != nil; p = p.Parent() {
		if p.PersistentPreRunE != nil {
			if err := p.PersistentPreRunE(cmd, args); err != nil {
				return err
			}
			break
		}
	}
	if err := cmd.ValidateRequiredFlags(); err != nil {
		return err
	}
	if err := cmd.ValidateFlagGroups(); err != nil {
		return err
	}
	return cmd.RunE(cmd, args)
}
