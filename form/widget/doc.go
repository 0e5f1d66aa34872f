// Package widget is the widget surface: a validated form rendered as one
// self-contained HTML fragment (a <form> with its own styles and script, no
// external requests) that shows the whole option space at once, and the
// reader of its postback.
//
// Every field type has its own block in assets/widget.tmpl, an
// html/template parsed on first use, which escapes every value for its
// context. The constructs are cards: a decision's recommended option first
// with its badge, its rationale and the option notes as trade-offs; a
// pushback marks the user's approach and says why it pushes back; a
// progress report lists done and in-flight items and offers the blocked
// ones, the suggested next step badged. The later constructs too: a
// deliberation's cards name the voices behind each option and badge the
// synthesis pick; a confirm lists what approving does and pre-selects
// nothing; a triage board and an assumption review give each row its
// rulings (an edit opens a box for the corrected text); a ranking has one
// dropdown per rank. Suggestions are preselected and badged "suggested".
// Guessed defaults are preselected and marked with their reason; a form
// whose every answer is a guess becomes a one-tap confirmation.
//
// The script checks answers as form.Collect does, with its messages, before
// sending anything. The answers go back as the postback (see Marker): in a
// chat host through sendPrompt as a fenced JSON block, which the agent hands
// to collect; on the local page and in the MCP app the embedding page takes
// them from the elicit-submit event. The postback carries the form's
// FormID, so collect refuses answers given to another form.
package widget
