package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/delibdb"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/elicit/elicit/internal/visible"
	"github.com/elicit/elicit/problem"
)

// deliberateCommand is the deliberation engine: the codex-ask protocol as
// a persistent state machine.
func deliberateCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "deliberate",
		Short: "Run a bounded deliberation with a consulted agent (the codex-ask protocol)",
		Long: `Run a bounded deliberation with a consulted agent. elicit holds the state, enforces the
protocol's rules and builds every prompt; you send each prompt to the consultee, record its
answer with respond, and submit your judgments with evaluate (see 'elicit deliberate schema').`,
		Args: noArgs,
		RunE: groupHelp,
	}
	start := a.deliberateStart()
	a.addStartSend(start)
	cmd.AddCommand(start, a.deliberateRespond(), a.deliberateEvaluate(), a.deliberatePrompt(),
		a.deliberateStatus(), a.deliberateList(), a.deliberateSynthesize(), a.deliberateRecover(),
		a.deliberatePrune(), a.deliberateSchema(), a.deliberateAbandon(),
		// Consulting the agent (consult_deliberate.go).
		a.deliberateSend(), a.deliberateWait(), a.deliberateCancel())
	return cmd
}

// deliberationStore opens the store under $ELICIT_HOME (or ~/.elicit).
// ELICIT_NOW (RFC 3339) fixes the clock, for reproducible runs and tests.
func (a *app) deliberationStore() (*deliberation.Store, error) {
	dir, err := deliberation.DefaultDir(a.getenv)
	if err != nil {
		return nil, err
	}
	if err := a.tightenHome(); err != nil {
		return nil, err
	}
	opts := &deliberation.StoreOptions{}
	if now := a.getenv("ELICIT_NOW"); now != "" {
		t, err := time.Parse(time.RFC3339, now)
		if err != nil {
			return nil, usagef("ELICIT_NOW=%q is not an RFC 3339 time", now)
		}
		opts.Clock = fixedClock(t)
	}
	if opts.Shared, err = delibdb.For(a.project(), a.getenv); err != nil {
		return nil, err
	}
	return deliberation.NewStore(dir, opts), nil
}

// fixedClock is the clock of ELICIT_NOW.
type fixedClock time.Time

func (c fixedClock) Now() time.Time { return time.Time(c) }

// delibWithStore runs fn with the store and the parsed ID of args[0]. A
// state file's path is used as given: its own folder is the store.
func (a *app) delibWithStore(args []string, fn func(st *deliberation.Store, id string) error) error {
	dir, id, err := deliberation.ParseRef(args[0])
	if err != nil {
		return err
	}
	st, err := a.deliberationStore()
	if err != nil {
		return err
	}
	if dir != "" {
		st = st.In(dir)
	}
	return fn(st, id)
}

// delibProblems prints a problem.List as {"success":false,"problems":[...]}
// on stdout when --json was asked for; other errors pass through. A state
// to rebuild is named as the command that does it.
func (a *app) delibProblems(asJSON bool, err error) error {
	err = deliberation.NameRestore(err, restoreCommand)
	if !asJSON {
		return err
	}
	return reportJSON(a.stdout, err)
}

// restoreCommand is how the CLI rebuilds the state of id from its
// transcript.
func restoreCommand(id string) string { return "elicit deliberate recover " + id + " --restore" }

// cliMapping names the Solution Space Mapping's inputs in notes: the
// CLI's flags.
const cliMapping = "CLI --shape, --tangents, --drift-signals"

