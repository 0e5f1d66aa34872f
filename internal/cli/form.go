package cli

import (
	"fmt"
	"slices"

	"github.com/elicit/elicit/config"
	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/surfaces"
	"github.com/spf13/cobra"
)

func formCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "form",
		Short: "Validate, render, route, collect and summarize declarative forms",
		Long: `Forms are JSON documents (see 'elicit form schema'). Every command takes the form as
FILE (or - for standard input), or cast from a template with --template NAME --slot key=value.`,
		Args: noArgs,
		RunE: groupHelp,
	}
	cmd.AddCommand(a.formValidate(), a.formRender(), a.formCollect(), a.formSummary(), a.formSurface(), a.formSchema())
	return cmd
}

// validated is form validate's JSON report; Form is the canonical form
// with --normalized.
type validated struct {
	Success  bool       `json:"success"`
	Problems []string   `json:"problems"`
	Form     *form.Form `json:"form,omitempty"`
}

func (a *app) formValidate() *cobra.Command {
	var src formSource
	var asJSON, normalized bool
	cmd := &cobra.Command{
		Use:   "validate FILE|- [--json] [--normalized]",
		Short: "Check a form definition and list every problem (exit 1 when invalid)",
		Long: `With --normalized the canonical form is printed: aliases (questions, label) under their
own names, defaults filled in (required, a confirm's options). With --json as well it is the
report's "form" member.`,
		Args: func(cmd *cobra.Command, args []string) error { return src.checkArgs(cmd, args, 0, "") },
		RunE: func(cmd *cobra.Command, args []string) error {
			f, _, err := a.loadForm(&src, args)
			switch {
			case asJSON && err != nil:
				return reportJSON(a.stdout, err)
			case asJSON:
				r := validated{Success: true, Problems: []string{}}
				if normalized {
					r.Form = f
				}
				return writeJSON(a.stdout, r)
			case err != nil:
				return err
			case normalized:
				return writeJSON(a.stdout, f)
			}
			fmt.Fprintf(a.stdout, "valid: %q with %d field(s)\n", f.Title, len(f.Fields))
			return nil
		},
	}
	src.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"success":bool,"problems":[...]}`)
	cmd.Flags().BoolVar(&normalized, "normalized", false, "print the canonical form (aliases resolved, defaults filled in)")
	return cmd
}

// renderSurfaces are the values of form render --surface.
var renderSurfaces = []string{string(form.SurfaceAsk)}

func (a *app) formRender() *cobra.Command {
	var src formSource
	var surface string
	cmd := &cobra.Command{
		Use:   "render FILE|- --surface ask",
		Short: "Render a form for a surface (ask: AskUserQuestion payloads)",
		Args:  func(cmd *cobra.Command, args []string) error { return src.checkArgs(cmd, args, 0, "") },
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(renderSurfaces, surface) {
				return usagef("--surface %q is not supported (supported: %v)", surface, renderSurfaces)
			}
			f, _, err := a.loadForm(&src, args)
			if err != nil {
				return reportJSON(a.stdout, err)
			}
			return writeJSON(a.stdout, ask.Render(f))
		},
	}
	src.register(cmd)
	cmd.Flags().StringVar(&surface, "surface", "ask", "the surface to render for: ask")
	return cmd
}

func (a *app) formCollect() *cobra.Command {
	var src formSource
	var templateID string
	cmd := &cobra.Command{
		Use:   "collect FILE|- ANSWERS|-",
		Short: "Validate answers (by field id, the widget's postback, or AskUserQuestion's output)",
		Args:  func(cmd *cobra.Command, args []string) error { return src.checkArgs(cmd, args, 1, "ANSWERS") },
		RunE: func(cmd *cobra.Command, args []string) error {
			answersArg := args[len(args)-1]
			if answersArg == "-" && src.template == "" && args[0] == "-" {
				return usagef("FILE and ANSWERS cannot both be standard input")
			}
			f, tid, err := a.loadForm(&src, args)
			if err != nil {
				return reportJSON(a.stdout, err)
			}
			if templateID != "" {
				tid = templateID
			}
			r, err := a.collect(f, answersArg, tid)
			if err != nil {
				return reportJSON(a.stdout, err)
			}
			return writeJSON(a.stdout, r)
		},
	}
	src.register(cmd)
	cmd.Flags().StringVar(&templateID, "template-id", "", "the template id to carry in the response (default: the --template name)")
	return cmd
}

func (a *app) collect(f *form.Form, answersArg, templateID string) (*form.Response, error) {
	data, err := a.readInput(answersArg, answersInput)
	if err != nil {
		return nil, err
	}
	answers, err := surfaces.ParseAnswers(f, data)
	if err != nil {
		return nil, err
	}
	return form.Collect(f, answers, &form.CollectOptions{TemplateID: templateID})
}

func (a *app) formSummary() *cobra.Command {
	var src formSource
	cmd := &cobra.Command{
		Use:   "summary FILE|- RESPONSE|-",
		Short: "Collapse an answered form into a few lines of markdown",
		Long:  "RESPONSE is the output of 'elicit form collect', or answers in any shape collect takes.",
		Args:  func(cmd *cobra.Command, args []string) error { return src.checkArgs(cmd, args, 1, "RESPONSE") },
		RunE: func(cmd *cobra.Command, args []string) error {
			f, tid, err := a.loadForm(&src, args)
			if err != nil {
				return err
			}
			data, err := a.readInput(args[len(args)-1], answersInput)
			if err != nil {
				return err
			}
			r, err := surfaces.ParseResponse(f, data, &form.CollectOptions{TemplateID: tid})
			if err != nil {
				return err
			}
			fmt.Fprint(a.stdout, form.Summary(f, r))
			return nil
		},
	}
	src.register(cmd)
	return cmd
}

func (a *app) formSurface() *cobra.Command {
	var src formSource
	var widgetCapable, keyboard bool
	cmd := &cobra.Command{
		Use:   "surface FILE|- [--widget-capable=true|false] [--keyboard-mode=true|false]",
		Short: "Choose the surface for a form (widget or ask) and say why",
		Long:  "Without --keyboard-mode, the environment (ELICIT_KEYBOARD_MODE) and the project's elicit.config.json decide.",
		Args:  func(cmd *cobra.Command, args []string) error { return src.checkArgs(cmd, args, 0, "") },
		RunE: func(cmd *cobra.Command, args []string) error {
			f, _, err := a.loadForm(&src, args)
			if err != nil {
				return reportJSON(a.stdout, err)
			}
			if !cmd.Flags().Changed("keyboard-mode") {
				keyboard = a.keyboardMode()
			}
			return writeJSON(a.stdout, form.SelectSurface(f, &form.SurfaceOptions{NoWidgets: !widgetCapable, KeyboardMode: keyboard}))
		},
	}
	src.register(cmd)
	cmd.Flags().BoolVar(&widgetCapable, "widget-capable", true, "whether the client can render widgets")
	cmd.Flags().BoolVar(&keyboard, "keyboard-mode", false, "override keyboard mode")
	return cmd
}

// keyboardMode resolves keyboard mode for routing; problems become warnings
// on stderr, since routing can always fall back to off.
func (a *app) keyboardMode() bool {
	s, err := config.KeyboardModeFor(a.project(), a.getenv)
	for _, w := range s.Warnings {
		fmt.Fprintln(a.stderr, "elicit: warning: "+w)
	}
	if err != nil {
		fmt.Fprintf(a.stderr, "elicit: warning: keyboard mode taken as off: %v\n", err)
		return false
	}
	return s.Value
}

// project is the project directory: --project, else the working directory.
func (a *app) project() string {
	if a.projectDir != "" {
		return a.projectDir
	}
	return "."
}

func (a *app) formSchema() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the form format (for editors)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := a.stdout.Write(form.Schema())
			return err
		},
	}
}
