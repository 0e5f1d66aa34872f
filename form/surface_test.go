package form

import (
	"slices"
	"strings"
	"testing"
)

func TestSelectSurface(t *testing.T) {
	forms := testForms(t)
	long := field(`{"id": "s", "text": "S?", "type": "single_select", "options": ["a", "` + strings.Repeat("x", 121) + `"]}`)
	tests := []struct {
		name   string
		form   string
		opts   *SurfaceOptions
		want   Surface
		reason string
	}{
		{"no widgets beats everything", string(forms["six"]), &SurfaceOptions{NoWidgets: true}, SurfaceAsk,
			"the client cannot render widgets; AskUserQuestion has no control for budget (number), ship_date (date), notes (textarea): ask them on a surface under rest (native elicitation, a terminal, or as free text)"},
		{"no widgets, Claude Code", string(forms["scope"]), &SurfaceOptions{NoWidgets: true, QuestionTool: SurfaceAsk}, SurfaceAsk,
			"the client cannot render widgets"},
		{"no widgets, Codex", string(forms["scope"]), &SurfaceOptions{NoWidgets: true, QuestionTool: SurfaceCodex}, SurfaceCodex,
			"the client cannot render widgets: Codex asks with request_user_input (Plan mode; where that tool is missing, as in codex exec, ask with the markdown surface)"},
		{"no widgets, Codex, rich fields", string(forms["six"]), &SurfaceOptions{NoWidgets: true, QuestionTool: SurfaceCodex, KeyboardMode: true}, SurfaceCodex,
			"the client cannot render widgets: Codex asks with request_user_input (Plan mode; where that tool is missing, as in codex exec, ask with the markdown surface); request_user_input has no control for budget (number), ship_date (date), notes (textarea): the render result's markdown_followup asks them"},
		{"a question tool does not matter with widgets", string(forms["scope"]), &SurfaceOptions{QuestionTool: SurfaceCodex}, SurfaceWidget,
			"the widget shows the whole option space at once (the default surface)"},
		{"rich field beats keyboard mode", string(forms["six"]), &SurfaceOptions{KeyboardMode: true}, SurfaceWidget,
			"AskUserQuestion has no control for budget (number), ship_date (date), notes (textarea), so the widget asks it (this outranks keyboard mode)"},
		{"keyboard mode", string(forms["scope"]), &SurfaceOptions{KeyboardMode: true}, SurfaceAsk, "keyboard mode is on"},
		{"keyboard mode from a func", string(forms["scope"]), &SurfaceOptions{KeyboardModeFunc: func() bool { return true }}, SurfaceAsk, "keyboard mode is on"},
		{"keyboard mode func off", string(forms["scope"]), &SurfaceOptions{KeyboardModeFunc: func() bool { return false }}, SurfaceWidget,
			"the widget shows the whole option space at once (the default surface)"},
		{"keyboard mode func not asked when a rich field decides", string(forms["six"]),
			&SurfaceOptions{KeyboardModeFunc: func() bool { panic("keyboard mode read") }}, SurfaceWidget,
			"AskUserQuestion has no control for budget (number), ship_date (date), notes (textarea), so the widget asks it (this outranks keyboard mode)"},
		{"trivial single select", field(`{"id": "s", "text": "S?", "type": "single_select", "options": ["a", "b", "c"]}`), nil, SurfaceAsk,
			"trivial form: one single_select with 3 options"},
		{"trivial boolean", field(`{"id": "b", "text": "B?", "type": "boolean"}`), nil, SurfaceAsk, "trivial form: one boolean with 2 options"},
		{"four options is not trivial", field(`{"id": "s", "text": "S?", "type": "single_select", "options": ["a", "b", "c", "d"]}`), nil, SurfaceWidget,
			"the widget shows the whole option space at once (the default surface)"},
		{"a long label is not trivial", long, nil, SurfaceWidget, "the widget shows the whole option space at once (the default surface)"},
		{"a decision is not trivial", string(forms["decision"]), nil, SurfaceWidget, "the widget shows the whole option space at once (the default surface)"},
		{"two fields are not trivial", string(forms["scope"]), nil, SurfaceWidget, "the widget shows the whole option space at once (the default surface)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SelectSurface(mustParse(t, []byte(tt.form)), tt.opts)
			if got.Surface != tt.want || got.Reason != tt.reason || got.How != "" {
				t.Errorf("SelectSurface = %+v, want %s %q", got, tt.want, tt.reason)
			}
			if strings.Contains(got.Reason, "elicit ") || strings.Contains(got.Reason, "elicitation_") { // a command or a tool: the doors' words
				t.Errorf("reason %q speaks a door's words", got.Reason)
			}
			for _, r := range got.Rest {
				if r.How != "" {
					t.Errorf("rest %+v: the domain says how to reach a surface", r)
				}
			}
		})
	}
}

// TestSelectSurfaceNamesTheRest: a client without widgets that is asked a
// number, date or textarea gets AskUserQuestion and, under Rest, the
// surfaces that ask those fields; a form AskUserQuestion covers has none.
func TestSelectSurfaceNamesTheRest(t *testing.T) {
	forms := testForms(t)
	got := SelectSurface(mustParse(t, forms["six"]), &SurfaceOptions{NoWidgets: true})
	var rest []Surface
	for _, r := range got.Rest {
		rest = append(rest, r.Surface)
	}
	if want := []Surface{SurfaceNative, SurfaceTerminal, SurfaceMarkdown}; !slices.Equal(rest, want) {
		t.Errorf("rest = %v, want %v", rest, want)
	}
	if got := SelectSurface(mustParse(t, forms["scope"]), &SurfaceOptions{NoWidgets: true}); got.Rest != nil {
		t.Errorf("rest for a form AskUserQuestion covers: %+v", got.Rest)
	}
}
