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

func ExampleRenderAsk() {
	f, err := form.Parse([]byte(`{"title": "Scope", "fields": [
		{"id": "goal", "text": "What are you trying to accomplish?", "type": "single_select",
		 "options": ["Fix a bug", "Refactor"], "default": "Refactor"},
		{"id": "due", "text": "When is it due?", "type": "date"}]}`))
	if err != nil {
		panic(err)
	}
	r := form.RenderAsk(f)
	q := r.AskUserQuestion[0].Questions[0]
	fmt.Println(q.Header, "|", q.Question)
	for _, o := range q.Options {
		fmt.Println("-", o.Label)
	}
	fmt.Println(r.Unsupported[0].QuestionID, "->", r.Unsupported[0].Surface+":", r.Unsupported[0].Reason)
	// Output:
	// Goal | What are you trying to accomplish?
	// - Refactor (Recommended)
	// - Fix a bug
	// due -> widget: AskUserQuestion has no date control
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

func ExampleFromAskUserQuestion() {
	f, _ := form.Parse([]byte(`{"title": "Scope", "fields": [
		{"id": "focus", "text": "Which areas matter?", "type": "multi_select", "options": ["security", "tests", "docs"]}]}`))
	// AskUserQuestion answers by question text, joining multi-select labels with commas.
	answers, _ := form.FromAskUserQuestion(f, map[string]any{"Which areas matter?": "security, docs"})
	fmt.Println(answers["focus"])
	// Output: [security docs]
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
