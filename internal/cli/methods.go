package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/elicit/elicit/internal/termui"
	"github.com/elicit/elicit/method"
	"github.com/elicit/elicit/problem"
	"github.com/spf13/cobra"
)

// registryFlags are the flags every methods command takes.
type registryFlags struct{ registry, extra string }

func methodsCommand(a *app) *cobra.Command {
	rf := &registryFlags{}
	cmd := &cobra.Command{
		Use:   "methods",
		Short: "List, validate, select and inject structured-reasoning methods",
		Long: `Reasoning methods are prompt modifiers chosen by workflow phase, agent, tier and topic.
The registry is the embedded one unless --registry FILE or $ELICIT_METHODS names a CSV file;
--extra FILE merges more methods over it.`,
		Args: noArgs,
		RunE: groupHelp,
	}
	cmd.PersistentFlags().StringVar(&rf.registry, "registry", "", "registry CSV `file` (default $ELICIT_METHODS, else the embedded registry)")
	cmd.PersistentFlags().StringVar(&rf.extra, "extra", "", "CSV `file` of methods merged over the registry (same method_name replaces)")
	cmd.AddCommand(a.methodsList(rf), a.methodsValidate(), a.methodsSelect(rf), a.methodsPick(rf),
		a.methodsExpand(), a.methodsShow(rf), a.methodsInject(rf), a.methodsCrossmodel(rf))
	return cmd
}

// registry loads the registry the flags and environment name.
func (a *app) registry(rf *registryFlags) *method.Registry {
	path := rf.registry
	if path == "" {
		path = a.getenv("ELICIT_METHODS")
	}
	var r *method.Registry
	if path != "" {
		r = method.Load(path)
	} else {
		r = method.Default()
	}
	if rf.extra != "" {
		r = r.Merge(method.Load(rf.extra))
	}
	return r
}

// warn prints a registry's warnings to stderr.
func (a *app) warn(r *method.Registry) {
	for _, w := range r.WarningTexts() {
		fmt.Fprintln(a.stderr, "elicit: warning: "+w)
	}
}

