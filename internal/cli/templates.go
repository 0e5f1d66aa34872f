package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/elicit/elicit/internal/visible"
	"github.com/spf13/cobra"
)

func templatesCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "templates",
		Short: "List, show and save form templates (embedded, and from --templates DIR, ELICIT_TEMPLATES or $ELICIT_HOME/templates)",
		Args:  noArgs,
		RunE:  groupHelp,
	}
	cmd.AddCommand(a.templatesList(), a.templatesShow(), a.templatesSave())
	return cmd
}

func (a *app) templatesList() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the templates with their slots",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ts := a.templates()
			if err := ts.Check(); err != nil {
				return err
			}
			list := ts.List()
			if asJSON {
				return writeJSON(a.stdout, list)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tSLOTS\tFIELDS\tSOURCE\tTITLE")
			for _, t := range list {
				title := t.Title
				if t.Error != "" {
					title = "unusable: " + t.Error
				}
				// One line each, escaped: a file name or a problem path (an
				// unknown key) may hold control characters.
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", visible.Line(t.Name), visible.Line(strings.Join(t.Slots, ",")), t.Fields, visible.Line(t.Source), visible.Line(title))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return cmd
}

func (a *app) templatesShow() *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Print a template's definition (exit 1 when it is unusable, saying why)",
		Args:  exactArgs(1, "NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ts := a.templates()
			data, _, err := ts.Source(args[0])
			if err != nil {
				return err
			}
			if err := ts.Lint(args[0]); err != nil {
				return fmt.Errorf("template %s is unusable: %s", args[0], err) // %s, not %w: exitCode would print the problems without the name
			}
			_, err = a.stdout.Write(data)
			return err
		},
	}
}
