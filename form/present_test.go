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