func (a *app) methodsList(rf *registryFlags) *cobra.Command {
	var phase string
	var tier int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the registry's methods, optionally for one phase or tier",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if phase != "" && !method.ValidPhase(phase) {
				return usagef("--phase %q is not a phase (want command:number, as plan:0 or arc:7.5)", phase)
			}
			if cmd.Flags().Changed("tier") && tier != 1 && tier != 2 {
				return usagef("--tier must be 1 or 2 (got %d; leave it out for every tier)", tier)
			}
			r := a.registry(rf)
			a.warn(r)
			methods := r.Filter(phase, tier)
			if asJSON {
				return writeJSON(a.stdout, methods)
			}
			return a.printMethods(methods)
		},
	}
	cmd.Flags().StringVar(&phase, "phase", "", "only methods for this `phase` (command:number)")
	cmd.Flags().IntVar(&tier, "tier", 0, "only methods of this `tier` (1 or 2)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}

func (a *app) printMethods(methods []method.Method) error {
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NUM\tTIER\tCATEGORY\tMETHOD\tPHASES")
	for _, m := range methods {
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\n", m.Num, m.Tier, m.Category, m.Name, strings.Join(m.Phases, ","))
	}
	return tw.Flush()
}

func (a *app) methodsValidate() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "validate FILE",
		Short: "Check a registry CSV file; exit 0 only when it has no warning",
		Args:  exactArgs(1, "FILE"),
		RunE: func(_ *cobra.Command, args []string) error {
			r := method.Load(args[0])
			w := r.WarningTexts()
			if asJSON {
				if err := writeJSON(a.stdout, map[string]any{"methods": len(r.Methods), "warnings": w}); err != nil {
					return err
				}
			} else {
				a.printValidation(len(r.Methods), w)
			}
			if len(w) > 0 {
				return errReported
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"methods":N,"warnings":[...]}`)
	return cmd
}

func (a *app) printValidation(n int, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintln(a.stdout, w)
	}
	if len(warnings) == 0 {
		fmt.Fprintf(a.stdout, "%d methods, no warnings\n", n)
	}
}

func (a *app) methodsExpand() *cobra.Command {
	return &cobra.Command{
		Use:   "expand PATTERN",
		Short: "Expand an output pattern (a->b->c) into numbered steps",
		Args:  exactArgs(1, "PATTERN"),
		RunE: func(_ *cobra.Command, args []string) error {
			text, err := method.ExpandText(args[0])
			if err != nil {
				return problem.List{{Path: "pattern", Message: err.Error()}}
			}
			_, err = io.WriteString(a.stdout, text)
			return err
		},
	}
}

// lookup finds each ref in r or reports every unknown one.
func lookup(r *method.Registry, refs []string) ([]method.Method, error) {
	var out []method.Method
	var p problem.List
	for _, ref := range refs {
		m, ok := r.Lookup(ref)
		if !ok {
			p.Add("", "unknown method %q (valid nums: %s)", ref, validNums(r))
		}
		out = append(out, m)
	}
	return out, p.Err()
}

// listedNums is how many nums an unknown-method error lists: reference
// lists in messages stop at 20 items, then say how many more there are.
const listedNums = 20

// validNums lists the registry's nums in order for an unknown-method error, at most
// listedNums of them.
func validNums(r *method.Registry) string {
	if len(r.Methods) == 0 {
		return "none, the registry is empty"
	}
	all := make([]int, len(r.Methods))
	for i, m := range r.Methods {
		all[i] = m.Num
	}
	slices.Sort(all)
	n := min(len(all), listedNums)
	nums := make([]string, n)
	for i, num := range all[:n] {
		nums[i] = strconv.Itoa(num)
	}
	s := strings.Join(nums, ", ")
	if more := len(all) - n; more > 0 {
		s += fmt.Sprintf(", … %d more; see elicit methods list", more)
	}
	return s
}

func (a *app) methodsShow(rf *registryFlags) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show NAME|NUM",
		Short: "Show one method",
		Args:  exactArgs(1, "NAME|NUM"),
		RunE: func(_ *cobra.Command, args []string) error {
			ms, err := a.lookupMethods(rf, args)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, ms[0])
			}
			return a.printMethod(ms[0])
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON object")
	return cmd
}

// lookupMethods finds the named methods in the registry the flags choose,
// after printing its warnings.
func (a *app) lookupMethods(rf *registryFlags, args []string) ([]method.Method, error) {
	r := a.registry(rf)
	a.warn(r)
	return lookup(r, args)
}

func (a *app) printMethod(m method.Method) error {
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	agents, codex := "any", "none"
	if len(m.Agents) > 0 {
		agents = strings.Join(m.Agents, ", ")
	}
	if m.CodexRole != "" {
		codex = m.CodexRole
	}
	fmt.Fprintf(tw, "num\t%d\nmethod_name\t%s\ncategory\t%s\ndescription\t%s\noutput_pattern\t%s\n",
		m.Num, m.Name, m.Category, m.Description, m.OutputPattern)
	fmt.Fprintf(tw, "tier\t%d\nphases\t%s\nagents\t%s\ntopics\t%s\nauto_suggest\t%t\ncodex_role\t%s\n",
		m.Tier, strings.Join(m.Phases, ", "), agents, strings.Join(m.Topics, ", "), m.AutoSuggest, codex)
	return tw.Flush()
}

func (a *app) methodsInject(rf *registryFlags) *cobra.Command {
	return &cobra.Command{
		Use:   "inject NAME|NUM...",
		Short: "Print the prompt-modifier block of one or more methods",
		Args:  minArgs(1, "NAME|NUM"),
		RunE: func(_ *cobra.Command, args []string) error {
			ms, err := a.lookupMethods(rf, args)
			if err != nil {
				return err
			}
			return a.printBlocks(ms)
		},
	}
}

func (a *app) printBlocks(ms []method.Method) error {
	for i, m := range ms {
		block, err := method.Inject(m)
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(a.stdout)
		}
		if _, err := io.WriteString(a.stdout, block); err != nil {
			return err
		}
	}
	return nil
}

// minArgs is cobra.MinimumNArgs as a usage error.
func minArgs(n int, names string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return usagef("%s needs %s (got %d argument(s))", cmd.CommandPath(), names, len(args))
		}
		return nil
	}
}

// selectFlags are the flags of select and pick.
type selectFlags struct {
	q        method.Query
	text     string
	textFile string
	keywords string
	json     bool
}

func (f *selectFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.q.Phase, "phase", "", "workflow `phase`, command:number (required), as plan:0 or forge:3")
	fl.StringVar(&f.q.Agent, "agent", "", "keep methods for any agent or this `agent`")
	fl.BoolVar(&f.q.Manual, "manual", false, "manual mode: offer tier 2 as well as tier 1")
	fl.StringVar(&f.q.Title, "title", "", "section `title` (the title bonus looks only here)")
	fl.StringVar(&f.text, "text", "", "section `text`")
	fl.StringVar(&f.textFile, "text-file", "", "read the section text from `file` (- for stdin)")
	fl.StringVar(&f.keywords, "keywords", "", "comma-separated `keywords` to use instead of extracting them")
	fl.IntVar(&f.q.Top, "top", method.DefaultTop, "how many methods to return at most")
	fl.BoolVar(&f.q.PerSection, "per-section", false, "cap at MAX_METHODS_PER_SECTION = 2 (forge enrichment)")
	fl.BoolVar(&f.json, "json", false, "print the selection as JSON")
}

// query checks the flags and builds the query.
func (a *app) query(cmd *cobra.Command, f *selectFlags) (method.Query, error) {
	q := f.q
	switch {
	case q.Phase == "":
		return q, usagef("%s needs --phase", cmd.CommandPath())
	case !method.ValidPhase(q.Phase):
		return q, usagef("--phase %q is not a phase (want command:number, as plan:0 or arc:7.5)", q.Phase)
	case q.Top < 1:
		return q, usagef("--top must be 1 or more (got %d)", q.Top)
	case f.text != "" && f.textFile != "":
		return q, usagef("give --text or --text-file, not both")
	}
	q.Text = f.text
	if f.textFile != "" {
		text, err := a.readText(f.textFile)
		if err != nil {
			return q, err
		}
		q.Text = text
	}
	if cmd.Flags().Changed("keywords") {
		q.Keywords = strings.Split(f.keywords, ",")
	}
	return q, nil
}

func (a *app) readText(path string) (string, error) {
	data, err := a.readInput(path, textInput)
	if err != nil {
		return "", fmt.Errorf("--text-file: %w", err)
	}
	return string(data), nil
}

func (a *app) methodsSelect(rf *registryFlags) *cobra.Command {
	f := &selectFlags{}
	cmd := &cobra.Command{
		Use:   "select --phase P [flags]",
		Short: "Select the methods that fit a section (phase, agent, tier, topic scoring)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			q, err := a.query(cmd, f)
			if err != nil {
				return err
			}
			sel, err := a.registry(rf).Select(q)
			if err != nil {
				return err
			}
			if f.json && sel.Status == method.StatusNoMatch && q.Manual {
				// The seed offers the whole registry as the fallback.
				return writeJSON(a.stdout, struct {
					*method.Selection
					Browse string `json:"browse"`
				}{sel, "elicit methods list"})
			}
			if f.json {
				return writeJSON(a.stdout, sel)
			}
			a.printSelection(q, sel)
			return nil
		},
	}
	f.add(cmd)
	return cmd
}

func (a *app) printSelection(q method.Query, sel *method.Selection) {
	for _, w := range sel.Warnings {
		fmt.Fprintln(a.stderr, "elicit: warning: "+w)
	}
	if sel.Status != method.StatusOK {
		fmt.Fprintf(a.stdout, "%s: %s\n%s\n", sel.Status, sel.Reason, sel.Notice)
		if q.Manual {
			fmt.Fprintln(a.stdout, "Browse it with: elicit methods list")
		}
		return
	}
	fmt.Fprintf(a.stdout, "%s  keywords: %s\n", sel.Status, strings.Join(sel.Keywords, ", "))
	a.printCandidates(a.stdout, sel.Methods)
}

func (a *app) printCandidates(w io.Writer, cs []method.Candidate) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range cs {
		fmt.Fprintf(tw, "%.4f\t%d\t%s\t%s, tier %d\n", c.Score, c.Method.Num, c.Method.Name, c.Method.Category, c.Method.Tier)
	}
	tw.Flush()
}

// pickFlags are select's flags plus the ways to choose without a terminal.
type pickFlags struct {
	selectFlags
	choose string
	quick  bool
}

func (a *app) methodsPick(rf *registryFlags) *cobra.Command {
	f := &pickFlags{}
	cmd := &cobra.Command{
		Use:   "pick --phase P [flags]",
		Short: "Select methods and choose at least one (a multi-select on a terminal)",
		Long: `pick runs select and asks which of the methods to apply; at least one must be chosen.
On a terminal it shows a multi-select, drawn on standard error (or the terminal itself), so
standard output may be captured. Without one, pass the choice: --choose NUM,NUM
(nums from 'elicit methods select ... --json') or --quick for the top-scored method;
otherwise pick exits with code 2 and lists the candidates.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			q, err := a.query(cmd, &f.selectFlags)
			if err != nil {
				return err
			}
			sel, err := a.registry(rf).Select(q)
			if err != nil {
				return err
			}
			chosen, err := a.choose(cmd, f, q, sel)
			if err != nil {
				return err
			}
			return a.printChoice(f.json, sel, chosen)
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&f.choose, "choose", "", "choose these method `nums` (comma-separated) without asking")
	cmd.Flags().BoolVar(&f.quick, "quick", false, "choose the top-scored method without asking (quick mode)")
	return cmd
}

