// Package form is elicit's forms engine: declarative JSON forms of ten field
// types (single_select, multi_select, boolean, text_input, number, date,
// textarea and the decision, pushback and progress constructs), strictly
// decoded with every problem listed, routed to the surface that fits
// (SelectSurface), cast from templates with slots, and answered: Collect
// validates answers keyed by field id and Summary collapses a response into
// a few lines of markdown.
//
// The surfaces a form is asked on are packages of their own, one model with
// several renderers: form/ask (Claude Code's AskUserQuestion), form/native
// (MCP elicitation), and the others under form/. Each renders a validated
// form and reads its answers back; form/surfaces reads an answer document
// from any of them. What every surface shows the same way (the recommended
// option first, option notes, guesses, the progress report) is here, in
// present.go.
//
// The package is pure: it reads templates through an fs.FS and does no other
// I/O. Values of type Form come only from Parse or a template cast, so code
// that holds one can rely on every definition rule.
package form
