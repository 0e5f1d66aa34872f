package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/elicit/elicit/problem"
)

// writeJSON prints v as indented JSON without HTML escaping.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// failure is the JSON shape of invalid input.
type failure struct {
	Success  bool     `json:"success"`
	Problems []string `json:"problems"`
}

// reportJSON prints err's problems as {"success":false,"problems":[...]} and
// returns errReported; errors that are not a problem list pass through.
func reportJSON(w io.Writer, err error) error {
	var probs problem.List
	if !errors.As(err, &probs) {
		return err
	}
	if werr := writeJSON(w, failure{Problems: probs.Strings()}); werr != nil {
		return werr
	}
	return errReported
}

// readInput reads a file argument, or standard input for "-".
func (a *app) readInput(name string) ([]byte, error) {
	if name == "-" {
		data, err := io.ReadAll(io.LimitReader(a.stdin, 64<<20))
		if err != nil {
			return nil, fmt.Errorf("read standard input: %w", err)
		}
		return data, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, errors.Unwrap(err))
	}
	return data, nil
}
