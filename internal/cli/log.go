package cli

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/config"
	"github.com/elicit/elicit/internal/formrun"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/elicit/elicit/internal/visible"
	"github.com/spf13/cobra"
)

// responseLog is the response log, or nil when it is off (ELICIT_LOG=off,
// or "log": false in the project's elicit.config.json) or there is no
// home folder for it. Problems with the setting are warnings: logging
// never fails a command.
func (a *app) responseLog() *responselog.Log {
	if a.logResolved {
		return a.log
	}
	a.logResolved = true
	s, err := config.LogFor(a.project(), a.getenv)
	for _, w := range s.Warnings {
		a.logWarn(w)
	}
	if err != nil {
		a.logWarn(fmt.Sprintf("response log taken as on: %v", err))
	}
	dir := responselog.DirFor(a.getenv)
	if !s.Value || dir == "" {
		return nil
	}
	if err := a.tightenHome(); err != nil {
		a.logWarn(err.Error())
	}
	a.log = responselog.Open(dir)
	a.log.Warn = a.logWarn
	a.log.Keep = a.logRetention()
	a.log.UseDatabase(a.project(), a.getenv)
	return a.log
}

// logRetention is how long the response log keeps records
// (log_retention_days, ELICIT_LOG_RETENTION_DAYS; 0 keeps all); problems
// with the setting are warnings, and the default holds.
func (a *app) logRetention() time.Duration {
	r, err := config.LogRetentionFor(a.project(), a.getenv)
	for _, w := range r.Warnings {
		a.logWarn(w)
	}
	if err != nil {
		a.logWarn(fmt.Sprintf("response log retention taken as %d days: %v", config.DefaultLogRetentionDays, err))
		r.Days = config.DefaultLogRetentionDays
	}
	return time.Duration(r.Days) * 24 * time.Hour
}

// logWarn prints a warning on stderr, once: the settings file is read for
// each setting a command resolves, and its warnings are the same each time.
func (a *app) logWarn(w string) {
	if a.warned[w] {
		return
	}
	if a.warned == nil {
		a.warned = map[string]bool{}
	}
	a.warned[w] = true
	fmt.Fprintln(a.stderr, "elicit: warning: "+visible.String(w))
}

// door is the CLI as the form operations know it: the response log (nil
// when it is off), the agent that ran the command, and the commands that
// reach each surface.
func (a *app) door() *formrun.Door {
	l := a.responseLog()
	who := responselog.CLIHost(a.getenv)
	who.Project, who.User = l.Project(a.project()), responselog.UserName(a.getenv)
	return &formrun.Door{Log: l, Who: who, How: surfaceHow, NoRecall: a.recallOff}
}

// runForm is form f, cast from template tmpl ("" for a hand-built form),
// as the form operations record it: a hand-built one with the definition
// read from FILE.
func runForm(f *form.Form, tmpl string, src *formSource) formrun.Form {
	return formrun.Form{Form: f, Template: tmpl, Definition: src.data}
}

// surfaceHow says how an agent using the CLI reaches surface s: the
// command that renders it (form render's --surface values, form open, form
// ask). Native elicitation is the MCP server's alone.
func surfaceHow(s form.Surface) string {
	switch s {
	case form.SurfaceWidget:
		return "elicit form render FILE --surface widget, or elicit form open FILE (a local web page)"
	case form.SurfaceAsk:
		return "elicit form render FILE --surface ask, then one AskUserQuestion call per ask_user_question entry"
	case form.SurfaceMarkdown:
		return "a render result's markdown_followup, or elicit form render FILE --surface markdown; collect the person's reply"
	case form.SurfaceCodex:
		return "elicit form render FILE --surface codex: request_user_input questions"
	case form.SurfaceTerminal:
		return "elicit form ask FILE, in a terminal, or elicit form open FILE (a local web page)"
	case form.SurfaceNative:
		return "elicitation_ask (MCP native elicitation, through elicit serve)"
	}
	return ""
}

// recallOff says whether recall is off: --no-recall, else ELICIT_RECALL or
// the project's "recall" setting (a broken setting leaves it on, with a
// warning).
func (a *app) recallOff() bool {
	if a.noRecall {
		return true
	}
	s, err := config.RecallFor(a.project(), a.getenv)
	for _, w := range s.Warnings {
		a.logWarn(w)
	}
	if err != nil {
		a.logWarn(fmt.Sprintf("recall taken as on: %v", err))
		return false
	}
	return !s.Value
}

// registerRecall adds --no-recall to a form command that asks or collects.
func (a *app) registerRecall(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&a.noRecall, "no-recall", false, `do not offer a field's last answer as its default ("recall": "last"; also ELICIT_RECALL=off or 'elicit config set recall false')`)
}

// recall offers the last answers of rf's fields that ask for them (see
// formrun.Door.Recall) and says on stderr what it offered.
func (a *app) recall(d *formrun.Door, rf *formrun.Form) []responselog.Recalled {
	got := d.Recall(rf)
	for _, r := range got {
		v, _ := json.Marshal(r.Answer)
		fmt.Fprintf(a.stderr, "elicit: %s starts at your answer of %s, %s (%s); --no-recall asks without it\n",
			visible.String(r.Field), r.Time.UTC().Format(time.DateOnly), visible.String(string(v)), r.ResponseID)
	}
	return got
}
