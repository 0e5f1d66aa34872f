package term_test

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/term"
)

// A program asks a form with its own input and output: NewSession reads
// keys as a terminal sends them (here 2, Enter: the second option), and
// term.Open does the same on a real terminal.
func ExampleAsk() {
	f, err := form.Parse([]byte(`{"title": "Scope", "fields": [
		{"id": "goal", "text": "What is the goal?", "type": "single_select", "options": ["Fix a bug", "Refactor"]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	s := term.NewSession(strings.NewReader("2\r"), io.Discard, 80)
	defer s.Close()
	answers, err := term.Ask(f, s)
	if errors.Is(err, term.ErrCancelled) {
		fmt.Println("no answer")
		return
	}
	fmt.Println(answers, err)
	// Output: map[goal:Refactor] <nil>
}
