package form

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Surface is where a form is asked.
type Surface string

// The surfaces select_form_surface chooses between.
const (
	SurfaceWidget Surface = "widget"
	SurfaceAsk    Surface = "ask"
)

// The other surfaces elicit produces: a markdown questionnaire answered in
// one chat reply (the follow-up every other surface falls back on), Codex's
// request_user_input questions, the terminal (elicit form ask), and native
// MCP elicitation (elicitation_ask).
const (
	SurfaceMarkdown Surface = "markdown"
	SurfaceCodex    Surface = "codex"
	SurfaceTerminal Surface = "terminal"
	SurfaceNative   Surface = "native"
)

// TrivialMaxOptions and TrivialMaxLabel bound a trivial form.
const (
	trivialMaxOptions = 3
	trivialMaxLabel   = 120
)

// SurfaceOptions describes the client and the user. A nil *SurfaceOptions
// means a widget-capable client and keyboard mode off.
type SurfaceOptions struct {
	// NoWidgets says the client cannot render widgets.
	NoWidgets bool
	// QuestionTool is the surface of the client's own question tool, asked
	// with when it cannot render widgets: SurfaceCodex for the Codex CLI's
	// request_user_input, else AskUserQuestion (SurfaceAsk, also for ""),
	// as the seed says.
	QuestionTool Surface
	// KeyboardMode is the user's opt-out of widgets.
	KeyboardMode bool
	// KeyboardModeFunc, when set, is asked for keyboard mode (if
	// KeyboardMode is false) only when no earlier rule has decided, so a
	// settings file behind it is read only when it matters.
	KeyboardModeFunc func() bool
}

func (o *SurfaceOptions) keyboardMode() bool {
	return o.KeyboardMode || (o.KeyboardModeFunc != nil && o.KeyboardModeFunc())
}

// SurfaceChoice is the chosen surface, the rule that chose it and how to
// reach it.
type SurfaceChoice struct {
	Surface Surface `json:"surface"`
	Reason  string  `json:"reason"`
	// How says how to reach Surface in the words of the door that routed
	// (the CLI's commands, the MCP server's tools); SelectSurface leaves it
	// empty.
	How string `json:"how"`
	// Rest, when Surface has no control for some of the fields, lists the
	// surfaces that ask them, in the order to try; each How is the door's
	// words, as for How.
	Rest []SurfaceRoute `json:"rest,omitempty"`
	// Problems, for a form that breaks a definition rule (see
	// Validate), name every problem; Surface is then "".
	Problems []string `json:"problems,omitempty"`
}

// SurfaceRoute is a surface and how to reach it.
type SurfaceRoute struct {
	Surface Surface `json:"surface"`
	How     string  `json:"how"`
}

// richRest are the surfaces that ask what AskUserQuestion cannot: native
// MCP elicitation, the terminal, and free text in a markdown reply.
var richRest = []Surface{SurfaceNative, SurfaceTerminal, SurfaceMarkdown}

func choose(s Surface, reason string) SurfaceChoice {
	return SurfaceChoice{Surface: s, Reason: reason}
}

// SelectSurface applies the seed's routing rules, highest precedence first:
// a client that cannot render widgets gets its question tool
// (AskUserQuestion, or request_user_input for Codex); a number, date or
// textarea field gets the widget; keyboard mode gets AskUserQuestion; a
// trivial form gets AskUserQuestion; everything else gets the widget. A form
// that breaks a definition rule (see Validate) gets no surface: Surface is ""
// and Problems names every problem.
func SelectSurface(f *Form, opts *SurfaceOptions) SurfaceChoice {
	if err := f.Check(); err != nil {
		probs := ProblemStrings(err)
		return SurfaceChoice{Reason: "the form is not valid (" + strings.Join(probs, "; ") + "): fix it before asking", Problems: probs}
	}
	if opts == nil {
		opts = &SurfaceOptions{}
	}
	rich := richFields(f)
	switch {
	case opts.NoWidgets && opts.QuestionTool == SurfaceCodex:
		reason := "the client cannot render widgets: Codex asks with request_user_input (Plan mode; where that tool is missing, as in codex exec, ask with the markdown surface)"
		if len(rich) > 0 {
			reason += fmt.Sprintf("; request_user_input has no control for %s: the render result's markdown_followup asks them", strings.Join(rich, ", "))
		}
		return choose(SurfaceCodex, reason)
	case opts.NoWidgets:
		reason := "the client cannot render widgets"
		if len(rich) > 0 {
			reason += fmt.Sprintf("; AskUserQuestion has no control for %s: ask them on a surface under rest (native elicitation, a terminal, or as free text)", strings.Join(rich, ", "))
			c := choose(SurfaceAsk, reason)
			for _, s := range richRest {
				c.Rest = append(c.Rest, SurfaceRoute{Surface: s})
			}
			return c
		}
		return choose(SurfaceAsk, reason)
	case len(rich) > 0:
		return choose(SurfaceWidget, fmt.Sprintf("AskUserQuestion has no control for %s, so the widget asks it (this outranks keyboard mode)", strings.Join(rich, ", ")))
	case opts.keyboardMode():
		return choose(SurfaceAsk, "keyboard mode is on")
	}
	if why := trivial(f); why != "" {
		return choose(SurfaceAsk, "trivial form: "+why)
	}
	return choose(SurfaceWidget, "the widget shows the whole option space at once (the default surface)")
}

// richFields names the number, date and textarea fields.
func richFields(f *Form) []string {
	var out []string
	for _, fl := range f.Fields {
		if fl.Type.RichControl() {
			out = append(out, fmt.Sprintf("%s (%s)", fl.ID, fl.Type))
		}
	}
	return out
}

// trivial says why the form is trivial, or "" when it is not: exactly one
// single_select or boolean with at most 3 options, none over 120 characters.
func trivial(f *Form) string {
	if len(f.Fields) != 1 {
		return ""
	}
	fl := &f.Fields[0]
	opts := fl.Options
	switch fl.Type {
	case Boolean:
		opts = []string{"Yes", "No"}
	case SingleSelect:
	default:
		return ""
	}
	if len(opts) > trivialMaxOptions {
		return ""
	}
	for _, o := range opts {
		if utf8.RuneCountInString(o) > trivialMaxLabel {
			return ""
		}
	}
	return fmt.Sprintf("one %s with %d options", fl.Type, len(opts))
}
