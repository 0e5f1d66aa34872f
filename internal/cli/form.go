package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/markdown"
	"github.com/elicit/elicit/form/surfaces"
	"github.com/elicit/elicit/form/widget"
	"github.com/elicit/elicit/internal/config"
	"github.com/elicit/elicit/problem"
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
	cmd.AddCommand(a.formValidate(), a.formRender(), a.formCollect(), a.formAsk(), a.formOpen(),
		a.formSummary(), a.formSurface(), a.formSchema())
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
var renderSurfaces = []string{string(form.SurfaceAsk), string(form.SurfaceWidget), string(form.SurfaceMarkdown), string(form.SurfaceCodex)}

func (a *app) formRender() *cobra.Command {
	var src formSource
	var surface string
	var bare, html bool
	cmd := &cobra.Command{
		Use:   "render FILE|- [--surface ask|widget|markdown|codex] [--html] [--markdown]",
		Short: "Render a form for a surface (ask: AskUserQuestion; widget: HTML; markdown: a chat questionnaire; codex: request_user_input)",
		Long: `Prints the surface's JSON: {"success":true, ...} with ready AskUserQuestion inputs (ask),
the widget {"success":true,"title":...,"field_ids":[...],"html":"..."}, a self-contained HTML
fragment (widget), a numbered questionnaire answered in one chat reply (markdown), or ready
request_user_input inputs (codex). The chat surfaces list what they cannot ask in unsupported and,
where markdown can ask it, carry markdown_followup. --html prints the bare HTML of --surface
widget, --markdown the bare markdown of --surface markdown.`,
		Args: func(cmd *cobra.Command, args []string) error { return src.checkArgs(cmd, args, 0, "") },
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(renderSurfaces, surface) {
				return usagef("--surface %q is not supported (supported: %s)", surface, strings.Join(renderSurfaces, ", "))
			}
			if bare && surface != string(form.SurfaceMarkdown) {
				return usagef("--markdown goes with --surface markdown")
			}
			if html && surface != string(form.SurfaceWidget) {
				return usagef("--html needs --surface widget")
			}
			f, tmpl, err := a.loadForm(&src, args)
			switch {
			case err != nil && html:
				return err // the problems go to stderr, not into the HTML
			case err != nil:
				return reportJSON(a.stdout, err)
			}
			d, rf := a.door(), runForm(f, tmpl, &src)
			recalled := a.recall(d, &rf)
			r := d.Render(rf, form.Surface(surface))
			switch {
			case html:
				_, err := io.WriteString(a.stdout, r.(*widget.Result).HTML)
				return err
			case bare:
				_, err := io.WriteString(a.stdout, r.(*markdown.Result).Markdown)
				return err
			}
			return writeJSON(a.stdout, withRecalled(r, recalled))
		},
	}
	src.register(cmd)
	a.registerRecall(cmd)
	cmd.Flags().StringVar(&surface, "surface", "ask", "the surface to render for: "+strings.Join(renderSurfaces, ", "))
	cmd.Flags().BoolVar(&bare, "markdown", false, "print the bare markdown (with --surface markdown)")
	cmd.Flags().BoolVar(&html, "html", false, "print the bare HTML (with --surface widget)")
	return cmd
}

func (a *app) formCollect() *cobra.Command {
	var src formSource
	var templateID, format, cont string
	cmd := &cobra.Command{
		Use:   "collect FILE|- ANSWERS|-... [--format auto|json|markdown] [--continue RESULT]",
		Short: "Validate answers from any surface, one document or several merged",
		Long: `ANSWERS are one or more answer documents, merged and validated as one: answers keyed by
field id, the widget's postback, AskUserQuestion's output, Codex request_user_input's result
(JSON), or a person's markdown reply to 'form render --surface markdown' or to a markdown
follow-up, or the text Claude Code shows after AskUserQuestion ("<question>"="<answer>", ...).
--format auto (the default) reads a document that starts with { or [ as JSON, the widget's chat
message as the JSON postback it carries, a text with "<question>"= of the form's questions as
Claude Code's answer text, and anything else as markdown. On problems the result carries
reask: the markdown (and the AskUserQuestion inputs, where it can carry them) for exactly the
fields that failed, and kept: every answer that holds. --continue RESULT reads such a failed
result and starts from its kept answers, so the next round passes only the new ones (a new
answer to a kept field replaces it).`,
		Args: func(cmd *cobra.Command, args []string) error { return src.checkArgsAtLeast(cmd, args, 1, "ANSWERS") },
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(surfaces.Formats(), surfaces.Format(format)) {
				return usagef("--format %q is not one of auto, json, markdown", format)
			}
			if cmd.Flags().Changed("template-id") {
				if err := checkTemplateName("--template-id", templateID); err != nil {
					return err
				}
			}
			answerArgs := args[src.fileArgs():]
			if stdins := slices.Index(args, "-"); stdins >= 0 && slices.Contains(args[stdins+1:], "-") {
				return usagef("only one of FILE and ANSWERS can be standard input")
			}
			f, tid, err := a.loadForm(&src, args)
			if err != nil {
				return reportJSON(a.stdout, err)
			}
			if templateID != "" {
				tid = templateID
			}
			docs, err := a.answerDocs(answerArgs, surfaces.Format(format))
			if err != nil {
				return reportJSON(a.stdout, err)
			}
			if cont != "" {
				kept, err := a.keptOf(cont)
				if err != nil {
					return reportJSON(a.stdout, err)
				}
				docs = append([]surfaces.Document{kept}, docs...)
			}
			d, rf := a.door(), runForm(f, tid, &src)
			d.Recall(&rf) // the defaults the person was offered, for a one-tap confirm
			r, err := d.Collect(rf, docs, &form.CollectOptions{TemplateID: tid})
			if err != nil {
				return reportJSON(a.stdout, err)
			}
			return writeJSON(a.stdout, r)
		},
	}
	src.register(cmd)
	a.registerRecall(cmd)
	cmd.Flags().StringVar(&templateID, "template-id", "", "the template id to carry in the response (default: the --template name)")
	cmd.Flags().StringVar(&format, "format", string(surfaces.FormatAuto), "how ANSWERS are written: auto, json or markdown")
	cmd.Flags().StringVar(&cont, "continue", "", "a failed collect's result (JSON, with kept): start from the answers it kept")
	return cmd
}

