package crossmodel

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/elicit/elicit/method"
	"github.com/elicit/elicit/problem"
)

// The verdicts the orchestrator gives on a run's output, once it has
// compared it with its own view and verified its claims.
const (
	// VerdictConsensus: both models fully agree; the seed reports
	// NoteConsensus.
	VerdictConsensus = "consensus"
	// VerdictFailed: the output failed verification; the seed discards
	// it, goes on single-model and logs NoteFailedCheck.
	VerdictFailed = "failed_verification"
)

// Verdict is the outcome of Judge: the seed's note for the verdict, and
// what became of the output.
type Verdict struct {
	Method     string `json:"method"`
	Verdict    string `json:"verdict"`
	Note       string `json:"note"`
	OutputFile string `json:"output_file"`
	// Discarded: the output was replaced in its file by the note, so that
	// nothing reads it as the second model's view.
	Discarded bool `json:"discarded"`
}

// maxOutput is the most of an output file Judge reads to tell a run's
// answer from the unavailable note.
const maxOutput = 64 << 10

// Judge applies the orchestrator's verdict to the output of m's run in
// tmp/{workflow}/{id}/elicitation (opts gives the project, workflow and id
// the run had): consensus reports NoteConsensus; failed_verification
// discards the output (the file then holds NoteFailedCheck) and reports
// that note. A run that left no output (its file missing, or holding
// NoteUnavailable) has nothing to judge.
func Judge(m method.Method, verdict string, opts *Options) (*Verdict, error) {
	o := opts.withDefaults()
	var probs problem.List
	id := ""
	if opts != nil {
		id = opts.ID
	}
	if id == "" {
		probs.Add("id", "is required with a verdict: the id of the run judged (its plan's id), as its workflow")
	}
	for _, f := range []struct{ name, v string }{{"workflow", o.Workflow}, {"id", id}} {
		if f.v != "" && (!simpleName(f.v) || strings.Contains(f.v, "..")) {
			probs.Add(f.name, "%q is not a simple name (letters, digits, '.', '_', '-'; no '..'; at most 100)", f.v)
		}
	}
	switch verdict {
	case VerdictConsensus, VerdictFailed:
	default:
		probs.Add("verdict", "is %q, want %s (both models fully agree) or %s (the output failed your verification: it is discarded)", verdict, VerdictConsensus, VerdictFailed)
	}
	if m.CodexRole == "" {
		probs.Add("method", "%q has no codex_role: it has no cross-model output to judge", m.Name)
	}
	if err := probs.Err(); err != nil {
		return nil, err
	}
	p := &Plan{Method: m.Name, Slug: m.Slug(), Workflow: o.Workflow, ID: id, project: o.Project}
	p.OutputFile = p.files()
	out, err := p.readFile(p.OutputFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, problem.List{{Path: "verdict", Message: fmt.Sprintf("no output of %q to judge at %s: run it first (with the same workflow and id)", m.Name, p.OutputFile)}}
	case err != nil:
		return nil, err
	case strings.TrimSpace(out) == NoteUnavailable || strings.TrimSpace(out) == NoteFailedCheck:
		return nil, problem.List{{Path: "verdict", Message: fmt.Sprintf("the run of %q left no output to judge (%s holds %q): go on single-model", m.Name, p.OutputFile, strings.TrimSpace(out))}}
	}
	v := &Verdict{Method: m.Name, Verdict: verdict, OutputFile: p.OutputFile, Note: NoteConsensus}
	if verdict == VerdictFailed {
		if err := p.writeFile(p.OutputFile, NoteFailedCheck+"\n"); err != nil {
			return nil, err
		}
		v.Note, v.Discarded = NoteFailedCheck, true
	}
	return v, nil
}

// readFile reads at most maxOutput bytes of a file inside the project.
func (p *Plan) readFile(path string) (string, error) {
	root, rel, err := p.inProject(path)
	if err != nil {
		return "", err
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		return "", p.outside(path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxOutput))
	if err != nil {
		return "", fmt.Errorf("cross-model: read %s: %w", path, err)
	}
	return string(data), nil
}
