package cli

import (
	"errors"
	"fmt"

	"github.com/elicit/elicit/config"
	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/elicit/elicit/internal/visible"
	"github.com/elicit/elicit/problem"
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
	return a.log
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

// record appends an event about form f, cast from template tmpl ("" for a
// hand-built form), to the response log.
func (a *app) record(f *form.Form, tmpl string, e responselog.Event) {
	if l := a.responseLog(); l != nil {
		e.Template = tmpl
		l.Append(responselog.New(f, e, responselog.CLIHost(a.getenv)))
	}
}

// recordCollect logs a collect: a submission, or the answers' problems.
func (a *app) recordCollect(f *form.Form, tmpl string, def []byte, r *form.Response, err error) {
	var probs problem.List
	switch {
	case err == nil:
		a.record(f, tmpl, responselog.Event{Kind: responselog.KindResponse, Response: r, Definition: def})
	case errors.As(err, &probs):
		a.record(f, tmpl, responselog.Event{Kind: responselog.KindRejected, Problems: len(probs), Definition: def})
	}
}
