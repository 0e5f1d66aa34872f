// Package form is elicit's forms engine: declarative JSON forms of ten field
// types (single_select, multi_select, boolean, text_input, number, date,
// textarea and the decision, pushback and progress constructs), strictly
// decoded with every problem listed, rendered to Claude Code's
// AskUserQuestion tool, routed to the surface that fits, cast from templates
// with slots, and answered: Collect validates answers (including the
// AskUserQuestion tool's own output) and Summary collapses a response into a
// few lines of markdown.
//
// The package is pure: it reads templates through an fs.FS and does no other
// I/O. Values of type Form come only from Parse or a template cast, so code
// that holds one can rely on every definition rule.
package form
