package form

import (
	"encoding/json"
	"testing"

	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

// badInputForm has a field of each kind the bad-input cases answer.
const badInputForm = `{"title": "T", "fields": [
	{"id": "a", "text": "A?", "type": "single_select", "options": ["x", "y"]},
	{"id": "b", "text": "B?", "type": "multi_select", "options": ["p", "q"], "required": false},
	{"id": "n", "text": "N?", "type": "number", "required": false},
	{"id": "t", "text": "T?", "type": "text_input", "required": false}]}`

const surrogateHint = "a lone UTF-16 surrogate escape, which is not a valid Unicode character (write the character itself, or a surrogate pair such as \\ud83d\\ude00)"

// TestParseAnswersBadInput: what decoding would hide (duplicate keys, numbers
// out of range, lone surrogates) and list items of the wrong type are
// reported with the answer's path, together with the other problems.
func TestParseAnswersBadInput(t *testing.T) {
	f := mustParse(t, []byte(badInputForm))
	tests := []struct {
		name, in string
		want     []string
	}{
		{"duplicate answer", `{"a": "x", "a": "y"}`, []string{
			`answers.a: duplicate key (given 2 times: string "x", string "y"; give each key once)`,
		}},
		{"duplicate answer and other problems", `{"n": "s", "a": "x", "a": "z", "a": "y"}`, []string{
			`answers.a: duplicate key (given 3 times: string "x", string "z", string "y"; give each key once)`,
			`answers.n: must be a number (got string "s")`,
		}},
		{"duplicate in the widget postback", `{"__elicitation_response__": true, "answers": {"a": "x", "a": "y"}}`, []string{
			`answers.a: duplicate key (given 2 times: string "x", string "y"; give each key once)`,
		}},
		{"duplicate in an AskUserQuestion output", `{"questions": [], "answers": {"A?": "x", "A?": "y"}}`, []string{
			`answers["A?"]: duplicate key (given 2 times: string "x", string "y"; give each key once)`,
		}},
		{"duplicate in a list of AskUserQuestion outputs", `[{"answers": {"A?": "x", "A?": "y"}}]`, []string{
			`[0].answers["A?"]: duplicate key (given 2 times: string "x", string "y"; give each key once)`,
		}},
		{"number out of range", `{"a": "x", "n": 1e400}`, []string{
			"answers.n: must be a number within ±1.8e308 (got 1e400)",
		}},
		{"negative number out of range", `{"a": "x", "n": -1e400}`, []string{
			"answers.n: must be a number within ±1.8e308 (got -1e400)",
		}},
		{"number out of range for a text field", `{"a": "x", "t": 1e400}`, []string{
			"answers.t: must be a string (got number 1e400)",
		}},
		{"number out of range in the widget postback", `{"__elicitation_response__": true, "answers": {"a": "x", "n": 1e999}}`, []string{
			"answers.n: must be a number within ±1.8e308 (got 1e999)",
		}},
		{"lone high surrogate", `{"a": "x", "t": "ab\ud800cd"}`, []string{
			`answers.t: the text contains \ud800, ` + surrogateHint,
		}},
		{"lone low surrogate after an escaped backslash", `{"a": "x", "t": "\\\udc00"}`, []string{
			`answers.t: the text contains \udc00, ` + surrogateHint,
		}},
		{"high surrogate followed by a non-surrogate", `{"a": "x", "t": "\uD800\u0041"}`, []string{
			`answers.t: the text contains \uD800, ` + surrogateHint,
		}},
		{"lone surrogate in a choice", `{"a": "\ud800"}`, []string{
			`answers.a: the text contains \ud800, ` + surrogateHint,
		}},
		{"lone surrogate in a key", `{"a": "x", "t\udc00": "y"}`, []string{
			`answers["t\udc00"]: the key contains \udc00, ` + surrogateHint,
			`answers.t` + "\ufffd" + `: no field has this id (fields: "a", "b", "n", "t")`,
		}},
		{"lone surrogate in an AskUserQuestion answer", `{"questions": [], "answers": {"T?": "\ud800"}}`, []string{
			`answers["T?"]: the text contains \ud800, ` + surrogateHint,
		}},
		{"non-string option", `{"a": "x", "b": [1]}`, []string{
			"answers.b[0]: must be one of the options as a string (got number 1)",
		}},
		{"several bad options", `{"a": "x", "b": ["p", null, "z", ["q"], "p"]}`, []string{
			"answers.b[1]: must be one of the options as a string (got null)",
			"answers.b[3]: must be one of the options as a string (got a list)",
			`answers.b: "z" not among the options ("p", "q"); "p" chosen more than once`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answers, err := ParseAnswers(f, []byte(tt.in))
			if err == nil {
				_, err = Collect(f, answers, nil)
			}
			probs, ok := err.(problem.List)
			if !ok {
				t.Fatalf("err = %#v, want a problem list", err)
			}
			if diff := cmp.Diff(tt.want, probs.Strings()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseAnswersKeepsValidText: surrogate pairs, escaped backslashes and
// large numbers in range decode as before.
func TestParseAnswersKeepsValidText(t *testing.T) {
	f := mustParse(t, []byte(badInputForm))
	answers, err := ParseAnswers(f, []byte(`{"a": "x", "t": "\ud83d\ude00 \\ud800 \u00e9", "n": 1.7e308, "b": ["p"]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": "x", "t": `😀 \ud800 é`, "n": 1.7e308, "b": []any{"p"}}
	if diff := cmp.Diff(want, answers); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

func TestParseResponseBadInput(t *testing.T) {
	f := mustParse(t, []byte(badInputForm))
	tests := []struct {
		name, in string
		want     []string
	}{
		{"duplicate response", `{"success": true, "responses": {"a": "x", "a": "y"}}`, []string{
			`responses.a: duplicate key (given 2 times: string "x", string "y"; give each key once)`,
		}},
		{"number out of range", `{"success": true, "responses": {"a": "x", "n": 1e400}}`, []string{
			"answers.n: must be a number within ±1.8e308 (got 1e400)",
		}},
		{"duplicate answer", `{"a": "x", "a": "y"}`, []string{
			`answers.a: duplicate key (given 2 times: string "x", string "y"; give each key once)`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseResponse(f, []byte(tt.in), nil)
			probs, _ := err.(problem.List)
			if diff := cmp.Diff(tt.want, probs.Strings()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

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
func TestBigNumberKeepsItsText(t *testing.T) {
	f := mustParse(t, []byte(badInputForm))
	answers, err := ParseAnswers(f, []byte(`{"n": 1e400}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(answers)
	if err != nil || string(out) != `{"n":1e400}` {
		t.Errorf("Marshal = %s, %v; want {\"n\":1e400}", out, err)
	}
}