// choose gets the choice from the flags, the terminal, or explains how to
// give it.
func (a *app) choose(cmd *cobra.Command, f *pickFlags, q method.Query, sel *method.Selection) ([]method.Candidate, error) {
	if sel.Status != method.StatusOK {
		fmt.Fprintln(a.stderr, sel.Notice)
		return sel.Choose(nil)
	}
	switch {
	case f.quick && f.choose != "":
		return nil, usagef("give --choose or --quick, not both")
	case f.quick:
		return sel.Quick()
	case cmd.Flags().Changed("choose"):
		nums, err := parseNums(f.choose)
		if err != nil {
			return nil, err
		}
		return sel.Choose(nums)
	}
	if a.inBackground() {
		return nil, usagef("%s cannot ask on the terminal: %s, or choose with --choose NUM[,NUM...] or --quick", cmd.CommandPath(), inBackgroundFix)
	}
	if in, out, done, ok := a.widgetTerminal(); ok {
		defer done()
		return a.askChoice(sel, in, out)
	}
	var b strings.Builder
	a.printCandidates(&b, sel.Methods)
	return nil, usagef("%s needs a terminal to ask on; choose non-interactively with --choose NUM[,NUM...] "+
		"or --quick (the top method). Candidates (score, num, method):\n%s", cmd.CommandPath(), strings.TrimRight(b.String(), "\n"))
}

