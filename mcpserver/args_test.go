package mcpserver

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/surfaces"
)

// FuzzArgs feeds arbitrary tool arguments through the decoding every tool
// does: no input panics, and bad input always names a problem.
func FuzzArgs(f *testing.F) {
	f.Add(`{"form": {"title": "T", "fields": [{"id": "a", "text": "A?", "type": "boolean"}]}, "answers": {"a": "Yes"}}`)
	f.Add(`{"template": "session-contract", "slots": {"project": 3}, "form": null}`)
	f.Add(`{"form": [], "form": {}, "top": -1.5, "keywords": "x"}`)
	f.Add(`[1, 2]`)
	f.Add(`{"top": 9007199254740993, "answers": [[[[{"a": "[\\"]"}]]]]}`)
	ts := &form.Templates{}
	f.Fuzz(func(t *testing.T, data string) {
		a := parseArgs(json.RawMessage(data), withFormArgs("answers", "top", "keywords"))
		if a.raw == nil {
			if len(a.probs) == 0 {
				t.Fatal("unusable arguments without a problem")
			}
			return
		}
		fm, _ := a.form(ts)
		a.integer("top", maxCount)
		a.seconds("top")
		a.ref("keywords", methodRef, false)
		a.strings("keywords")
		answers := a.object("answers", false, true)
		if fm == nil && len(a.probs) == 0 {
			t.Fatal("no form and no problem")
		}
		if fm != nil && answers != nil {
			if parsed, err := surfaces.ParseAnswers(fm, answers); err == nil {
				form.Collect(fm, parsed, nil)
			}
		}
	})
}

func TestArgsDuplicatesAndUnknowns(t *testing.T) {
	a := parseArgs(json.RawMessage(`{"zeta": 1, "form": {}, "form": {}}`), formArgs)
	want := []string{"zeta: unknown argument (arguments: form, template, slots)", "form: given twice"}
	got := a.probs.Strings()
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("problems = %q, want %q", got, want)
	}
}

// TestArgsDocument: what parseArgs makes of arguments that are not an
// object of arguments.
func TestArgsDocument(t *testing.T) {
	tests := []struct {
		name, in string
		usable   bool
		want     []string
	}{
		{"none", ``, true, nil},
		{"white space", " \n", true, nil},
		{"null", ` null `, true, nil},
		{"an array", `[1]`, false, []string{"arguments: must be a JSON object"}},
		{"not JSON", `{"form": }`, false, []string{"arguments: invalid JSON at line 1, column 10: unexpected character '}' (expected a value) (want a JSON object)"}},
		{"too large", `{"form": "` + strings.Repeat("x", maxArguments) + `"}`, false, []string{fmt.Sprintf("arguments: %d bytes, over the 1 MiB limit (%d bytes)", maxArguments+12, maxArguments)}},
		// A form refuses text that is not UTF-8, naming the offset in it.
		{"not UTF-8", "{\"form\": \"\xff\"}", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := parseArgs(json.RawMessage(tt.in), formArgs)
			if got := a.probs.Strings(); (a.raw != nil) != tt.usable || !slices.Equal(got, tt.want) {
				t.Errorf("usable %v, problems %q; want usable %v, %q", a.raw != nil, got, tt.usable, tt.want)
			}
		})
	}
}
