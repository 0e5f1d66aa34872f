// Package form is elicit's forms engine: declarative JSON forms of fifteen
// field types (seven plain controls: single_select, multi_select, boolean,
// text_input, number, date, textarea; eight constructs: decision, pushback,
// progress, deliberation, triage, confirm, ranking, assumption_review), strictly
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
// I/O. A Form from Parse or a template cast satisfies every definition rule;
// one built or changed in Go code may not, so Form.Validate checks it with
// Parse's rules, and every entry point that takes a form (Collect,
// SelectSurface, Summary, the surfaces' renderers and readers) refuses an
// invalid one with its problems: an error, or a result with success false
// and the problems, never a panic or a response the form would refuse.
package form
