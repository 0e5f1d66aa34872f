package mcpserver

import (
	"encoding/json"
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
