// Package termui is elicit's small terminal UI kit: a single select (↑/↓ or
// j/k, Enter), a multi-select (space toggles), a line editor, a multi-line
// editor and a yes/no confirm, drawn with plain ANSI sequences on a
// terminal in raw mode (golang.org/x/term). Escape and Ctrl-C cancel with
// ErrCancelled, and so does the end of Open's context (a signal). Each
// widget redraws its block in place and leaves a one-line summary of the
// answer when done (or, closed unanswered, "not answered"), so the
// scrollback reads as a transcript. A block taller than the terminal shows
// a screenful: its title, the rows around the line in focus and the key
// help; laying out a line is one pass over its own text, so a long text
// costs linear time and memory. Bracketed paste is on while a session
// is open: a paste is one key (KeyPaste), its newlines not Enter. Text is
// drawn with control characters escaped (internal/visible).
//
// It replaces charmbracelet/huh, whose package initialisation cost every
// CLI call about 0.6 ms; this package does nothing at init.
package termui