func parseNums(s string) ([]int, error) {
	var nums []int
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		n, err := strconv.Atoi(part)
		if err != nil {
			return nil, usagef("--choose takes method nums separated by commas (got %q)", part)
		}
		nums = append(nums, n)
	}
	return nums, nil
}

// askChoice shows the candidates as a multi-select on the terminal (keys
// from in, drawn on out: see widgetTerminal), the first one preselected,
// and insists on at least one. Escape, Ctrl-C, SIGTERM or SIGHUP is no
// answer (exit 3).
func (a *app) askChoice(sel *method.Selection, in, out *os.File) ([]method.Candidate, error) {
	opts := make([]termui.Option, len(sel.Methods))
	for i, c := range sel.Methods {
		opts[i] = termui.Option{Label: c.Method.Name, Note: fmt.Sprintf("%.2f, %s", c.Score, c.Method.Category)}
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	ui, err := termui.Open(ctx, in, out)
	if err != nil {
		return nil, fmt.Errorf("pick: %w", err)
	}
	chosen, err := ui.MultiSelect(termui.MultiSelect{
		Title:    "Which reasoning methods should this section apply?",
		Lines:    []termui.Line{termui.Styled("At least one. Space toggles, enter confirms.", termui.Dim)},
		Options:  opts,
		Selected: []bool{true},
		Min:      1,
	})
	ui.Close()
	if err != nil {
		return nil, noAnswer(err)
	}
	nums := make([]int, len(chosen))
	for i, idx := range chosen {
		nums[i] = sel.Methods[idx].Method.Num
	}
	return sel.Choose(nums)
}

func (a *app) printChoice(asJSON bool, sel *method.Selection, chosen []method.Candidate) error {
	if asJSON {
		out := *sel
		out.Methods = chosen
		return writeJSON(a.stdout, &out)
	}
	for _, c := range chosen {
		fmt.Fprintf(a.stdout, "%d\t%s\n", c.Method.Num, c.Method.Name)
	}
	return nil
}