// keptOf reads a failed collect's result and returns its kept answers as
// the document a continued collect starts from.
func (a *app) keptOf(name string) (surfaces.Document, error) {
	data, err := a.readInput(name, answersInput)
	if err != nil {
		return surfaces.Document{}, err
	}
	var prev struct {
		Success *bool          `json:"success"`
		Kept    map[string]any `json:"kept"`
	}
	if json.Unmarshal(data, &prev) != nil || prev.Success == nil || *prev.Success {
		var probs problem.List
		probs.Add("--continue", "%s is not a failed collect's result (a JSON object with \"success\": false and kept)", name)
		return surfaces.Document{}, probs
	}
	if prev.Kept == nil {
		prev.Kept = map[string]any{}
	}
	kept, _ := json.Marshal(prev.Kept)
	return surfaces.Document{Name: name, Format: surfaces.FormatJSON, Data: kept, Kept: true}, nil
}

// answerDocs reads the answer documents.
func (a *app) answerDocs(names []string, format surfaces.Format) ([]surfaces.Document, error) {
	docs := make([]surfaces.Document, len(names))
	for i, name := range names {
		data, err := a.readInput(name, answersInput)
		if err != nil {
			return nil, err
		}
		if name == "-" {
			name = "standard input"
		}
		docs[i] = surfaces.Document{Name: name, Format: format, Data: data}
	}
	return docs, nil
}

func (a *app) formSummary() *cobra.Command {
	var src formSource
	var format string
	cmd := &cobra.Command{
		Use:   "summary FILE|- RESPONSE|- [--format auto|json|markdown]",
		Short: "Collapse an answered form into a few lines of markdown",
		Long: `RESPONSE is the output of 'elicit form collect', a record of 'elicit responses show ID
--json', or answers in any shape collect takes (JSON, a markdown reply, Claude Code's
"<question>"="<answer>" text, the widget's chat message). --format works as collect's.`,
		Args: func(cmd *cobra.Command, args []string) error { return src.checkArgs(cmd, args, 1, "RESPONSE") },
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(surfaces.Formats(), surfaces.Format(format)) {
				return usagef("--format %q is not one of auto, json, markdown", format)
			}
			f, tid, err := a.loadForm(&src, args)
			if err != nil {
				return err
			}
			name := args[len(args)-1]
			data, err := a.readInput(name, answersInput)
			if err != nil {
				return err
			}
			doc := surfaces.Document{Name: "response", Format: surfaces.Format(format), Data: data}
			r, err := surfaces.ReadResponse(f, doc, &form.CollectOptions{TemplateID: tid})
			if err != nil {
				return err
			}
			fmt.Fprint(a.stdout, form.Summary(f, r))
			return nil
		},
	}
	src.register(cmd)
	cmd.Flags().StringVar(&format, "format", string(surfaces.FormatAuto), "how RESPONSE is written: auto, json or markdown")
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
			f, tmpl, err := a.loadForm(&src, args)
			if err != nil {
				return reportJSON(a.stdout, err)
			}
			if !cmd.Flags().Changed("keyboard-mode") {
				keyboard = a.keyboardMode()
			}
			opts := &form.SurfaceOptions{NoWidgets: !widgetCapable, KeyboardMode: keyboard}
			return writeJSON(a.stdout, a.door().Route(runForm(f, tmpl, &src), opts))
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
		a.logWarn(w)
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
