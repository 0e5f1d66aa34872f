package form

import "testing"

func TestKeyBits(t *testing.T) {
	for i, k := range fieldKeys.Get() {
		if got := keyBit(k); got != 1<<i {
			t.Errorf("keyBit(%q) = %b, want 1<<%d", k, got, i)
		}
	}
	for _, k := range []string{"", "label", "ID", "options "} {
		if keyBit(k) != 0 {
			t.Errorf("keyBit(%q) must be 0", k)
		}
	}
}

func TestSuggest(t *testing.T) {
	for word, want := range map[string]string{"maximun": "maximum", "label": "", "questions": "options", "question": "text", "opts": "", "requred": "required", "xyz": ""} {
		if got := suggest(word, fieldKeys.Get()); got != want {
			t.Errorf("suggest(%q) = %q, want %q", word, got, want)
		}
	}
}

// TestTypeMasks keeps the written-out typeMasks equal to typeMask, type by
// type, in the order of types.
func TestTypeMasks(t *testing.T) {
	if len(typeMasks) != len(types) {
		t.Fatalf("typeMasks has %d entries for %d types", len(typeMasks), len(types))
	}
	for i, ty := range types {
		if got, want := typeMasks[i], typeMask(ty); got != want {
			t.Errorf("typeMasks[%d] (%s) = %#x, want %#x (typeMask)", i, ty, got, want)
		}
	}
}
