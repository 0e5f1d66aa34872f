package form

import (
	"fmt"
	"strings"
	"testing"
)

func TestHeader(t *testing.T) {
	tests := map[string]string{
		"goal":                   "Goal",
		"done_when":              "Done when",
		"effort-cap":             "Effort cap",
		"ship_date_and_time":     "Ship date",
		"supercalifragilistic":   "Supercalifra",
		"ünïcode_wörds_are_fine": "Ünïcode",
		"__":                     "Question",
	}
	for id, want := range tests {
		if got := Header(id, 12); got != want {
			t.Errorf("Header(%q, 12) = %q, want %q", id, got, want)
		}
	}
}

// TestNotesAgree: Notes gives, for every option of every test form, what
// OptionNote and GuessNote give one option at a time.
func TestNotesAgree(t *testing.T) {
	for name, data := range testForms(t) {
		f := mustParse(t, data)
		for i := range f.Fields {
			fl := &f.Fields[i]
			notes := fl.Notes()
			for _, o := range append(fl.Choices(), "not an option") {
				want := joinNonEmpty([]string{fl.OptionNote(o), fl.EndorsementNote(o), fl.GuessNote(o)})
				if got := notes(o); got != want {
					t.Errorf("%s: %s: Notes(%q) = %q, want %q", name, fl.ID, o, got, want)
				}
			}
		}
	}
}

func TestByIDAndOnly(t *testing.T) {
	f := &Form{Title: "T", Fields: []Field{{ID: "a", Text: "1"}, {ID: "b", Text: "2"}, {ID: "a", Text: "3"}, {ID: "c", Text: "4"}}}
	by := f.ByID()
	if len(by) != 3 || by["a"].Text != "1" || by["c"] != &f.Fields[3] || by["x"] != nil {
		t.Errorf("ByID = %v", by)
	}
	var texts []string
	for _, fl := range f.Only("c", "a", "nope").Fields {
		texts = append(texts, fl.Text)
	}
	if strings.Join(texts, ",") != "1,3,4" {
		t.Errorf("Only kept %v, want the a and c fields in form order", texts)
	}
}

func TestAllGuessed(t *testing.T) {
	guess := `{"id":"g%d","text":"G%[1]d?","type":"boolean","default":"Yes","inferred_from":"chat"}`
	plain := `{"id":"p","text":"P?","type":"boolean"}`
	shown := `{"id":"s","text":"Status","type":"progress","progress_items":[{"label":"CI","status":"done"}]}`
	tests := []struct {
		name   string
		fields []string
		want   bool
	}{
		{"every field guessed", []string{fmt.Sprintf(guess, 1), fmt.Sprintf(guess, 2)}, true},
		{"one field not guessed", []string{fmt.Sprintf(guess, 1), plain}, false},
		{"display-only fields are skipped", []string{shown, fmt.Sprintf(guess, 1)}, true},
		{"nothing is asked", []string{shown}, false},
	}
	for _, tt := range tests {
		f := mustParse(t, []byte(`{"title":"t","fields":[`+strings.Join(tt.fields, ",")+`]}`))
		if got := f.AllGuessed(); got != tt.want {
			t.Errorf("%s: AllGuessed() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
