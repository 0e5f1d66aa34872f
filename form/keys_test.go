package form

import "testing"

// TestSuggest: the key an alias stands for, else the nearest, ignoring
// case.
func TestSuggest(t *testing.T) {
	for word, want := range map[string]string{"maximun": "maximum", "label": "", "questions": "options", "question": "text", "opts": "", "requred": "required", "xyz": "",
		"ID": "id", "TYPE": "type", "Help_Text": "help_text"} {
		if got := suggest(word, keyset.fieldKeys); got != want {
			t.Errorf("suggest(%q) = %q, want %q", word, got, want)
		}
	}
}
