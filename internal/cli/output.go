package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/surfaces"
	"github.com/elicit/elicit/internal/infile"
	"github.com/elicit/elicit/internal/jsonenc"
	"github.com/elicit/elicit/problem"
)

// writeJSON prints v as indented JSON without HTML escaping.
func writeJSON(w io.Writer, v any) error {
	// The results of form render and form collect are written without
	// encoding/json's reflection and validating scan: at the start of a
	// process they cost more than the call's work. These exact types only:
	// a type embedding one would inherit AppendJSON and lose its own members.
	var a jsonenc.Appender
	switch v := v.(type) {
	case *ask.Result:
		a = v
	case *form.Response:
		a = v
	}
	if a != nil {
		b, err := a.AppendJSON(make([]byte, 0, 4096))
		if err != nil {
			return err
		}
		_, err = w.Write(append(jsonenc.Indent(make([]byte, 0, 2*len(b)), b, "  "), '\n'))
		return err
	}
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
		out.Reask = fail.Reask
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
