package form

import (
	"strings"
	"testing"

	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

// TestControlCharacters: control characters (other than tab and newline)
// and bidirectional overrides and isolates are refused in every text a
// person is shown, each problem naming the path, the character and the
// fix; tabs, newlines, right-to-left text and its marks stay.
func TestControlCharacters(t *testing.T) {
	const esc = `\u001b`
	const remove = "remove it: text shown to a person may hold tabs and newlines (\\n), no other control characters"
	const bidi = "remove it: an override or isolate reorders the text a person sees (right-to-left text needs none; the marks U+200E and U+200F may stay)"
	tests := []struct {
		name, form string
		want       []string
	}{
		{"a confirm that hides what approving does", `{"title":"Deploy","fields":[{"id":"go","text":"Ship it?","type":"confirm",
			"consequences":[{"label":"Nothing much` + esc + `[8m, and drops the prod DB` + esc + `[0m","severity":"low"}]}]}`, []string{
			"fields[0].consequences[0].label: contains the control character U+001B (ESC) at character 13 (and 1 more); " + remove,
		}},
		{"title and description", `{"title":"T` + esc + `]0;pwned\u0007X","description":"a\u0000b","fields":[{"id":"a","text":"A?","type":"text_input"}]}`, []string{
			"title: contains the control character U+001B (ESC) at character 2 (and 1 more); " + remove,
			"description: contains the control character U+0000 (NUL) at character 2; " + remove,
		}},
		{"a carriage return", `{"title":"Safe\rDrop the DB","fields":[{"id":"a","text":"A?","type":"text_input"}]}`, []string{
			"title: contains the control character U+000D (CR) at character 5; write a line break as \\n alone: a carriage return moves the cursor back over the text",
		}},
		{"C1 and DEL", `{"title":"T","fields":[{"id":"a","text":"A\u009b2J?","type":"decision","options":["x\u007f","y"],
			"help_text":"h\u0085","option_notes":{"y":"n\u0007"}}]}`, []string{
			"fields[0].text: contains the control character U+009B (CSI) at character 2; " + remove,
			"fields[0].options[0]: contains the control character U+007F (DEL) at character 2; " + remove,
			"fields[0].help_text: contains the control character U+0085 (NEL) at character 2; " + remove,
			"fields[0].option_notes.y: contains the control character U+0007 (BEL) at character 2; " + remove,
		}},
		{"constructs", `{"title":"T","fields":[
			{"id":"d","text":"D?","type":"deliberation","options":["a","b"],"rationale":"r\u001b","endorsements":{"a":["v\u001b"]}},
			{"id":"p","text":"P","type":"progress","progress_items":[{"label":"l","status":"done","detail":"d\u001b"}]},
			{"id":"t","text":"T?","type":"triage","dispositions":["fix","skip\u001b"],"triage_items":[{"label":"row\u001b","tag":"g\u001b"}]},
			{"id":"r","text":"R?","type":"assumption_review","assumptions":[{"label":"a","source":"s\u001b"}]},
			{"id":"x","text":"X?","type":"text_input","default":"keep\u001b","inferred_from":"f\u001b"},
			{"id":"q","text":"Q?","type":"pushback","options":["u\u001b","w"],"user_position":"u\u001b","recommended":"w"}]}`, []string{
			"fields[0].rationale: contains the control character U+001B (ESC) at character 2; " + remove,
			"fields[0].endorsements.a[0]: contains the control character U+001B (ESC) at character 2; " + remove,
			"fields[1].progress_items[0].detail: contains the control character U+001B (ESC) at character 2; " + remove,
			"fields[2].dispositions[1]: contains the control character U+001B (ESC) at character 5; " + remove,
			"fields[2].triage_items[0].label: contains the control character U+001B (ESC) at character 4; " + remove,
			"fields[2].triage_items[0].tag: contains the control character U+001B (ESC) at character 2; " + remove,
			"fields[3].assumptions[0].source: contains the control character U+001B (ESC) at character 2; " + remove,
			"fields[4].inferred_from: contains the control character U+001B (ESC) at character 2; " + remove,
			"fields[4].default: contains the control character U+001B (ESC) at character 5; " + remove,
			"fields[5].options[0]: contains the control character U+001B (ESC) at character 2; " + remove,
			"fields[5].user_position: contains the control character U+001B (ESC) at character 2; " + remove,
		}},
		{"a bidirectional override hides what approving does", `{"title":"Deploy","fields":[{"id":"go","text":"Ship it?","type":"confirm",
			"consequences":[{"label":"Safe: \u202eBD dorp eht spord\u202c","severity":"low"}]}]}`, []string{
			"fields[0].consequences[0].label: contains the bidirectional control character U+202E (RIGHT-TO-LEFT OVERRIDE) at character 7 (and 1 more); " + bidi,
		}},
		{"every override and isolate, where control characters are refused", `{"title":"\u202aT","description":"\u202bD",
			"fields":[{"id":"a","text":"\u202dA?","type":"decision","options":["\u2066x","y"],"help_text":"\u2067h","option_notes":{"y":"\u2068n"}},
			{"id":"b","text":"B\u2069?","type":"boolean"}]}`, []string{
			"title: contains the bidirectional control character U+202A (LEFT-TO-RIGHT EMBEDDING) at character 1; " + bidi,
			"description: contains the bidirectional control character U+202B (RIGHT-TO-LEFT EMBEDDING) at character 1; " + bidi,
			"fields[0].text: contains the bidirectional control character U+202D (LEFT-TO-RIGHT OVERRIDE) at character 1; " + bidi,
			"fields[0].options[0]: contains the bidirectional control character U+2066 (LEFT-TO-RIGHT ISOLATE) at character 1; " + bidi,
			"fields[0].help_text: contains the bidirectional control character U+2067 (RIGHT-TO-LEFT ISOLATE) at character 1; " + bidi,
			"fields[0].option_notes.y: contains the bidirectional control character U+2068 (FIRST STRONG ISOLATE) at character 1; " + bidi,
			"fields[1].text: contains the bidirectional control character U+2069 (POP DIRECTIONAL ISOLATE) at character 2; " + bidi,
		}},
		{"right-to-left text and its marks are text", `{"title":"פריסה \u200fنشر\u200e","fields":[{"id":"a","text":"לשלוח?","type":"boolean","help_text":"مرحبا"}]}`, []string{}},
		{"tabs and newlines are text", "{\"title\":\"Two\\nlines\\tand a tab\",\"fields\":[{\"id\":\"a\",\"text\":\"A?\",\"type\":\"textarea\",\"default\":\"x\\ny\"}]}", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.form))
			probs, _ := err.(problem.List)
			if err != nil && probs == nil {
				t.Fatalf("err = %v", err)
			}
			if diff := cmp.Diff(tt.want, probs.Strings()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestControlCharactersInSlots: a template's slot value is checked where
// it lands.
func TestControlCharactersInSlots(t *testing.T) {
	var ts Templates // the embedded templates only
	_, err := ts.Cast("session-contract", map[string]string{"project": "demo\x1b[2J"})
	if err == nil || !strings.Contains(err.Error(), "U+001B (ESC)") {
		t.Errorf("err = %v, want the control character named", err)
	}
}
