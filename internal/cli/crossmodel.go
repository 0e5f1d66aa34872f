package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/internal/config"
	"github.com/elicit/elicit/internal/crossmodel"
	"github.com/elicit/elicit/problem"
	"github.com/spf13/cobra"
)

// crossmodelFlags are the flags of `elicit methods crossmodel`.
type crossmodelFlags struct {
	method, topic, sectionFile string
	workflow, id, consultant   string
	verdict, council           string
	run                        bool
}

func (a *app) methodsCrossmodel(rf *registryFlags) *cobra.Command {
	f := &crossmodelFlags{}
	cmd := &cobra.Command{
		Use:   "crossmodel --method NAME --topic T --section-file F",
		Short: "Build (and with --run, run) a method's cross-model prompt for a second model",
		Long: `For a method with a codex_role (red_team, failure, critic), build the nonce-bounded prompt
and write it to tmp/{workflow}/{id}/elicitation/codex-prompt-{slug}.txt (without --run), or run the
consultant and write its answer to codex-{slug}.md, removing the prompt file (with --run).
Settings come from the codex section of elicit.config.json. Prints JSON. A closed gate (codex
unavailable or disabled, no .codexignore) is reported as status "skipped"; a failed run exits 1.

The output is claims to verify. Once you have, --verdict (with the run's --workflow and --id)
gives the seed's note: consensus (both models fully agree): "Cross-model consensus — high
confidence"; failed_verification: the output is discarded (its file then holds the note) and
"Codex output failed verification" is logged.

With --council ID the role goes to a member of that deliberation council: the member whose stance
is the method's codex_role, else the first without a stance, with its consultant, model and
effort. A member that cannot take it (none fits, it failed, its program is not found) closes the
gate: status "skipped", single-model.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.council != "" && cmd.Flags().Changed("consultant") {
				return usagef("methods crossmodel: give --council or --consultant, not both (a council's member brings its consultant)")
			}
			return a.crossmodel(rf, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.method, "method", "", "the method's `name`, slug or number")
	fl.StringVar(&f.topic, "topic", "", "the `topic` of the section (at most 200 characters are sent)")
	fl.StringVar(&f.sectionFile, "section-file", "", "the section text `file`, - for standard input (at most 4000 characters are sent)")
	fl.StringVar(&f.workflow, "workflow", "", "the workflow `name` in tmp/{workflow}/{id} (default elicit)")
	fl.StringVar(&f.id, "id", "", "the run `id` in tmp/{workflow}/{id} (default the UTC time)")
	fl.StringVar(&f.consultant, "consultant", "codex", "the consultant: codex or command:`PROGRAM` [ARGS...]")
	fl.StringVar(&f.council, "council", "", "route the role to a member of the deliberation council `ID` (the one of that stance, else one without)")
	fl.BoolVar(&f.run, "run", false, "run the consultant (default: only write the prompt)")
	fl.StringVar(&f.verdict, "verdict", "", "your `verdict` on a run's verified output: consensus or failed_verification (with its --workflow and --id)")
	return cmd
}

func (a *app) crossmodel(rf *registryFlags, f *crossmodelFlags) error {
	needs := []struct{ name, v string }{{"--method", f.method}, {"--topic", f.topic}, {"--section-file", f.sectionFile}}
	if f.verdict != "" {
		if f.run {
			return usagef("methods crossmodel: give --run or --verdict, not both (run first, then judge its output with --verdict)")
		}
		needs = needs[:1]
	}
	for _, req := range needs {
		if req.v == "" {
			return usagef("methods crossmodel needs %s", req.name)
		}
	}
	reg := a.registry(rf)
	a.warn(reg)
	m, ok := reg.Lookup(f.method)
	if !ok {
		return problem.List{{Path: "method", Message: fmt.Sprintf("no method named or numbered %q (see elicit methods list)", f.method)}}
	}
	if f.verdict != "" {
		v, err := crossmodel.Judge(m, f.verdict, &crossmodel.Options{Project: a.project(), Workflow: f.workflow, ID: f.id})
		if err != nil {
			return asFlags(err, "method", "workflow", "id", "verdict")
		}
		fmt.Fprintln(a.stderr, "elicit: "+v.Note)
		return writeJSON(a.stdout, v)
	}
	section, err := a.readInput(f.sectionFile, sectionInput)
	if err != nil {
		return err
	}
	settings, err := config.CodexFor(a.project())
	if err != nil {
		return err
	}
	for _, w := range settings.Warnings {
		a.logWarn(w)
	}
	timeout := time.Duration(settings.Elicitation.Timeout * float64(time.Second))
	spec := consultantSpec{name: f.consultant, model: settings.Model, effort: settings.Reasoning, timeout: timeout, idleTimeout: timeout}
	opts := &crossmodel.Options{Project: a.project(), Workflow: f.workflow, ID: f.id, Settings: &settings.Codex}
	if f.council != "" && m.CodexRole != "" {
		if err := a.councilRoute(f.council, m.CodexRole, &spec, opts); err != nil {
			return err
		}
	}
	c, available, err := a.consultant(spec)
	if err != nil {
		return err
	}
	opts.Reach(available, consult.Program(c))
	plan, err := crossmodel.Prepare(crossmodel.Request{Method: m, Topic: f.topic, Section: string(section)}, opts)
	if err != nil {
		return err
	}
	if !f.run {
		return a.writePlan(plan)
	}
	res, err := crossmodel.Run(context.Background(), plan, c)
	if err != nil {
		return err
	}
	if err := writeJSON(a.stdout, res); err != nil {
		return err
	}
	if res.Status == "failed" {
		return errReported
	}
	return nil
}

// writePlan writes the prompt file (when the method has a role) and prints
// the plan.
func (a *app) writePlan(p *crossmodel.Plan) error {
	if p.Prompt != "" {
		if err := crossmodel.WritePrompt(p); err != nil {
			return err
		}
	}
	return writeJSON(a.stdout, p)
}

// councilRoute routes role to the member of council id that takes it:
// spec becomes its consultant, with its model and effort over the
// settings' (crossmodel.Options.Route).
func (a *app) councilRoute(id, role string, spec *consultantSpec, opts *crossmodel.Options) error {
	st, err := a.deliberationStore()
	if err != nil {
		return err
	}
	c, err := st.Council(id)
	if err != nil {
		return err
	}
	if c == nil {
		return problem.List{{Path: "council", Message: fmt.Sprintf("no council %s in %s (elicit deliberate start --council ... starts one)", id, st.Dir())}}
	}
	if m := opts.Route(c, role); m != nil {
		spec.name, spec.model, spec.effort = m.Consultant, opts.Settings.Model, opts.Settings.Reasoning
	}
	return nil
}