func (a *app) deliberateStart() *cobra.Command {
	var question string
	var opts deliberation.StartOptions
	var asJSON, review bool
	var council []string
	cmd := &cobra.Command{
		Use:   "start --question Q",
		Short: "Start a deliberation and print the First Call prompt",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("question") {
				return usagef("%s needs --question", cmd.CommandPath())
			}
			if review && len(council) == 0 {
				return usagef("%s: --review is for a council: give 2 to 5 --council consultants", cmd.CommandPath())
			}
			var specs []deliberation.MemberSpec
			if len(council) > 0 {
				var err error
				if specs, err = a.councilSpecs(council); err != nil {
					return err
				}
			}
			st, err := a.deliberationStore()
			if err != nil {
				return err
			}
			if specs != nil {
				return a.councilStart(st, question, &opts, specs, review, asJSON)
			}
			id, s, err := st.Start(question, &opts)
			if err != nil {
				return a.delibProblems(asJSON, err)
			}
			if asJSON {
				return writeJSON(a.stdout, struct {
					ID        string   `json:"id"`
					StateFile string   `json:"state_file"`
					Prompt    string   `json:"prompt"`
					Notes     []string `json:"notes,omitempty"`
				}{id, st.StatePath(id), s.Next.Prompt, s.NotesNaming(cliMapping)})
			}
			fmt.Fprintf(a.stdout, "deliberation %s (state: %s)\n", id, st.StatePath(id))
			for _, n := range s.NotesNaming(cliMapping) {
				fmt.Fprintf(a.stdout, "note: %s\n", n)
			}
			fmt.Fprintf(a.stdout, "\n%s", s.Next.Prompt)
			return nil
		},
	}
	cmd.Flags().StringVar(&question, "question", "", "the user's question (verbatim)")
	f := cmd.Flags()
	f.StringArrayVar(&opts.Facts, "fact", nil, "a user-provided constraint for the ledger (repeatable)")
	f.StringArrayVar(&opts.Interpretations, "interpretation", nil, "a reading of a critical ambiguity: give two (A, the default, then B)")
	f.StringArrayVar(&opts.Paths, "path", nil, "an absolute path the consultee should read (repeatable)")
	f.StringVar(&opts.SSM.Shape, "shape", "", "Solution Space Mapping: characteristics valid responses must have")
	f.StringVar(&opts.SSM.Tangents, "tangents", "", "Solution Space Mapping: likely unproductive directions")
	f.StringVar(&opts.SSM.DriftSignals, "drift-signals", "", "Solution Space Mapping: signs the deliberation left productive territory")
	f.IntVar(&opts.LedgerBudget, "ledger-budget", 0, "cap on the ledger characters per prompt (0: none); over it, user entries and those open disputes cite are kept")
	f.BoolVar(&opts.Quick, "quick", false, "quick mode: at most 2 iterations, no phases, ledger or challenge IDs")
	f.StringArrayVar(&council, "council", nil, "a council member, [model=M,][effort=E,][STANCE=]CONSULTANT (stance: for, against, neutral, red_team, failure, critic); 2 to 5 of them make a council")
	f.BoolVar(&review, "review", false, "with --council: an anonymized cross-review after CONSTRUCTIVE")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {id, state_file, prompt} as JSON")
	return cmd
}

// delibFileCommand is a subcommand that reads --file (a path, or - for
// stdin) and acts on one deliberation with it.
func (a *app) delibFileCommand(use, short, fileHelp, jsonHelp string, run func(st *deliberation.Store, id string, input []byte, asJSON bool) error) *cobra.Command {
	var file string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   use + " ID --file F|-",
		Short: short,
		Args:  exactArgs(1, "ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("file") || file == "" {
				return usagef("%s needs --file F (or --file - for stdin)", cmd.CommandPath())
			}
			input, err := a.readInput(file, delibInput)
			if err != nil {
				return err
			}
			return a.delibWithStore(args, func(st *deliberation.Store, id string) error {
				return run(st, id, input, asJSON)
			})
		},
	}
	cmd.Flags().StringVar(&file, "file", "", fileHelp+": a file, or - for stdin")
	cmd.Flags().BoolVar(&asJSON, "json", false, jsonHelp)
	return cmd
}

func (a *app) deliberateRespond() *cobra.Command {
	return a.delibFileCommand("respond", "Record the consultee's answer to the pending prompt", "the answer", "print the pending step as JSON",
		func(st *deliberation.Store, id string, text []byte, asJSON bool) error {
			if err := notForCouncil(st, id, "respond"); err != nil {
				return a.delibProblems(asJSON, err)
			}
			s, err := st.Respond(id, string(text))
			if err != nil {
				return a.delibProblems(asJSON, err)
			}
			if asJSON {
				return writeJSON(a.stdout, s.Next)
			}
			fmt.Fprintf(a.stdout, "recorded the response to iteration %d (%s); next: elicit deliberate evaluate %s --file EVALUATION.json\n", s.Iteration, s.Next.Action, id)
			return nil
		})
}

