package surfaces_test

import (
	"fmt"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/surfaces"
)

// ExampleCollect reads what came back from any surface: here the sentence
// Claude Code shows the model after AskUserQuestion, which ParseAnswers
// (JSON only) refuses, and a person's markdown reply.
func ExampleCollect() {
	f, err := form.Parse([]byte(`{"title": "Scope this work", "fields": [
		{"id": "goal", "text": "What are you trying to accomplish?", "type": "single_select",
		 "options": ["Fix a bug", "Add a feature", "Refactor", "Investigate"]},
		{"id": "focus", "text": "Which areas matter here?", "type": "multi_select",
		 "options": ["correctness", "security", "performance", "tests"]}]}`))
	if err != nil {
		panic(err)
	}
	sentence := `Your questions have been answered: "What are you trying to accomplish?"="Refactor", "Which areas matter here?"="tests"`
	for _, reply := range []string{sentence, "goal: 3\nfocus: 2, 4\n"} {
		doc := surfaces.Document{Name: "reply", Format: surfaces.FormatAuto, Data: []byte(reply)}
		r, err := surfaces.Collect(f, []surfaces.Document{doc}, nil)
		if err != nil {
			panic(err)
		}
		fmt.Println(r.Responses["goal"], r.Responses["focus"])
	}
	_, err = surfaces.ParseAnswers(f, []byte(sentence))
	fmt.Println(err != nil)
	// Output:
	// Refactor [tests]
	// Refactor [security tests]
	// true
}
