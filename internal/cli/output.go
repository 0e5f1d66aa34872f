package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/elicit/elicit/form/surfaces"
	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/elicit/elicit/problem"
)

// writeJSON prints v as indented JSON without HTML escaping: <, > and &
// as themselves, since forms and answers are often about code.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// failure is the JSON shape of invalid input; a collect that failed also
// carries the re-ask of the fields that failed.
type failure struct {
	Success  bool            `json:"success"`
	Problems []string        `json:"problems"`
	Reask    *surfaces.Reask `json:"reask,omitempty"`
	Kept     map[string]any  `json:"kept,omitempty"`
}

// reportJSON prints err's problems as {"success":false,"problems":[...]}
// (with "reask" for a collect) and returns errReported; errors that are not
// a problem list pass through.
func reportJSON(w io.Writer, err error) error {
	var probs problem.List
	if !errors.As(err, &probs) {
		return err
	}
	out := failure{Problems: probs.Strings()}
	var fail *surfaces.Failure
	if errors.As(err, &fail) {
		out.Reask, out.Kept = fail.Reask, fail.Kept
	}
	if werr := writeJSON(w, out); werr != nil {
		return werr
	}
	return errReported
}

// readInput reads a file argument, or standard input for "-", under its
// cap: only a regular file, and never more than l.Max bytes.
func (a *app) readInput(name string, l infile.Limit) ([]byte, error) {
	var data []byte
	var err error
	if name == "-" {
		name = "standard input"
		data, err = infile.ReadStream(a.stdin, name, l)
	} else {
		data, err = infile.ReadFile(name, l)
	}
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe):
		return nil, fmt.Errorf("read %s: %w", name, pe.Err)
	case errors.Is(err, infile.ErrTooLarge), errors.Is(err, infile.ErrNotRegular):
		return nil, fmt.Errorf("read %w", err) // it names the file
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return data, nil
}

// withRecalled is a render result with, when recall offered any, what it
// offered beside the result's own keys ("recalled").
func withRecalled(r any, recalled []responselog.Recalled) any {
	if len(recalled) == 0 {
		return r
	}
	data, err := json.Marshal(r)
	if err != nil || len(data) < 2 || data[len(data)-1] != '}' {
		return r
	}
	extra, _ := json.Marshal(recalled)
	out := append(data[:len(data)-1:len(data)-1], `,"recalled":`...)
	return json.RawMessage(append(append(out, extra...), '}'))
}
