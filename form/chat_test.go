package form

import (
	"strings"
	"testing"
)

func TestStripBadges(t *testing.T) {
	for in, want := range map[string]string{
		"X (Recommended)":                 "X",
		"X (recommended)":                 "X",
		"X (Recommended) (your approach)": "X",
		"X (your approach) (Suggested)":   "X",
		"(Recommended)":                   "(Recommended)",
		"X":                               "X",
		"X(Recommended)":                  "X(Recommended)",
	} {
		if got := stripBadges(in); got != want {
			t.Errorf("StripBadges(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBadgesIsACopy: Badges lists every suffix StripBadges strips, and
// writing to the list it returns changes neither the next list nor what
// StripBadges strips.
func TestBadgesIsACopy(t *testing.T) {
	b := Badges()
	for _, s := range b {
		if got := stripBadges("X" + s); got != "X" {
			t.Errorf("StripBadges(%q) = %q: Badges lists a suffix it does not strip", "X"+s, got)
		}
	}
	b[0] = " (changed)"
	if Badges()[0] != RecommendedSuffix {
		t.Errorf("Badges()[0] = %q after writing to an earlier list", Badges()[0])
	}
	if got := stripBadges("X" + RecommendedSuffix); got != "X" {
		t.Errorf("StripBadges after writing to Badges' list = %q", got)
	}
}

// TestChatChoice: the labels the chat surfaces show and what their
// answers map back to, for few options and for many (the indexed path).
func TestChatChoice(t *testing.T) {
	pushback := &Field{ID: "p", Type: Pushback, Options: []string{"Mine", "Better"}, Recommended: "Better", UserPosition: "Mine"}
	progress := &Field{ID: "g", Type: Progress, Options: []string{"T6"}, Recommended: "T6"}
	multi := &Field{ID: "m", Type: MultiSelect, Options: []string{"a", "b"}, Default: []string{"a"}}
	many := &Field{ID: "n", Type: SingleSelect, Default: "o7"}
	for i := range 20 {
		many.Options = append(many.Options, "o"+strings.Repeat("x", i%2)+string(rune('a'+i)))
	}
	many.Options = append(many.Options, "o7")
	tests := []struct {
		f      *Field
		badge  string
		labels []string
		in     map[string]string
	}{
		{pushback, RecommendedSuffix, []string{"Better (Recommended)", "Mine (your approach)"}, map[string]string{
			"Better (Recommended)": "Better", " Better ": "Better", "Better (suggested)": "Better", "Mine (your approach)": "Mine",
			"mine": "Mine", "bETTER": "Better", "Other text (Recommended)": "Other text",
		}},
		{progress, SuggestedSuffix, []string{"T6 (Suggested)", NotNow}, map[string]string{
			"T6 (Suggested)": "T6", "not now": "", "Not now": "", "T6": "T6",
		}},
		{multi, RecommendedSuffix, []string{"a", "b"}, map[string]string{"a": "a", "a (Recommended)": "a"}},
		{many, RecommendedSuffix, nil, map[string]string{"o7 (Recommended)": "o7", "o7": "o7", " oxb ": "oxb", "oxb (Suggested)": "oxb", "nope": "nope"}},
	}
	for _, tt := range tests {
		c := NewChatChoice(tt.f, tt.badge)
		if tt.labels != nil {
			var labels []string
			for _, o := range c.Options {
				labels = append(labels, c.Label(o))
			}
			if strings.Join(labels, "|") != strings.Join(tt.labels, "|") {
				t.Errorf("%s: labels %q, want %q", tt.f.ID, labels, tt.labels)
			}
		}
		for in, want := range tt.in {
			if got := c.unlabel(in); got != want {
				t.Errorf("%s: Unlabel(%q) = %q, want %q", tt.f.ID, in, got, want)
			}
		}
	}
	if len(progress.Options) != 1 {
		t.Errorf("NewChatChoice changed the field's options: %q", progress.Options)
	}
	c := NewChatChoice(many, RecommendedSuffix)
	c.Groups = Groups(len(c.Options), 4)
	for in, want := range map[string]int{"Group 2": 2, " group 6 ": 6, "Group 7": 0, "Group": 0, "2": 0} {
		if got := c.group(in); got != want {
			t.Errorf("Group(%q) = %d, want %d", in, got, want)
		}
	}
}
