package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/version"
)

// TestCommandGroupNames checks that each group's name is the name of the
// command it builds, the word groupsFor matches.
func TestCommandGroupNames(t *testing.T) {
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: os.Getenv}
	for _, g := range commandGroups {
		if got := g.build(a).Name(); got != g.name {
			t.Errorf("group %q builds the command %q", g.name, got)
		}
	}
}

// TestOneGroupBehavesAsTheWholeTree runs calls as Run does (only the group
// their first word names; --version alone without any) and with every
// group: output, errors and exit code must be the same.
func TestOneGroupBehavesAsTheWholeTree(t *testing.T) {
	home := t.TempDir()
	if err := os.Chmod(home, 0o700); err != nil { // private already: no notice on the first call only
		t.Fatal(err)
	}
	t.Setenv("ELICIT_HOME", home)
	project := t.TempDir()
	const form = `{"title": "T", "fields": [{"id": "a", "text": "A?", "type": "boolean"}]}`
	calls := [][]string{
		{"--version"}, {"-v"}, {"--help"}, {}, {"help"}, {"help", "form"}, {"formm"}, {"nosuch", "x"},
		{"completion", "bash"}, {"__complete", "form", ""}, {"__complete", "fo"},
		{"form", "validate", "-"}, {"form", "render", "-"}, {"form", "collect", "-", "-"}, {"form", "validate", "--help"},
		{"form", "--templates", project, "validate", "-"}, {"--templates", project, "form", "validate", "-"},
		{"methods", "select", "--phase", "forge:3", "--title", "Architecture Design"}, {"methods", "select"},
		{"methods", "pick", "--phase", "forge:3"}, {"deliberate", "status", "nope"}, {"deliberate", "list"},
		{"--project", project, "config", "get", "keyboard_mode"}, {"config", "get", "keyboard_mode", "--project", project},
		{"templates", "list"}, {"version", "--json"}, {"serve", "--bogus"}, {"form", "--version"},
	}
	for _, g := range commandGroups {
		if g.name != "serve" { // serve alone serves the process's standard input
			calls = append(calls, []string{g.name})
		}
		calls = append(calls, []string{g.name, "--help"}, []string{g.name, "nosuch"})
		for _, sub := range subcommandNames(g) {
			calls = append(calls, []string{g.name, sub, "--help"}, []string{g.name, sub, "--nosuch"})
		}
	}
	for _, args := range calls {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			one, all := runOnce(args, nil, form), runOnce(args, commandGroups, form)
			if one != all {
				t.Errorf("with %d group(s):\n%s\nwith all:\n%s", len(groupsFor(args)), one, all)
			}
		})
	}
}

// subcommandNames are the names of the commands group g builds when a call
// names none of them (help and completion left out).
func subcommandNames(g commandGroup) []string {
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: os.Getenv}
	var names []string
	for _, c := range g.build(a).Commands() {
		if c.Name() != "help" && c.Name() != "completion" {
			names = append(names, c.Name())
		}
	}
	return names
}

// TestSubcommandNames checks that a call naming one of a group's commands
// builds that command alone: each name in a group's list is the name of the
// command it builds, the word Run matches.
func TestSubcommandNames(t *testing.T) {
	for _, g := range commandGroups {
		for _, name := range subcommandNames(g) {
			a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: os.Getenv, subcommand: name}
			var built []string
			for _, c := range g.build(a).Commands() {
				built = append(built, c.Name())
			}
			if len(built) != 1 || built[0] != name {
				t.Errorf("%s %s builds %q, want only %q", g.name, name, built, name)
			}
		}
	}
}

// runOnce runs a call with the groups given, or as Run does when groups is
// nil.
func runOnce(args []string, groups []commandGroup, stdin string) string {
	var out, errOut bytes.Buffer
	var code int
	if groups == nil {
		code = Run(args, strings.NewReader(stdin), &out, &errOut)
	} else {
		code = run(args, strings.NewReader(stdin), &out, &errOut, groups, "")
	}
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
}

func TestGroupsFor(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"form", "collect"}, 1},
		{[]string{"version"}, 1},
		{nil, len(commandGroups)},
		{[]string{"--project", "x", "form"}, len(commandGroups)},
		{[]string{"help", "form"}, len(commandGroups)},
		{[]string{"forms"}, len(commandGroups)},
	} {
		if got := groupsFor(tc.args); len(got) != tc.want || tc.want == 1 && got[0].name != tc.args[0] {
			t.Errorf("groupsFor(%q) = %d group(s), want %d", tc.args, len(got), tc.want)
		}
	}
}

// TestVersionFlag checks that --version, which reads the build information
// only when asked, prints what the version command's library says.
func TestVersionFlag(t *testing.T) {
	var out bytes.Buffer
	if code := Run([]string{"--version"}, strings.NewReader(""), &out, io.Discard); code != 0 || out.String() != version.Get().String()+"\n" {
		t.Errorf("--version: exit %d, printed %q, want %q", code, out.String(), version.Get().String()+"\n")
	}
}
