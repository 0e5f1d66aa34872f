// Package formrun is what both doors, the CLI and the MCP server, do with a
// validated form: render it for a surface, choose its surface, collect its
// answers, each recorded in the response log the same way, so that the two
// doors cannot log different things for the same call. The doors read
// their own input and phrase their own output; a Door brings the log, the
// caller and the door's words for reaching each surface.
package formrun

import (
	"errors"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/codex"
	"github.com/elicit/elicit/form/markdown"
	"github.com/elicit/elicit/form/native"
	"github.com/elicit/elicit/form/surfaces"
	"github.com/elicit/elicit/form/widget"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/elicit/elicit/problem"
)

// Form is a validated form as a door received it.
type Form struct {
	*form.Form
	// Template is the name of the template the form was cast from; "" for
	// a hand-built form.
	Template string
	// Definition is the JSON a hand-built form was parsed from: the
	// response log keeps it as the form's definition (nil: the form is
	// encoded instead).
	Definition []byte
}

// Door is what a door brings to the form operations.
type Door struct {
	// Log is the response log; nil records nothing.
	Log *responselog.Log
	// Who is the caller and the door, for the records.
	Who responselog.Who
	// How says how the door's caller reaches surface s, in the door's
	// words (its commands, its tools); it fills every "how" of what Render
	// and Route return. Nil leaves them empty.
	How func(s form.Surface) string
	// NoRecall, when set, is asked (only for a form with a field to
	// recall) whether Recall is off: the caller's flag or setting.
	NoRecall func() bool
}

// Record appends an event about f to the response log.
func (d *Door) Record(f Form, e responselog.Event) {
	if d.Log == nil || f.Form == nil {
		return
	}
	e.Template, e.Definition = f.Template, f.Definition
	d.Log.Append(responselog.New(f.Form, e, d.Who))
}

// Render renders f for surface s (ask, widget, markdown or codex; "" is
// ask) and records the render. The result is *ask.Result, *widget.Result,
// *markdown.Result or *codex.Result. A door that also reports the router's
// choice calls Route.
func (d *Door) Render(f Form, s form.Surface) any {
	if s == "" {
		s = form.SurfaceAsk
	}
	var r any
	switch s {
	case form.SurfaceWidget:
		r = widget.Render(f.Form, nil)
	case form.SurfaceMarkdown:
		r = markdown.Render(f.Form, nil)
	case form.SurfaceCodex:
		r = codex.Render(f.Form)
	default:
		r = ask.Render(f.Form)
	}
	Phrase(r, d.How)
	d.Shown(f, s)
	return r
}

// Shown records that f was put before the person on surface s by the door
// itself (a terminal, a web page, a native dialog).
func (d *Door) Shown(f Form, s form.Surface) {
	d.Record(f, responselog.Event{Kind: responselog.KindRender, Surface: string(s)})
}

// Route chooses f's surface for the client opts describes (see
// form.SelectSurface) and records the choice.
func (d *Door) Route(f Form, opts *form.SurfaceOptions) form.SurfaceChoice {
	c := form.SelectSurface(f.Form, opts)
	c.How = d.how(c.Surface)
	for i := range c.Rest {
		c.Rest[i].How = d.how(c.Rest[i].Surface)
	}
	d.Record(f, responselog.Event{Kind: responselog.KindSurface, Surface: string(c.Surface), Reason: c.Reason})
	return c
}

// Collect collects docs as one response (see surfaces.Collect) and records
// it: the submission, or the rejection of answers with problems, on the
// surface the answers came from (AnsweredOn).
func (d *Door) Collect(f Form, docs []surfaces.Document, opts *form.CollectOptions) (*form.Response, error) {
	r, err := surfaces.Collect(f.Form, docs, opts)
	d.Collected(f, AnsweredOn(f.Form, docs), r, err)
	return r, err
}

// Collected records a collect on surface s: the submission r, or the
// rejection when err holds the answers' problems. Any other error records
// nothing.
func (d *Door) Collected(f Form, s form.Surface, r *form.Response, err error) {
	var probs problem.List
	switch {
	case err == nil && r != nil:
		d.Record(f, responselog.Event{Kind: responselog.KindResponse, Surface: string(s), Response: r})
	case errors.As(err, &probs):
		d.Record(f, responselog.Event{Kind: responselog.KindRejected, Surface: string(s), Problems: len(probs)})
	}
}

// AnsweredOn is the surface the answers of docs came from as far as their
// texts tell (surfaces.SurfaceOf): the last document's that tells one, ""
// when none does.
func AnsweredOn(f *form.Form, docs []surfaces.Document) form.Surface {
	for i := len(docs) - 1; i >= 0; i-- {
		if s := surfaces.SurfaceOf(f, docs[i]); s != "" {
			return s
		}
	}
	return ""
}

// Phrase fills the "how" of every field a render result (of ask, markdown,
// codex or native) lists as one its surface cannot ask, with how: a door's
// words for reaching each surface. Render does it for its own results; a
// door calls it for a result it renders itself (a fallback's payloads).
func Phrase(result any, how func(form.Surface) string) {
	if how == nil {
		return
	}
	var us []form.Unsupported
	switch r := result.(type) {
	case *ask.Result:
		us = r.Unsupported
		if r.ChangeSome != nil { // the whole form behind a one-tap confirm
			Phrase(r.ChangeSome, how)
		}
	case *markdown.Result:
		us = r.Unsupported
	case *codex.Result:
		us = r.Unsupported
		if r.ChangeSome != nil {
			Phrase(r.ChangeSome, how)
		}
	case *native.Result:
		us = r.Unsupported
	}
	for i := range us {
		us[i].How = how(form.Surface(us[i].Surface))
	}
}

func (d *Door) how(s form.Surface) string {
	if d.How == nil || s == "" {
		return ""
	}
	return d.How(s)
}
