package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/elicit/elicit/internal/config"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/elicit/elicit/internal/visible"
	"github.com/spf13/cobra"
)

func responsesCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "responses",
		Short: "List, show and export the collected responses in the response log",
		Long: `The response log keeps every collected response (and render and surface decision) under
$ELICIT_HOME/log, tagged with its template id (template:NAME, or dict and a shape hash for a
hand-built form) and the host. Turn it off with ELICIT_LOG=off or 'elicit config set log false'.`,
		Args: noArgs,
		RunE: groupHelp,
	}
	cmd.AddCommand(a.responsesList(), a.responsesShow(), a.responsesExport())
	return cmd
}

// outputFormat is the --json / --csv choice of a log command.
type outputFormat struct{ json, csv bool }

func (o *outputFormat) register(cmd *cobra.Command, what string) {
	cmd.Flags().BoolVar(&o.json, "json", false, "print "+what+" as JSON")
	cmd.Flags().BoolVar(&o.csv, "csv", false, "print "+what+" as CSV, one row per answer")
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		if o.json && o.csv {
			return usagef("%s takes --json or --csv, not both", cmd.CommandPath())
		}
		return nil
	}
}

// openLog ingests the journal and opens the log for reading.
func (a *app) openLog() (*responselog.Store, error) {
	l, err := a.readLog()
	if err != nil {
		return nil, err
	}
	return l.Read()
}

// readLog is the log commands read: the response log, still readable when
// logging is off.
func (a *app) readLog() (*responselog.Log, error) {
	if l := a.responseLog(); l != nil {
		return l, nil
	}
	dir := responselog.DirFor(a.getenv)
	if dir == "" {
		return nil, errors.New("the response log needs ELICIT_HOME or HOME")
	}
	l := responselog.Open(dir) // off for writing, still readable
	l.Warn = a.logWarn
	l.Keep = a.logRetention()
	l.UseDatabase(a.project(), a.getenv)
	return l, nil
}

// explainLog says on stderr why the log may hold less than expected:
// logging is off (and how to turn it on), or, when empty, that nothing
// was recorded yet and where the log is.
func (a *app) explainLog(empty bool) {
	dir := responselog.DirFor(a.getenv)
	s, err := config.LogFor(a.project(), a.getenv)
	switch {
	case err == nil && !s.Value && s.Source == config.LogEnv:
		fmt.Fprintf(a.stderr, "elicit: the response log is off in this environment (%s=%s), so nothing new is recorded: unset %s or set it to on\n",
			config.LogEnv, visible.String(a.getenv(config.LogEnv)), config.LogEnv)
	case err == nil && !s.Value:
		fmt.Fprintf(a.stderr, "elicit: the response log is off for this project (\"log\": false in %s), so nothing new is recorded: turn it on with 'elicit config set log true'\n",
			visible.String(s.Source))
	case empty:
		fmt.Fprintf(a.stderr, "elicit: the response log in %s is empty: it records the forms elicit renders and collects (form collect, form ask, form open, the MCP tools)\n",
			visible.String(dir))
	}
}

func (a *app) responsesList() *cobra.Command {
	var out outputFormat
	var filter responselog.Filter
	cmd := &cobra.Command{
		Use:   "list [--template ID] [--shape SHAPE] [--form-id ID] [--limit N] [--json|--csv]",
		Short: "List the collected responses, newest first",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if filter.Limit < 0 {
				return usagef("--limit must be 0 (all) or more")
			}
			s, err := a.openLog()
			if err != nil {
				return err
			}
			defer s.Close()
			// One row at a time: memory does not grow with the log.
			n, err := a.streamEntries(s, filter, false, out)
			if err != nil {
				return err
			}
			if n == 0 && (filter.TemplateID != "" || filter.Shape != "" || filter.FormID != "") {
				why, err := s.NoMatch(filter)
				if err != nil {
					return err
				}
				fmt.Fprintln(a.stderr, "elicit: "+visible.String(why))
			}
			a.explainLog(n == 0 && filter.TemplateID == "" && filter.Shape == "" && filter.FormID == "")
			return nil
		},
	}
	out.register(cmd, "the responses")
	cmd.Flags().StringVar(&filter.TemplateID, "template", "", "only template `ID`: NAME or template:NAME, or dict for hand-built forms")
	cmd.Flags().StringVar(&filter.Shape, "shape", "", "only forms of shape `SHAPE` (or a unique start of it, as elicit stats shows)")
	cmd.Flags().StringVar(&filter.FormID, "form-id", "", "only forms whose form_id is `ID`")
	cmd.Flags().IntVar(&filter.Limit, "limit", 0, "only the newest `N` (0: all)")
	return cmd
}

