// Package ask is the AskUserQuestion surface: it renders a validated form as
// ready-to-send inputs for Claude Code's AskUserQuestion tool (1-4
// questions a call, 12-character headers, 2-4 options, a two-tier picker up
// to 16 options) and maps the tool's output, keyed by question text, back
// onto field ids. Fields the host cannot express are listed in Unsupported
// with the surface that can ask them; nothing is dropped silently.
package ask
