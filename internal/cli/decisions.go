package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/elicit/elicit/internal/responselog"
	"github.com/elicit/elicit/internal/visible"
	"github.com/spf13/cobra"
)

func decisionsCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "decisions",
		Short: "List, search and show the decisions made: every collected response and deliberation synthesis",
		Long: `The decision ledger is read from the response log: every valid response (its questions and
answers) and every deliberation synthesis (its question, answer and agreed, dismissed and
unresolved points), with when, in which project, on which host and for whom (ELICIT_USER, else
the system's user name). By default the ledger of this project (--project, else the working
directory) is read, everyone's; --mine keeps yours, --all-projects every project's.`,
		Args: noArgs,
		RunE: groupHelp,
	}
	cmd.AddCommand(a.decisionsList(), a.decisionsSearch(), a.decisionsShow())
	return cmd
}

// decisionFlags are the filters of decisions list and search.
type decisionFlags struct {
	filter            responselog.DecisionFilter
	mine, team, every bool
	json              bool
}

func (f *decisionFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.filter.TemplateID, "template", "", "only template `ID` (NAME or template:NAME, dict for hand-built forms, deliberation for syntheses)")
	cmd.Flags().StringVar(&f.filter.FormID, "form-id", "", "only forms whose form_id is `ID`")
	cmd.Flags().StringVar(&f.filter.Field, "field", "", "only responses that answered field `ID`")
	cmd.Flags().IntVar(&f.filter.Limit, "limit", 20, "at most `N` decisions")
	cmd.Flags().BoolVar(&f.mine, "mine", false, "only your decisions (ELICIT_USER, else the system's user name)")
	cmd.Flags().BoolVar(&f.team, "team", false, "everyone's decisions (the default)")
	cmd.Flags().BoolVar(&f.every, "all-projects", false, "every project's decisions, not only this project's")
	cmd.Flags().BoolVar(&f.json, "json", false, "print the decisions as JSON")
}

func (a *app) decisionFilter(f *decisionFlags) (responselog.DecisionFilter, error) {
	out := f.filter
	switch {
	case f.mine && f.team:
		return out, usagef("--mine and --team do not go together: --mine keeps yours, --team everyone's")
	case out.Limit < 1:
		return out, usagef("--limit must be 1 or more")
	}
	if f.mine {
		out.User = responselog.UserName(a.getenv)
	}
	if !f.every {
		l, err := a.readLog()
		if err != nil {
			return out, err
		}
		out.Project = l.Project(a.project())
	}
	return out, nil
}

func (a *app) decisionsList() *cobra.Command {
	var f decisionFlags
	cmd := &cobra.Command{
		Use:   "list [--template ID] [--field ID] [--mine|--team] [--all-projects] [--limit N] [--json]",
		Short: "List the decisions, newest first",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.printDecisions(&f, "")
		},
	}
	f.register(cmd)
	return cmd
}

func (a *app) decisionsSearch() *cobra.Command {
	var f decisionFlags
	cmd := &cobra.Command{
		Use:   "search WORDS... [--template ID] [--field ID] [--mine|--team] [--all-projects] [--limit N] [--json]",
		Short: "Find the decisions whose question, answer or conclusion has the words, best match first",
		Args: func(cmd *cobra.Command, args []string) error {
			if strings.IndexFunc(strings.Join(args, " "), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) < 0 {
				return usagef("%s needs the words to search for (letters or digits)", cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.printDecisions(&f, strings.Join(args, " "))
		},
	}
	f.register(cmd)
	return cmd
}

func (a *app) printDecisions(f *decisionFlags, query string) error {
	filter, err := a.decisionFilter(f)
	if err != nil {
		return err
	}
	filter.Query = query
	s, err := a.openLog()
	if err != nil {
		return err
	}
	defer s.Close()
	// One decision at a time: a listing of any length holds one.
	jw := &jsonArray{w: a.stdout}
	n := 0
	err = s.EachDecision(filter, func(d responselog.Decision) error {
		n++
		if f.json {
			return jw.add(d)
		}
		a.printDecision(&d, false)
		return nil
	})
	if err != nil {
		return err
	}
	if n == 0 {
		where := "in this project's ledger (--all-projects reads every project's)"
		if f.every {
			where = "in the ledger"
		}
		if query != "" {
			fmt.Fprintf(a.stderr, "elicit: no decision %s matches %s\n", where, visible.String(query))
		} else {
			fmt.Fprintf(a.stderr, "elicit: no decision %s yet: collected responses and deliberation syntheses are kept there\n", where)
		}
	}
	if f.json {
		return jw.close()
	}
	return nil
}

// printDecision prints a decision: a heading line (when, what, who, its
// id), then its questions and answers or its conclusion, indented.
func (a *app) printDecision(d *responselog.Decision, whole bool) {
	ref := d.ResponseID + d.Deliberation
	who := d.User
	if d.Host != "" {
		who += " @ " + d.Host
	}
	fmt.Fprintf(a.stdout, "%s  %s  %s  %s\n", cells(d.Time.Local().Format("2006-01-02 15:04"), d.TemplateID+titleText(d.Title), who, ref)...)
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	if y := d.Synthesis; y != nil {
		fmt.Fprintf(tw, "  %s\t%s\n", cells(y.Question, y.Answer)...)
		if whole {
			for _, p := range []struct {
				name   string
				points []string
			}{{"agreed", y.Agreed}, {"dismissed", y.Dismissed}, {"unresolved", y.Unresolved}} {
				for _, t := range p.points {
					fmt.Fprintf(tw, "  %s\t%s\n", cells(p.name, t)...)
				}
			}
		}
	}
	for _, an := range d.Answers {
		q := an.Question
		if q == "" {
			q = an.Field
		}
		fmt.Fprintf(tw, "  %s\t%s\n", cells(q, answerText(an.Answer))...)
	}
	tw.Flush()
	if whole {
		fmt.Fprintf(a.stdout, "  project %s\n", cells(d.Project)...)
	}
}

func titleText(t string) string {
	if t == "" {
		return ""
	}
	return " (" + t + ")"
}

// answerText is an answer as one line: a list's items joined with ", ".
func answerText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var parts []string
		for _, x := range v {
			parts = append(parts, answerText(x))
		}
		return strings.Join(parts, ", ")
	}
	data, _ := json.Marshal(v)
	return string(data)
}

func (a *app) decisionsShow() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ID [--json]",
		Short: "Show one decision: its questions and answers, or a synthesis's points",
		Args:  exactArgs(1, "ID (a decision, response or deliberation id, as decisions list shows)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.openLog()
			if err != nil {
				return err
			}
			defer s.Close()
			d, err := s.Decision(args[0])
			if errors.Is(err, responselog.ErrNotFound) {
				return fmt.Errorf("%s: no decision with this id in the ledger (see elicit decisions list)", visible.String(args[0]))
			}
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.stdout, d)
			}
			a.printDecision(&d, true)
			fmt.Fprintf(a.stdout, "  decided %s\n", d.Time.Local().Format(time.RFC1123))
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the decision as JSON")
	return cmd
}
