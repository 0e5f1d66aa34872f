// Package codex is the Codex questions surface: it renders a validated form
// as ready inputs for the Codex CLI's request_user_input tool (1-3
// questions a call, 2-3 options each with a one-sentence description,
// headers of at most 12 characters, the recommended option first with
// "(Recommended)", no "Other" option since the client adds one, snake_case
// question ids; a two-tier picker up to 9 options) and maps the tool's
// answers, {"answers": {"<id>": {"answers": ["<label>"]}}}, back onto field
// ids. What the tool cannot ask (multi-select, number, date, multi-line
// text, free text without suggestions) is listed in Unsupported and asked
// in the markdown follow-up.
package codex
