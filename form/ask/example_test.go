package ask_test

import (
	"fmt"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
)

func ExampleRender() {
	f, err := form.Parse([]byte(`{"title": "Scope", "fields": [
		{"id": "goal", "text": "What are you trying to accomplish?", "type": "single_select",
		 "options": ["Fix a bug", "Refactor"], "default": "Refactor"},
		{"id": "due", "text": "When is it due?", "type": "date"}]}`))
	if err != nil {
		panic(err)
	}
	r := ask.Render(f)
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
	// due -> markdown: AskUserQuestion has no date control
}

func ExampleAnswers() {
	f, _ := form.Parse([]byte(`{"title": "Scope", "fields": [
		{"id": "focus", "text": "Which areas matter?", "type": "multi_select", "options": ["security", "tests", "docs"]}]}`))
	// AskUserQuestion answers by question text, joining multi-select labels with commas.
	answers, _ := ask.Answers(f, map[string]any{"Which areas matter?": "security, docs"})
	fmt.Println(answers["focus"])
	// Output: [security docs]
}
