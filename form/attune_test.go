package form

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestAttuneFormsLoad parses forms of our own making in the shapes
// attune-forms accepts (testdata/attune/loads): its aliases, nulls for
// keys not given, two fields asking the same text, constructs with only
// their required keys. Each must load, and normalize to a form that loads
// the same.
func TestAttuneFormsLoad(t *testing.T) {
	paths, _ := filepath.Glob("testdata/attune/loads/*.json")
	if len(paths) == 0 {
		t.Fatal("no forms")
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f := mustParse(t, data)
			again := mustParse(t, marshalForm(t, f))
			if diff := cmp.Diff(f, again, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("the canonical form decodes differently (-first +again):\n%s", diff)
			}
		})
	}
}

// TestAttuneSilentAcceptancesRefused checks that what attune-forms lets
// through silently (testdata/attune/refused) stays a problem, naming it.
func TestAttuneSilentAcceptancesRefused(t *testing.T) {
	want := map[string][]string{
		"required-string.json":      {`fields[0].required: must be true or false (got string "false")`},
		"required-number.json":      {"fields[0].required: must be true or false (got number 0)"},
		"key-of-another-type.json":  {"fields[0].minimum: not a key of type text_input (it belongs to number)"},
		"id-characters.json":        {`fields[0].id: "a b<" is not a valid id (use 1-64 letters, digits, '_', '-' or '.', not starting with '-' or '.')`},
		"text-and-label.json":       {`fields[0].label: both "text" and its alias "label" are given (give the question once)`},
		"fields-and-questions.json": {`questions: both "fields" and its alias "questions" are given (give the fields once)`},
		"duplicate-options.json": {
			`fields[0].options[1]: duplicate option "x" (same as fields[0].options[0])`,
			"fields[0].options[2]: empty option (an option needs a label)",
		},
		"help-text-type.json": {
			"description: must be a string (got number 3)",
			"fields[0].help_text: must be a string (got array of 1)",
		},
		"pushback-recommends-own-position.json": {`fields[0].recommended: is the user's own position "x" (a pushback recommends an alternative)`},
	}
	paths, _ := filepath.Glob("testdata/attune/refused/*.json")
	if len(paths) != len(want) {
		t.Fatalf("%d forms, %d expectations", len(paths), len(want))
	}
	for _, p := range paths {
		name := filepath.Base(p)
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse(data)
			probs, _ := err.(problem.List)
			if diff := cmp.Diff(want[name], probs.Strings()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func marshalForm(t *testing.T, f *Form) []byte {
	t.Helper()
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestCanonicalRoundTrip checks that every test form's canonical JSON (what
// form validate --normalized prints) decodes to the same form.
func TestCanonicalRoundTrip(t *testing.T) {
	for name, data := range testForms(t) {
		f := mustParse(t, data)
		if diff := cmp.Diff(f, mustParse(t, marshalForm(t, f)), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: the canonical form decodes differently (-first +again):\n%s", name, diff)
		}
	}
}