func (a *app) deliberateEvaluate() *cobra.Command {
	return a.delibFileCommand("evaluate", "Apply your evaluation of the last answer and print the next action and prompt", "the evaluation document", "print the next action as JSON",
		func(st *deliberation.Store, id string, doc []byte, asJSON bool) error {
			if c, err := st.Council(id); err != nil || c != nil {
				if err != nil {
					return a.delibProblems(asJSON, err)
				}
				return a.councilEvaluate(st, id, doc, asJSON)
			}
			s, err := st.Evaluate(id, doc)
			if err != nil {
				return a.delibProblems(asJSON, err)
			}
			return a.delibPrintNext(s.Next, asJSON)
		})
}

func (a *app) delibPrintNext(next *deliberation.Next, asJSON bool) error {
	if asJSON {
		return writeJSON(a.stdout, next)
	}
	fmt.Fprintf(a.stdout, "next: %s (iteration %d)", next.Action, next.Iteration)
	if next.Reason != "" {
		fmt.Fprintf(a.stdout, ": %s", next.Reason)
	}
	fmt.Fprintln(a.stdout)
	if c := next.Coverage; c != nil {
		// The coverage check's NEW test, artifact by artifact (the
		// artifacts are the evaluation's, as given: one line each).
		for _, n := range c.New {
			fmt.Fprintf(a.stdout, "coverage: NEW: %s\n", visible.Line(n))
		}
		for _, e := range c.Cited {
			fmt.Fprintf(a.stdout, "coverage: cited before: %s (as %s, %s)\n", visible.Line(e.Artifact), visible.Line(e.Earlier), e.Where)
		}
	}
	if next.Prompt != "" {
		fmt.Fprintf(a.stdout, "\n%s", next.Prompt)
	}
	return nil
}

func (a *app) deliberatePrompt() *cobra.Command {
	return &cobra.Command{
		Use:   "prompt ID",
		Short: "Reprint the pending prompt",
		Args:  exactArgs(1, "ID"),
		RunE: func(_ *cobra.Command, args []string) error {
			return a.delibWithStore(args, func(st *deliberation.Store, id string) error {
				if err := notForCouncil(st, id, "prompt (each member's is in its deliberate status --json)"); err != nil {
					return err
				}
				s, err := st.Load(id)
				if err != nil {
					return err
				}
				prompt, err := s.PendingPrompt()
				if err != nil {
					return err
				}
				fmt.Fprint(a.stdout, prompt)
				return nil
			})
		},
	}
}

