// Package visible makes text from outside elicit safe to show a person: a
// control character (C0 other than tab and newline, DEL, C1) written raw to
// a terminal can move the cursor, erase the screen, hide the text after it
// or retitle the window, and a bidirectional override or isolate
// (U+202A–U+202E, U+2066–U+2069) reorders the text after it, so what a
// person sees would not be what the text says. String and Line write each
// such character as a visible escape (\x1b, \u009b, \u202e); Writer does it
// to everything written through it.
//
// Forms refuse these characters when they are validated (form.Parse); this
// package is the defence in depth for everything else elicit prints: the
// answers people typed, the response log, names a client sent. It changes
// only what is displayed; the data stays as it was.
package visible
