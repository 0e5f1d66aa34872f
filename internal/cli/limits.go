package cli

import (
	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/infile"
)

// The caps on what commands read from files and standard input
// (docs/limits.md, "Caps on input", lists them). Over a cap is an error naming
// the input, the cap and what to do; input is never cut short.
var (
	formInput    = infile.Limit{Max: form.MaxInput, What: "a form", Fix: "split it into smaller forms"}
	answersInput = infile.Limit{Max: form.MaxInput, What: "answers", Fix: "answer one form per file"}
	textInput    = infile.Limit{Max: 1 << 20, What: "--text-file", Fix: "give the section's own text, not a whole document"}
	sectionInput = infile.Limit{Max: 1 << 20, What: "--section-file", Fix: "give the plan section itself; only its first 4,000 characters are sent"}
	delibInput   = infile.Limit{Max: 16 << 20, What: "a deliberation response or evaluation", Fix: "record the answer's text, not attachments"}
)
