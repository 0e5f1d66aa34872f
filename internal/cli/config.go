package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/elicit/elicit/internal/config"
	"github.com/spf13/cobra"
)

func configCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Get and set project settings in elicit.config.json (see --project)",
		Args:  noArgs,
		RunE:  groupHelp,
	}
	cmd.AddCommand(a.configSet(), a.configGet())
	return cmd
}

func checkKey(key string) error {
	if !slices.Contains(config.Keys, key) {
		return usagef("unknown setting %q (settings: %s)", key, strings.Join(config.Keys, ", "))
	}
	return nil
}

func (a *app) configSet() *cobra.Command {
	return &cobra.Command{
		Use:   "set keyboard_mode|log|recall true|false | database_url postgres://HOST/DB",
		Short: "Persist a setting for the project, keeping the file's other keys",
		Args:  exactArgs(2, "KEY and VALUE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkKey(args[0]); err != nil {
				return err
			}
			if args[0] == config.DatabaseURL {
				return a.setDatabaseURL(args[1])
			}
			on, err := config.ParseBool(args[1])
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			set := map[string]func(string, bool) error{config.KeyboardMode: config.SetKeyboardMode, config.Log: config.SetLog,
				config.Recall: config.SetRecall}[args[0]]
			if err := set(a.project(), on); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%s = %t (in %s)\n", args[0], on, config.Path(a.project()))
			return nil
		},
	}
}

func (a *app) configGet() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "get keyboard_mode|log|recall|database_url",
		Short: "Print a setting's value in effect (environment overrides the file)",
		Args:  exactArgs(1, "KEY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkKey(args[0]); err != nil {
				return err
			}
			if args[0] == config.DatabaseURL {
				return a.getDatabaseURL(asJSON)
			}
			resolve := map[string]func(string, func(string) string) (config.Setting, error){config.KeyboardMode: config.KeyboardModeFor,
				config.Log: config.LogFor, config.Recall: config.RecallFor}[args[0]]
			s, err := resolve(a.project(), a.getenv)
			if err != nil {
				return err
			}
			for _, w := range s.Warnings {
				a.logWarn(w)
			}
			if asJSON {
				return writeJSON(a.stdout, s)
			}
			fmt.Fprintln(a.stdout, s.Value)
			if s.Source != "default" {
				fmt.Fprintf(a.stderr, "(from %s)\n", s.Source)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"key","value","source"}`)
	return cmd
}

// setDatabaseURL persists the team store's address ("" for the embedded
// database); a password in it is a warning, the file being shared.
func (a *app) setDatabaseURL(raw string) error {
	if err := config.SetDatabaseURL(a.project(), raw); err != nil {
		return fmt.Errorf("%s: %w", config.DatabaseURL, err)
	}
	d, err := config.DatabaseFor(a.project(), func(string) string { return "" })
	if err != nil {
		return err
	}
	for _, w := range d.Warnings {
		a.logWarn(w)
	}
	fmt.Fprintf(a.stdout, "%s = %s (in %s)\n", config.DatabaseURL, config.Redact(d.URL), config.Path(a.project()))
	return nil
}

// getDatabaseURL prints the team store in effect, its password hidden:
// "" for the embedded database.
func (a *app) getDatabaseURL(asJSON bool) error {
	d, err := config.DatabaseFor(a.project(), a.getenv)
	if err != nil {
		return err
	}
	for _, w := range d.Warnings {
		a.logWarn(w)
	}
	d.URL = config.Redact(d.URL)
	if asJSON {
		return writeJSON(a.stdout, struct {
			Key    string `json:"key"`
			Value  string `json:"value"`
			Source string `json:"source"`
		}{config.DatabaseURL, d.URL, d.Source})
	}
	fmt.Fprintln(a.stdout, d.URL)
	if d.Source != "default" {
		fmt.Fprintf(a.stderr, "(from %s)\n", d.Source)
	}
	return nil
}
