package form_test

import (
	"fmt"

	"github.com/elicit/elicit/form"
)

func ExampleParse() {
	_, err := form.Parse([]byte(`{"title": "Scope", "fields": [
		{"id": "goal", "text": "Goal?", "type": "single_select", "options": ["a", "a"], "required": "false"},
		{"id": "due", "text": "Due?", "type": "date", "maximun": 3}]}`))
	fmt.Println(err)
	// Output:
	// 3 problems:
	// fields[0].options[1]: duplicate option "a" (same as fields[0].options[0])
	// fields[0].required: must be true or false (got string "false")
	// fields[1].maximun: unknown key (did you mean 'maximum'?)
}

func ExampleCollect() {
	f, err := form.Parse([]byte(`{"title": "Scope", "fields": [
		{"id": "focus", "text": "Which areas?", "type": "multi_select", "options": ["security", "tests"]},
		{"id": "budget", "text": "Hours?", "type": "number", "maximum": 8}]}`))
	if err != nil {
		panic(err)
	}
	_, err = form.Collect(f, map[string]any{"focus": []any{"tests", "tests"}, "budget": 9.0}, nil)
	fmt.Println(err)
	r, _ := form.Collect(f, map[string]any{"focus": []any{"tests"}, "budget": 2.0}, nil)
	fmt.Println(r.Success, r.Responses["focus"], r.Responses["budget"])
	// Output:
	// 2 problems:
	// answers.focus: "tests" chosen more than once
	// answers.budget: 9 is above the maximum 8
	// true [tests] 2
}

func ExampleTemplates_Cast() {
	var ts form.Templates // the embedded templates only
	f, err := ts.Cast("session-contract", map[string]string{"project": "elicit"})
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Title)
	fmt.Println(form.SelectSurface(f, &form.SurfaceOptions{KeyboardMode: true}).Surface)
	// Output:
	// Session contract: elicit
	// widget
}

func ExampleForm_Validate() {
	f := &form.Form{Title: "Scope", Fields: []form.Field{
		{ID: "n", Text: "Hours?", Type: form.Number, Default: "abc"},
		{ID: "n", Text: "Area?", Type: "bogus"}}}
	fmt.Println(f.Validate())
	_, err := form.Collect(f, map[string]any{"n": 2.0}, nil)
	fmt.Println(err != nil)
	// Output:
	// 3 problems:
	// fields[0].default: must be a number (got string "abc")
	// fields[1].type: unknown type "bogus" (one of: single_select, multi_select, boolean, text_input, number, date, textarea, decision, pushback, progress, deliberation, triage, confirm, ranking, assumption_review)
	// fields[1].id: duplicate id "n" (same as fields[0])
	// true
}
