package widget_test

import (
	"fmt"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/widget"
)

// The widget of a form, and the answers its postback carries read back for
// collect.
func Example() {
	f, err := form.Parse([]byte(`{"title": "Scope this work", "fields": [
		{"id": "goal", "text": "What are you trying to accomplish?", "type": "single_select",
		 "options": ["Fix a bug", "Refactor"]}]}`))
	if err != nil {
		panic(err)
	}
	w := widget.Render(f, nil)
	fmt.Println(w.Title, w.FieldIDs, len(w.HTML) > 0)

	// The chat message the widget sends through sendPrompt.
	msg := `Elicitation form submitted — parse and validate this response:
` + "```json" + `
{"__elicitation_response__":true,"form_id":"` + widget.FormID(f) + `","title":"Scope this work","answers":{"goal":"Refactor"}}
` + "```"
	block, _ := widget.Extract([]byte(msg))
	doc, _ := form.DecodeJSON(block, "answers", false)
	answers, err := widget.ReadPostback(f, doc.Value.(map[string]any))
	if err != nil {
		panic(err)
	}
	r, err := form.Collect(f, answers, nil)
	fmt.Println(r.Responses, err)
	// Output:
	// Scope this work [goal] true
	// map[goal:Refactor] <nil>
}
