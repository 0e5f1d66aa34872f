package method_test

import (
	"fmt"

	"github.com/elicit/elicit/method"
)

func ExampleRegistry_Select() {
	sel, err := method.Default().Select(method.Query{Phase: "forge:3", Title: "Architecture Design"})
	if err != nil {
		panic(err)
	}
	fmt.Println(sel.Status, sel.Keywords)
	for _, c := range sel.Methods {
		fmt.Printf("%.2f %d %s\n", c.Score, c.Method.Num, c.Method.Name)
	}
	// Output:
	// OK [architecture design]
	// 0.40 11 Tree of Thoughts
	// 0.40 20 Architecture Decision Records
}

func ExampleInject() {
	m, _ := method.Default().Lookup("Pre-mortem Analysis")
	block, _ := method.Inject(m)
	fmt.Print(block)
	// Output:
	// ### Structured Reasoning: Pre-mortem Analysis
	//
	// For this section, apply Pre-mortem Analysis:
	//
	// 1. Declare the failure scenario
	// 2. Brainstorm 3-5 failure causes
	// 3. Design prevention measures
}

func ExampleExpand() {
	steps, _ := method.Expand("symptom -> pros/cons → next move")
	fmt.Printf("%q\n", steps)
	// Output:
	// ["Describe the symptom" "Pros/cons" "Next move"]
}

func ExampleKeywords() {
	fmt.Println(method.Keywords("The trade-offs of a multi-region rollout, and what-if plans"))
	// Output:
	// [trade-offs multi-region rollout what-if plans]
}

func ExampleParse() {
	r := method.Parse([]byte(method.Header + "\n" +
		`9,risk,Bad <b>Name</b>,d,a->b,1,"plan:0","","x",true,` + "\n" +
		`10,risk,Fine,d,a->b,3,"plan:0","","x",true,` + "\n"))
	for _, w := range r.WarningTexts() {
		fmt.Println(w)
	}
	// Output:
	// Invalid method_name 'Bad <b>Name</b>' — contains disallowed characters, skipping row
	// Invalid tier '3' for method Fine — skipping row
	// ⚠️ Elicitation registry unavailable — proceeding without method injection.
}
