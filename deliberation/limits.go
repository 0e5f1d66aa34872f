package deliberation

import "github.com/elicit/elicit/internal/infile"

// Caps on what a deliberation keeps and reads (docs/limits.md, "Caps on
// input", lists them). Over a cap is an error naming the file or the
// field, the cap and what to do; nothing is cut short.
const (
	// MaxResponse is the largest answer recorded: 1 MiB of text, as a
	// consultant's answer (consult.MaxAnswer). Files are read by path.
	MaxResponse = 1 << 20
	// MaxStateFile is the largest state file read: room for the 8
	// iterations' answers, prompts and judgments at their caps. A step
	// that would write a larger one is refused before anything is written.
	MaxStateFile = 64 << 20
	// MaxTranscript is the largest transcript read; a step that would
	// grow it past this is refused before anything is written.
	MaxTranscript = 256 << 20
	// MaxQuestion is the largest question a deliberation starts on, and
	// the largest of each start option's texts together (the facts, the
	// interpretations, the SSM, the paths): 64 KiB, which every prompt
	// may carry, and which a command-line argument can hold. Longer
	// material belongs in a file named by path.
	MaxQuestion = 64 << 10
)

// The limits of the files a deliberation reads. A state file over its cap
// is a RestoreError as well: rebuilding it from its transcript mends it.
var (
	stateInput = infile.Limit{Max: MaxStateFile, What: "a deliberation state file",
		Fix: "elicit never writes one that large: check the file"}
	transcriptInput = infile.Limit{Max: MaxTranscript, What: "a deliberation transcript",
		Fix: "elicit never writes one that large: check the file; a deliberation that long is better split into new ones"}
)