func (a *app) responsesShow() *cobra.Command {
	var out outputFormat
	cmd := &cobra.Command{
		Use:   "show RESPONSE_ID [--json|--csv]",
		Short: "Show one response: where it came from and its answers",
		Args:  exactArgs(1, "RESPONSE_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.openLog()
			if err != nil {
				return err
			}
			defer s.Close()
			e, err := s.Response(args[0])
			if errors.Is(err, responselog.ErrNotFound) {
				return fmt.Errorf("%s: no response with this id in the response log (see elicit responses list)", args[0])
			}
			if err != nil {
				return err
			}
			if out.json || out.csv {
				if out.json {
					return writeJSON(a.stdout, e)
				}
				return a.printEntries([]responselog.Entry{e}, out)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "response\t%s\ntime\t%s\ntemplate\t%s\nshape\t%s\n",
				cells(e.ResponseID, e.Time.Format(time.RFC3339), e.TemplateID, e.Shape)...)
			if e.FormID != "" {
				fmt.Fprintf(tw, "form id\t%s\n", cells(e.FormID)...)
			}
			fmt.Fprintf(tw, "title\t%s\nhost\t%s\nvia\t%s\n", cells(e.Title, hostText(e), e.Via)...)
			if e.Inferred > 0 {
				fmt.Fprintf(tw, "guesses\t%d of %d fields guessed, %d kept\n", e.Inferred, e.Fields, e.Kept)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintln(a.stdout, "answers:")
			return writeJSON(a.stdout, e.Responses)
		},
	}
	out.register(cmd, "the response")
	return cmd
}

func (a *app) responsesExport() *cobra.Command {
	var out outputFormat
	cmd := &cobra.Command{
		Use:   "export --json|--csv",
		Short: "Export every collected response, oldest first (CSV: one row per answer)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !out.json && !out.csv {
				return usagef("elicit responses export needs --json or --csv")
			}
			s, err := a.openLog()
			if err != nil {
				return err
			}
			defer s.Close()
			_, err = a.streamEntries(s, responselog.Filter{}, true, out)
			return err
		},
	}
	out.register(cmd, "the responses")
	return cmd
}

// cells are the cells of a table row, each one line with its control
// characters escaped (a title or a host name from outside must neither
// break the row nor reach the terminal raw).
func cells(texts ...string) []any {
	out := make([]any, len(texts))
	for i, s := range texts {
		out[i] = visible.Line(s)
	}
	return out
}

func hostText(e responselog.Entry) string {
	if e.HostVersion != "" {
		return e.Host + " " + e.HostVersion
	}
	return e.Host
}

// printEntries prints entries as JSON, as CSV (one row per answer) or as a
// table.
func (a *app) printEntries(list []responselog.Entry, out outputFormat) error {
	switch {
	case out.json:
		return writeJSON(a.stdout, list)
	case out.csv:
		return writeCSV(a.stdout, list)
	}
	t := entryTable(a.stdout)
	for _, e := range list {
		if err := t.add(e); err != nil {
			return err
		}
	}
	return t.flush()
}

