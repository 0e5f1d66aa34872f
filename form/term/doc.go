// Package term is the terminal surface: it asks a validated form on a
// terminal, one widget of internal/termui per field (a single select for
// the choices and constructs, a multi-select, a yes/no toggle, a line or
// multi-line editor that checks the text with collect's rules on Enter),
// constructs shown with their recommendation, rationale, notes and
// progress buckets, inferred defaults preselected and marked as guesses,
// and a single Confirm when every field is a guess. Ask draws on a
// Session: Open makes one on a terminal, NewSession on any reader and
// writer; Escape or Ctrl-C returns ErrCancelled. AskLines asks the same
// form line by line for screen readers and pipes. Both return answers
// keyed by field id, for form.Collect.
package term
