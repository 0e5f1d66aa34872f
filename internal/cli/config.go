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
		Use:   "set keyboard_mode|log|recall true|false",
		Short: "Persist a setting for the project, keeping the file's other keys",
		Args:  exactArgs(2, "KEY and VALUE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkKey(args[0]); err != nil {
				return err
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
		Use:   "get keyboard_mode|log|recall",
		Short: "Print a setting's value in effect (environment overrides the file)",
		Args:  exactArgs(1, "KEY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkKey(args[0]); err != nil {
				return err
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
