package formrun

import (
	"fmt"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/surfaces"
	"github.com/elicit/elicit/internal/responselog"
)

const recallForm = `{"title": "Plan", "form_id": "plan", "fields": [
	{"id": "cap", "text": "Effort cap?", "type": "single_select", "options": ["1h", "2h", "4h"], "recall": "last"},
	{"id": "tags", "text": "Tags?", "type": "multi_select", "options": ["api", "ui"], "recall": "last"},
	{"id": "outcome", "text": "Outcome?", "type": "text_input"}]}`

func recallParse(t *testing.T, def string) Form {
	t.Helper()
	f, err := form.Parse([]byte(def))
	if err != nil {
		t.Fatal(err)
	}
	return Form{Form: f}
}

// TestRecallOffersTheLastAnswerThatHolds: a field that asks for it starts
// at its last answer in the project, named in inferred_from; an answer
// the form no longer allows, a field with a default of its own, another
// project and recall turned off are offered nothing.
func TestRecallOffersTheLastAnswerThatHolds(t *testing.T) {
	l := responselog.Open(t.TempDir())
	var warnings []string
	l.Warn = func(w string) { warnings = append(warnings, w) }
	d := &Door{Log: l, Who: responselog.Who{Host: "test", Via: "cli", Project: "/p"}}
	collect := func(answers string) {
		t.Helper()
		if _, err := d.Collect(recallParse(t, recallForm), []surfaces.Document{{Name: "a", Format: surfaces.FormatJSON, Data: []byte(answers)}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	collect(`{"cap": "4h", "tags": ["ui"], "outcome": "x"}`)
	collect(`{"cap": "2h", "tags": ["api", "ui"], "outcome": "y"}`)

	tests := []struct {
		name    string
		door    *Door
		def     string
		want    map[string]any // field: default offered
		recalls int
	}{
		{"the newest answer of each field", d, recallForm, map[string]any{"cap": "2h", "tags": []string{"api", "ui"}}, 2},
		{"an answer the options no longer allow", d, strings.Replace(recallForm, `"2h", `, "", 1), map[string]any{"tags": []string{"api", "ui"}}, 1},
		{"the agent's own default wins", d, strings.Replace(recallForm, `"recall": "last"}`, `"recall": "last", "default": "1h"}`, 1),
			map[string]any{"cap": "1h", "tags": []string{"api", "ui"}}, 1},
		{"a field that does not ask", d, strings.ReplaceAll(recallForm, `, "recall": "last"`, ""), map[string]any{}, 0},
		{"another project", &Door{Log: l, Who: responselog.Who{Project: "/q"}}, recallForm, map[string]any{}, 0},
		{"recall off", &Door{Log: l, Who: d.Who, NoRecall: func() bool { return true }}, recallForm, map[string]any{}, 0},
		{"no log", &Door{Who: d.Who}, recallForm, map[string]any{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rf := recallParse(t, tt.def)
			got := tt.door.Recall(&rf)
			if len(got) != tt.recalls {
				t.Errorf("recalled %+v, want %d", got, tt.recalls)
			}
			for _, fl := range rf.Fields {
				want, ok := tt.want[fl.ID]
				switch {
				case !ok && fl.Default != nil:
					t.Errorf("%s: default %v, want none", fl.ID, fl.Default)
				case ok && fmt.Sprint(fl.Default) != fmt.Sprint(want):
					t.Errorf("%s: default %#v, want %#v", fl.ID, fl.Default, want)
				case ok && fl.Recall != "" && fl.InferredFrom != "" && !strings.HasPrefix(fl.InferredFrom, "your answer on 20"):
					t.Errorf("%s: inferred_from %q", fl.ID, fl.InferredFrom)
				}
			}
			if _, ok := rf.Fields[1].Default.([]string); rf.Fields[1].Default != nil && !ok {
				t.Errorf("a multi_select's default is %T, want []string", rf.Fields[1].Default)
			}
			if err := rf.Validate(); err != nil {
				t.Errorf("the recalled form is not valid: %v", err)
			}
		})
	}
	if len(warnings) > 0 {
		t.Errorf("warnings: %q", warnings)
	}
}
