package cli

import (
	"os"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/infile"
	"github.com/spf13/cobra"
)

// formSource is where a command's form comes from: a FILE argument or a
// template with slots.
type formSource struct {
	template string
	slots    []string
	// data is the definition read from FILE, kept for the response log.
	data []byte
}

func (s *formSource) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&s.template, "template", "", "cast the form from template `NAME` instead of reading FILE")
	cmd.Flags().StringArrayVar(&s.slots, "slot", nil, "a template slot as `key=value` (repeatable)")
}

// fileArgs is how many positional arguments name the form: 0 with a
// template, else 1.
func (s *formSource) fileArgs() int {
	if s.template != "" {
		return 0
	}
	return 1
}

// checkArgs validates the positional arguments: the form (unless a template
// is used) followed by want more.
func (s *formSource) checkArgs(cmd *cobra.Command, args []string, want int, names string) error {
	if f := cmd.Flags().Lookup("template"); f != nil && f.Changed && strings.TrimSpace(s.template) == "" {
		return usagef("--template is empty: give a template's NAME (elicit templates list shows them), or FILE instead")
	}
	n := s.fileArgs() + want
	if len(args) == n {
		if s.template == "" && len(s.slots) > 0 {
			return usagef("--slot needs --template")
		}
		return nil
	}
	if s.template != "" {
		return usagef("%s with --template takes %s (got %d argument(s))", cmd.CommandPath(), argNames(names), len(args))
	}
	return usagef("%s needs FILE (or --template NAME)%s (got %d argument(s))", cmd.CommandPath(), prefixed(names), len(args))
}

// checkArgsAtLeast is checkArgs for commands that take the form followed
// by min or more arguments.
func (s *formSource) checkArgsAtLeast(cmd *cobra.Command, args []string, min int, names string) error {
	if extra := len(args) - s.fileArgs() - min; extra > 0 {
		args = args[:len(args)-extra]
	}
	return s.checkArgs(cmd, args, min, names)
}

func argNames(names string) string {
	if names == "" {
		return "no arguments"
	}
	return names
}

func prefixed(names string) string {
	if names == "" {
		return ""
	}
	return " and " + names
}

// load reads or casts the form; it returns the template id for responses.
func (a *app) loadForm(s *formSource, args []string) (*form.Form, string, error) {
	if s.template != "" {
		slots, err := parseSlots(s.slots)
		if err != nil {
			return nil, "", err
		}
		f, err := a.templates().Cast(s.template, slots)
		return f, s.template, form.SlotHints(err, func(name string) string { return "pass --slot " + name + "=VALUE" })
	}
	data, err := a.readInput(args[0], formInput)
	if err != nil {
		return nil, "", err
	}
	s.data = data
	f, err := form.Parse(data)
	return f, "", err
}

func parseSlots(pairs []string) (map[string]string, error) {
	out := make(map[string]string, len(pairs))
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, usagef("--slot %q must be key=value", p)
		}
		if _, dup := out[k]; dup {
			return nil, usagef("--slot %s given twice", k)
		}
		out[k] = v
	}
	return out, nil
}

// templates is the template library: embedded, plus --templates DIR,
// ELICIT_TEMPLATES, or else $ELICIT_HOME/templates when it exists.
func (a *app) templates() *form.Templates {
	dir, name := a.templatesDir, "--templates "+a.templatesDir
	if dir == "" {
		dir = a.getenv("ELICIT_TEMPLATES")
		name = "ELICIT_TEMPLATES=" + dir
	}
	if dir == "" {
		// The folder templates save writes to, read when it exists.
		home := a.homeTemplates()
		if fi, err := os.Stat(home); home == "" || err != nil || !fi.IsDir() {
			return &form.Templates{}
		}
		dir, name = home, home
	}
	return &form.Templates{Folder: infile.Dir(dir), FolderName: name}
}