// entriesTable is the table responses list prints.
type entriesTable struct{ streamTable }

func entryTable(w io.Writer) *entriesTable {
	t := &entriesTable{streamTable{w: w}}
	t.row("RESPONSE", "TIME", "TEMPLATE", "HOST", "TITLE")
	return t
}

func (t *entriesTable) add(e responselog.Entry) error {
	tmpl := e.TemplateID
	if tmpl == "dict" {
		tmpl += " " + e.Shape
	}
	return t.row(visible.Line(e.ResponseID), e.Time.Local().Format("2006-01-02 15:04"), visible.Line(tmpl), visible.Line(hostText(e)), visible.Line(e.Title))
}

// streamEntries prints the responses f keeps as JSON, CSV or a table one
// at a time, as they are read (oldest first with oldestFirst), and counts
// them: a listing or an export of any size holds one response in memory
// (a table, its first block of rows).
func (a *app) streamEntries(s *responselog.Store, f responselog.Filter, oldestFirst bool, out outputFormat) (int, error) {
	n := 0
	var emit func(responselog.Entry) error
	var finish func() error
	if out.csv {
		cw := csv.NewWriter(a.stdout)
		if err := cw.Write(csvHeader); err != nil {
			return 0, err
		}
		emit = func(e responselog.Entry) error { return writeCSVRows(cw, e) }
		finish = func() error { cw.Flush(); return cw.Error() }
	} else if !out.json {
		t := entryTable(a.stdout)
		emit, finish = t.add, t.flush
	} else {
		jw := &jsonArray{w: a.stdout}
		emit = func(e responselog.Entry) error { return jw.add(e) }
		finish = jw.close
	}
	err := s.EachResponse(f, oldestFirst, func(e responselog.Entry) error {
		n++
		return emit(e)
	})
	if err != nil {
		return n, err
	}
	return n, finish()
}

// jsonArray writes a JSON array one element at a time, byte for byte as
// writeJSON writes the whole slice.
type jsonArray struct {
	w   io.Writer
	buf bytes.Buffer
	n   int
}

