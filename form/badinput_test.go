package form

import (
	"testing"

	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

// TestParseAnswersBadInput: what decoding would hide (duplicate keys, numbers

// out of range, lone surrogates) and list items of the wrong type are

// reported with the answer's path, together with the other problems.

// TestParseAnswersKeepsValidText: surrogate pairs, escaped backslashes and

// large numbers in range decode as before.

// TestFormNumbersOutOfRange: a number out of float64 range in a form

// definition is reported as such wherever it is read.

func TestFormNumbersOutOfRange(t *testing.T) {
	tests := []struct {
		name, field string
		want        []string
	}{
		{"text default", `{"id": "t", "text": "T?", "type": "text_input", "default": 1e400}`, []string{
			"fields[0].default: must be a string (got number 1e400)",
		}},
		{"number default", `{"id": "n", "text": "N?", "type": "number", "default": 1e400}`, []string{
			"fields[0].default: must be a number within ±1.8e308 (got 1e400)",
		}},
		{"minimum", `{"id": "n", "text": "N?", "type": "number", "minimum": -1e400}`, []string{
			"fields[0].minimum: must be a number within ±1.8e308 (got -1e400)",
		}},
		{"max_length", `{"id": "t", "text": "T?", "type": "text_input", "max_length": 1e400}`, []string{
			"fields[0].max_length: must be a number within ±1.8e308 (got 1e400)",
		}},
		{"multi-select default item", `{"id": "b", "text": "B?", "type": "multi_select", "options": ["p"], "default": [1e400, "p"]}`, []string{
			"fields[0].default[0]: must be one of the options as a string (got number 1e400)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(field(tt.field)))
			probs, _ := err.(problem.List)
			if diff := cmp.Diff(tt.want, probs.Strings()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBigNumberKeepsItsText: a number out of range is never turned into a

// string, not even when the answers are written back as JSON.