func (a *app) deliberateStatus() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status ID",
		Short: "Show where a deliberation stands (--json: the state document)",
		Args:  exactArgs(1, "ID"),
		RunE: func(_ *cobra.Command, args []string) error {
			return a.delibWithStore(args, func(st *deliberation.Store, id string) error {
				if c, err := st.Council(id); err != nil || c != nil {
					if err != nil {
						return err
					}
					return a.councilStatus(st, id, asJSON)
				}
				s, err := st.Load(id)
				if err != nil {
					return err
				}
				doc := s.StatusDocument(time.Now(), cliMapping)
				if asJSON {
					return writeJSON(a.stdout, doc)
				}
				a.delibPrintStatus(id, doc)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the state document, with notes and the consultation as it stands")
	return cmd
}

func (a *app) delibPrintStatus(id string, doc *deliberation.StatusDocument) {
	s := doc.State
	w := bufio.NewWriter(a.stdout) // one write, not one per line
	defer w.Flush()
	status := string(s.Status)
	if status == "" {
		status = string(deliberation.StatusActive)
	}
	fmt.Fprintf(w, "deliberation %s: %s", id, status)
	if s.ExitReason != "" {
		fmt.Fprintf(w, " (%s)", s.ExitReason)
	}
	fmt.Fprintf(w, "\nquestion: %s\niteration: %d, phase: %s\n", visible.Line(s.QuestionExcerpt), s.Iteration, s.Phase)
	if s.Next != nil {
		fmt.Fprintf(w, "next: %s", s.Next.Action)
		if s.Next.Awaiting != "" {
			fmt.Fprintf(w, " (awaiting: %s)", s.Next.Awaiting)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "open challenges: %s\n", delibNone(s.Disputed))
	fmt.Fprintf(w, "agreed %d, dismissed %d, unresolved %d, not evaluated %d\n",
		len(s.Buckets.Agreed), len(s.Buckets.Dismissed), len(s.Buckets.Unresolved), len(s.NotEvaluated))
	if c := s.Counters; c.Tangents+c.Drift > 0 {
		fmt.Fprintf(w, "drift: %d points marked drift, %d tangents\n", c.Drift, c.Tangents)
	}
	if v := doc.Consultation; v != nil {
		fmt.Fprintf(w, "consultation: %s on iteration %d since %s (process %d): %s", v.Consultant, v.Iteration, v.StartedAt, v.PID, v.Status)
		if v.Status == deliberation.ConsultInterrupted {
			fmt.Fprint(w, "; the next send recovers it in a fresh session")
		}
		fmt.Fprintln(w)
	}
	for _, n := range doc.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for _, warning := range s.Warnings {
		fmt.Fprintf(w, "warning: %s\n", visible.Line(warning))
	}
}

func delibNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

func (a *app) deliberateList() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the deliberations with their status and age",
		Args:  noArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			st, err := a.deliberationStore()
			if err != nil {
				return err
			}
			entries, err := st.List()
			if err != nil {
				return err
			}
			deliberation.NameRestores(entries, restoreCommand)
			w := bufio.NewWriter(a.stdout)
			if asJSON {
				err = writeJSONList(w, "deliberations", entries)
			} else {
				for _, e := range entries {
					a.delibPrintEntry(w, e)
				}
			}
			if ferr := w.Flush(); err == nil {
				err = ferr
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print {deliberations: [...]} as JSON")
	return cmd
}

func (a *app) delibPrintEntry(w io.Writer, e deliberation.Entry) {
	if e.Error != "" {
		fmt.Fprintf(w, "%s\tunreadable\t%s\n", e.ID, visible.Line(e.Error))
		return
	}
	status := string(e.Status)
	if e.ExitReason != "" {
		status += " (" + e.ExitReason + ")"
	}
	// The question is the user's text: one line, control characters escaped.
	fmt.Fprintf(w, "%s\t%s\titeration %d\t%s old\t%s\n", e.ID, status, e.Iteration, humanAge(e.Age), visible.Line(e.QuestionExcerpt))
}

// humanAge says an age in its largest whole unit: "302 days", "5 hours",
// "3 minutes", "1 second" (the exact figure is list --json's age_seconds).
func humanAge(d time.Duration) string {
	n, unit := int64(d/time.Second), "second"
	switch {
	case d >= 24*time.Hour:
		n, unit = int64(d/(24*time.Hour)), "day"
	case d >= time.Hour:
		n, unit = int64(d/time.Hour), "hour"
	case d >= time.Minute:
		n, unit = int64(d/time.Minute), "minute"
	}
	if n != 1 {
		unit += "s"
	}
	return fmt.Sprintf("%d %s", n, unit)
}

// writeJSONList prints {"KEY": entries} as writeJSON would, one entry at a
// time (a listing of thousands is never held in memory twice).
func writeJSONList[T any](w io.Writer, key string, entries []T) error {
	k, err := json.Marshal(key)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		_, err := fmt.Fprintf(w, "{\n  %s: []\n}\n", k)
		return err
	}
	fmt.Fprintf(w, "{\n  %s: [\n", k)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("    ", "  ")
	for i, e := range entries {
		buf.Reset()
		buf.WriteString("    ")
		if err := enc.Encode(e); err != nil {
			return err
		}
		out := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		if i < len(entries)-1 {
			out = append(out, ',')
		}
		if _, err := w.Write(append(out, '\n')); err != nil {
			return err
		}
	}
	_, err = io.WriteString(w, "  ]\n}\n")
	return err
}

func (a *app) deliberateSynthesize() *cobra.Command {
	var asJSON bool
	var answer string
	cmd := &cobra.Command{
		Use:   "synthesize ID --answer TEXT",
		Short: "Print the final buckets, opening with your top-line answer, once the state permits it",
		Long: `Print the synthesis: your top-line answer to the question (--answer, required: the output
must answer the question; after an early exit: trivial, the direct answer by default), then the
buckets (agreed with their reasons, dismissed, unresolved), the surfaced questions, what was not
evaluated and the arbitration concerns. Refused unless the state permits Synthesize.`,
		Args: exactArgs(1, "ID"),
		RunE: func(_ *cobra.Command, args []string) error {
			return a.delibWithStore(args, func(st *deliberation.Store, id string) error {
				if c, err := st.Council(id); err != nil || c != nil {
					if err != nil {
						return a.delibProblems(asJSON, err)
					}
					return a.councilSynthesize(st, c, answer, asJSON)
				}
				y, err := st.Synthesize(id, answer)
				if err != nil {
					return a.delibProblems(asJSON, asFlags(err, "answer"))
				}
				a.responseLog().Append(responselog.SynthesisRecord(id, y, a.door().Who))
				if asJSON {
					return writeJSON(a.stdout, y)
				}
				fmt.Fprint(a.stdout, y.Markdown())
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&answer, "answer", "", "the top-line answer to the question, in a sentence or two (the synthesis opens with it)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the synthesis as JSON")
	return cmd
}

// asFlags names the domain's problem paths that are keys as the CLI's
// flags (answer: --answer) in err's problems.
func asFlags(err error, keys ...string) error {
	var probs problem.List
	if !errors.As(err, &probs) {
		return err
	}
	out := slices.Clone(probs)
	for i := range out {
		if slices.Contains(keys, out[i].Path) {
			out[i].Path = "--" + strings.ReplaceAll(out[i].Path, "_", "-")
		}
	}
	return out
}

func (a *app) deliberateRecover() *cobra.Command {
	var restore bool
	cmd := &cobra.Command{
		Use:   "recover ID",
		Short: "Print the Recovery prompt, built from the state file, for a fresh consultee session",
		Long: `Print the Recovery prompt, built from the state file, for a fresh consultee session. When the
state file is missing or unreadable, the prompt is rebuilt from the transcript instead (nothing is
written); --restore then rewrites the state file from the transcript, keeping the unreadable one,
and prints the Recovery prompt. A state file that matches its transcript is left as it is: --restore
then changes nothing and prints no prompt.`,
		Args: exactArgs(1, "ID"),
		RunE: func(_ *cobra.Command, args []string) error {
			return a.delibWithStore(args, func(st *deliberation.Store, id string) error {
				if restore {
					s, kept, written, err := st.Restore(id)
					switch {
					case err != nil:
						return err
					case !written:
						// A healthy deliberation is left as it is: no
						// Recovery prompt replaces its pending one.
						fmt.Fprintf(a.stderr, "elicit: the state of %s matches its transcript; nothing to restore, nothing changed ('elicit deliberate recover %s' without --restore makes a Recovery prompt for a fresh session)\n", id, id)
						return nil
					case kept == "":
						fmt.Fprintf(a.stderr, "elicit: state of %s rebuilt from its transcript (there was no state file)\n", id)
					default:
						fmt.Fprintf(a.stderr, "elicit: state of %s rebuilt from its transcript (the previous file kept as %s)\n", id, kept)
					}
					if !s.Active() {
						// The restore was the whole job: a finished
						// deliberation has no Recovery prompt.
						fmt.Fprintf(a.stderr, "elicit: %s is %s (%s); no Recovery prompt ('elicit deliberate synthesize %s' prints its synthesis)\n", id, s.Status, s.ExitReason, id)
						return nil
					}
				}
				if _, loadErr := st.Load(id); loadErr != nil {
					return a.delibRecoverFromTranscript(st, id, loadErr)
				}
				prompt, err := st.RecoverIdle(id)
				if err != nil {
					return err
				}
				fmt.Fprint(a.stdout, prompt)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&restore, "restore", false, "rewrite a missing or unreadable state file from the transcript first (a healthy one: change nothing)")
	return cmd
}

// delibRecoverFromTranscript prints the Recovery prompt of a state rebuilt
// from the transcript, writing nothing; without a usable transcript the
// state file's own error stands.
func (a *app) delibRecoverFromTranscript(st *deliberation.Store, id string, loadErr error) error {
	s, err := st.Rebuild(id)
	if err != nil {
		return loadErr
	}
	prompt, err := s.Recover()
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, "elicit: %s\nelicit: this Recovery prompt is rebuilt from the transcript; 'elicit deliberate recover %s --restore' rewrites the state file\n",
		deliberation.NameRestore(loadErr, restoreCommand), id)
	fmt.Fprint(a.stdout, prompt)
	return nil
}

func (a *app) deliberateAbandon() *cobra.Command {
	return &cobra.Command{
		Use:   "abandon ID",
		Short: "End an active deliberation without a synthesis",
		Args:  exactArgs(1, "ID"),
		RunE: func(_ *cobra.Command, args []string) error {
			return a.delibWithStore(args, func(st *deliberation.Store, id string) error {
				if _, err := st.Abandon(id); err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "deliberation %s abandoned\n", id)
				return nil
			})
		},
	}
}

func (a *app) deliberatePrune() *cobra.Command {
	var olderThan string
	cmd := &cobra.Command{
		Use:   "prune --older-than DURATION",
		Short: "Remove deliberations last updated more than DURATION ago (e.g. 72h, 30d)",
		Long: `Remove the deliberations (state file and transcript) last updated more than DURATION ago,
whatever their status: an active deliberation left untouched that long is removed too. DURATION must
be more than zero (0 would remove every deliberation, the ones in use included). Files that cannot be
read are never removed. First, what kills left behind is cleaned: temporary state files and
transcripts without any record are removed, and a transcript whose state file a kill during start
never wrote gets it back.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("older-than") {
				return usagef("%s needs --older-than DURATION", cmd.CommandPath())
			}
			d, err := delibParseAge(olderThan)
			if err != nil {
				return usagef("--older-than: %s", err)
			}
			st, err := a.deliberationStore()
			if err != nil {
				return err
			}
			c, err := st.Clean()
			if err != nil {
				return err
			}
			for _, f := range c.Removed {
				fmt.Fprintf(a.stdout, "removed leftover %s\n", f)
			}
			for _, id := range c.Restored {
				fmt.Fprintf(a.stdout, "restored %s from its transcript\n", id)
			}
			for _, f := range c.Kept {
				fmt.Fprintf(a.stderr, "elicit: kept %s: a transcript without a state file whose records do not replay\n", f)
			}
			removed, err := st.Prune(d)
			for _, id := range removed {
				fmt.Fprintf(a.stdout, "removed %s\n", id)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&olderThan, "older-than", "", "age, more than zero: a Go duration (72h) or days (30d)")
	return cmd
}

// delibParseAge is time.ParseDuration plus a days suffix (30d), for a
// positive age: zero would prune every deliberation, active ones included.
func delibParseAge(s string) (time.Duration, error) {
	var d time.Duration
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		switch {
		case err == nil && n < 0:
			return 0, fmt.Errorf("%q is negative; want a positive age (72h, 30d)", s)
		case err != nil || n > math.MaxInt64/int(24*time.Hour):
			return 0, fmt.Errorf("%q is not a number of days", s)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		d, err = time.ParseDuration(s)
		switch {
		case err != nil:
			return 0, fmt.Errorf("%q is not a duration (72h, 30d)", s)
		case d < 0:
			return 0, fmt.Errorf("%q is negative; want a positive age (72h, 30d)", s)
		}
	}
	if d == 0 {
		return 0, fmt.Errorf("%q is zero, which would remove every deliberation, active ones included; want a positive age (72h, 30d)", s)
	}
	return d, nil
}

func (a *app) deliberateSchema() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the evaluation document",
		Args:  noArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			_, err := a.stdout.Write(deliberation.EvaluationSchema())
			return err
		},
	}
}
