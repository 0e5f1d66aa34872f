package form

import "testing"

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