func (j *jsonArray) add(v any) error {
	sep := "[\n  "
	if j.n > 0 {
		sep = ",\n  "
	}
	j.n++
	j.buf.Reset()
	j.buf.WriteString(sep)
	enc := json.NewEncoder(&j.buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := j.w.Write(bytes.TrimSuffix(j.buf.Bytes(), []byte("\n")))
	return err
}

func (j *jsonArray) close() error {
	end := "\n]\n"
	if j.n == 0 {
		end = "[]\n"
	}
	_, err := io.WriteString(j.w, end)
	return err
}

// csvHeader is the export's columns: one row per answer, joinable on
// template_id and shape, or on the form's own form_id.
var csvHeader = []string{"response_id", "ts", "template_id", "shape", "form_id", "title", "host", "host_version", "via", "field", "value"}

func writeCSV(w io.Writer, list []responselog.Entry) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, e := range list {
		if err := writeCSVRows(cw, e); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeCSVRows writes one response's rows, one per answer.
func writeCSVRows(cw *csv.Writer, e responselog.Entry) error {
	{
		var answers map[string]json.RawMessage
		if len(e.Responses) > 0 {
			if err := json.Unmarshal(e.Responses, &answers); err != nil {
				return fmt.Errorf("response %s: %w", e.ResponseID, err)
			}
		}
		ids := make([]string, 0, len(answers))
		for id := range answers {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			row := []string{e.ResponseID, e.Time.UTC().Format(time.RFC3339), e.TemplateID, e.Shape, e.FormID, e.Title,
				e.Host, e.HostVersion, e.Via, id}
			for i := range row {
				row[i] = csvCell(row[i])
			}
			value := csvValue(answers[id])
			if !isJSONNumber(answers[id]) {
				value = csvCell(value)
			}
			if err := cw.Write(append(row, value)); err != nil {
				return err
			}
		}
	}
	return nil
}

// csvCell neutralises a cell a spreadsheet would take for a formula (CSV
// injection, OWASP's rule): text starting with =, +, -, @, a tab or a
// carriage return gets a leading apostrophe, which spreadsheets show as
// text and do not run.
func csvCell(s string) string {
	if s != "" && strings.IndexByte("=+-@\t\r", s[0]) >= 0 {
		return "'" + s
	}
	return s
}

// isJSONNumber reports whether an answer is a number (-5 is a number in a
// cell, not a formula, and is left as it is).
func isJSONNumber(raw json.RawMessage) bool {
	var f float64
	return json.Unmarshal(raw, &f) == nil
}

// csvValue is an answer in a cell: a string as itself, anything else
// (numbers, lists, rulings) as its JSON.
func csvValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func statsCommand(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats [--json]",
		Short: "Summarize the response log: surfaces, inference, templates, hints",
		Long: `Surface mix (what was rendered where, and what the router chose), submissions per host and
per template, the inference rate (fields pre-filled with a guess, and guesses kept), the
keyboard-mode hint after 10 submissions, and hand-built forms whose shape recurred 3 times or
more, with the 'elicit templates save' command that makes each a template.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := a.openLog()
			if err != nil {
				return err
			}
			defer s.Close()
			s.TemplateExists = responselog.TemplatesIn(a.templates())
			st, err := s.Stats(a.keyboardMode())
			if err != nil {
				return err
			}
			a.explainLog(st.Records == 0)
			if asJSON {
				return writeJSON(a.stdout, st)
			}
			printStats(a.stdout, st)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	return cmd
}

func printStats(w io.Writer, st *responselog.Stats) {
	if st.Partial {
		fmt.Fprintln(w, "(partial: the database could not be read; these figures cover the records not yet in it)")
	}
	fmt.Fprintf(w, "records: %d; submissions: %d; rejected collects: %d\n", st.Records, st.Submissions, st.Rejected)
	fmt.Fprintf(w, "rendered on: %s\n", mix(st.Rendered))
	fmt.Fprintf(w, "router chose: %s\n", mix(st.Routed))
	fmt.Fprintf(w, "submissions by host: %s\n", mix(st.ByHost))
	inf := st.Inference
	fmt.Fprintf(w, "inference: %d of %d fields pre-filled with a guess (%s); %d of the guesses kept (%s)\n",
		inf.Inferred, inf.Fields, percent(inf.Rate), inf.Kept, percent(inf.KeptRate))
	fmt.Fprintf(w, "submissions by template (%s from templates):\n", percent(st.FromTemplates))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, t := range st.ByTemplate {
		id := t.TemplateID
		if t.Shape != "" {
			id += " " + t.Shape
		}
		fmt.Fprintf(tw, "  %s\t%d\t%s\n", visible.Line(id), t.Submissions, visible.Line(t.Title))
	}
	tw.Flush()
	if st.KeyboardHint != "" {
		fmt.Fprintln(w, "hint: "+st.KeyboardHint)
	}
	for _, p := range st.Promote {
		fmt.Fprintf(w, "promote: the hand-built form %q recurred %d times; make it a template: %s\n", p.Title, p.Uses, visible.Line(p.Command))
	}
}

// mix prints counts most first with their shares: "ask 3 (75%), widget 1 (25%)".
func mix(m map[string]int) string {
	total := 0
	for _, n := range m {
		total += n
	}
	if total == 0 {
		return "none yet"
	}
	parts := make([]string, 0, len(m))
	for _, k := range responselog.Sorted(m) {
		parts = append(parts, fmt.Sprintf("%s %d (%s)", visible.Line(k), m[k], percent(float64(m[k])/float64(total))))
	}
	return strings.Join(parts, ", ")
}

func percent(f float64) string { return fmt.Sprintf("%.0f%%", f*100) }
