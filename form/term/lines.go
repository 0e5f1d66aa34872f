package term

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/visible"
)

// AskLines asks f line by line, for a screen reader, a dumb terminal or a
// pipe: each question is written to w with its options numbered, and one
// answer is read per line from r, as form.Field.Typed reads it (an option's
// number or name, several separated by commas, yes or no, a date, text).
// An empty line keeps the default or skips an optional question; a
// textarea's answer continues on the next line after a trailing backslash.
// A bad answer is re-asked with collect's message. When every field is a
// guess, one "Use these guesses?" comes first. At the end of r before every
// question is answered it returns io.EOF.
func AskLines(f *form.Form, r io.Reader, w io.Writer) (map[string]any, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	w = visible.NewWriter(w) // a control character never reaches the terminal raw
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 64*1024), form.MaxInput)
	in.Split(linesWithoutBOM())
	fmt.Fprintln(w, f.Title)
	if f.Description != "" {
		fmt.Fprintln(w, f.Description)
	}
	answers := map[string]any{}
	if f.AllGuessed() {
		done, err := confirmGuesses(f, in, w, answers)
		if err != nil || done {
			return answers, err
		}
	}
	asked, total := 0, askable(f)
	for i := range f.Fields {
		fl := &f.Fields[i]
		fmt.Fprintln(w)
		if fl.DisplayOnly() {
			fmt.Fprintln(w, fl.Text)
			for _, l := range details(fl) {
				fmt.Fprintln(w, "  "+l)
			}
			continue
		}
		if fl.Type.Expands() {
			if err := askPartsLines(f, fl, in, w, answers, &asked, total); err != nil {
				return nil, err
			}
			continue
		}
		asked++
		prompt(w, fl, asked, total)
		for {
			fmt.Fprint(w, "> ")
			text, ok := readAnswer(in, fl)
			if !ok {
				fmt.Fprintln(w)
				return nil, eof(in, named(fl))
			}
			v, msg := read(f, fl, text)
			if msg == "" {
				if v == nil {
					v = fl.Default // an empty line keeps it
				}
				if v != nil {
					answers[fl.ID] = v
				}
				break
			}
			fmt.Fprintln(w, "  ✘ "+msg)
		}
	}
	return answers, nil
}

func askable(f *form.Form) int {
	n := 0
	for i := range f.Fields {
		if !f.Fields[i].DisplayOnly() {
			n += partCount(&f.Fields[i])
		}
	}
	return n
}

// eof is why no answer to question could be read: the end of the input
// (io.EOF), a line over the cap, or the reader's error.
func eof(in *bufio.Scanner, question string) error {
	switch err := in.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return fmt.Errorf("the answer to %s is a line of more than %d bytes (1 MiB), the cap for one line of input: shorten it, or give a long text in a file (form collect)", question, form.MaxInput)
	case err != nil:
		return fmt.Errorf("read the answer to %s: %w", question, err)
	}
	return io.EOF
}

// named names a field's question in an error: its id and text.
func named(fl *form.Field) string {
	return fmt.Sprintf("%s (%q)", fl.ID, fl.Text)
}

// confirmGuesses asks "Use these guesses?"; done says the form is answered.
func confirmGuesses(f *form.Form, in *bufio.Scanner, w io.Writer, answers map[string]any) (bool, error) {
	fmt.Fprintln(w)
	for _, g := range guesses(f) {
		fmt.Fprintln(w, "  "+g)
	}
	for {
		fmt.Fprint(w, "Use these guesses? [Y/n] ")
		if !in.Scan() {
			fmt.Fprintln(w)
			return false, eof(in, `"Use these guesses?"`)
		}
		switch strings.ToLower(strings.TrimSpace(in.Text())) {
		case "", "y", "yes":
			for i := range f.Fields {
				if fl := &f.Fields[i]; fl.Default != nil {
					answers[fl.ID] = fl.Default
				}
			}
			return true, nil
		case "n", "no":
			return false, nil
		}
		fmt.Fprintln(w, "  ✘ answer yes or no")
	}
}

// prompt writes one question: number, text, what it takes, its details
// and options, and what an empty line does.
func prompt(w io.Writer, fl *form.Field, n, total int) {
	fmt.Fprintf(w, "[%d/%d] %s (%s)\n", n, total, fl.Text, kind(fl))
	for _, l := range details(fl) {
		fmt.Fprintln(w, "  "+l)
	}
	if fl.Type != form.Boolean {
		choices := fl.Choices()
		numbers := form.NumberLabels(choices)
		for i, o := range choices {
			line := fmt.Sprintf("  %d. %s", i+1, o)
			if numbers {
				line = "  - " + o // answered by the numbers themselves
			}
			if b := badges(fl, o); len(b) > 0 {
				line += " (" + strings.Join(b, ", ") + ")"
			}
			if n := note(fl, o); n != "" {
				line += " — " + n
			}
			fmt.Fprintln(w, line)
		}
	}
	switch {
	case fl.Type == form.MultiSelect:
		fmt.Fprintln(w, "  Several: numbers or names separated by commas.")
	case fl.Type == form.Textarea:
		fmt.Fprintln(w, `  End a line with \ to go on to the next.`)
	}
	switch {
	case fl.Default != nil:
		fmt.Fprintln(w, "  Enter keeps: "+form.FormatValue(fl.Default))
	case !fl.Required:
		fmt.Fprintln(w, "  Enter skips it.")
	}
}

// readAnswer reads one answer: a line, or for a textarea the lines joined
// while each ends with a backslash.
func readAnswer(in *bufio.Scanner, fl *form.Field) (string, bool) {
	if !in.Scan() {
		return "", false
	}
	line := strings.TrimRight(in.Text(), "\r")
	if fl.Type != form.Textarea {
		return line, true
	}
	var lines []string
	for strings.HasSuffix(line, `\`) {
		lines = append(lines, strings.TrimSuffix(line, `\`))
		if !in.Scan() {
			if in.Err() != nil {
				return "", false // a line over the cap: no answer at all
			}
			return strings.Join(lines, "\n"), true
		}
		line = strings.TrimRight(in.Text(), "\r")
	}
	return strings.Join(append(lines, line), "\n"), true
}

// linesWithoutBOM splits lines as bufio.ScanLines does, dropping a byte
// order mark at the start of the first.
func linesWithoutBOM() bufio.SplitFunc {
	first := true
	return func(data []byte, atEOF bool) (int, []byte, error) {
		advance, token, err := bufio.ScanLines(data, atEOF)
		if first && token != nil {
			first = false
			token = form.TrimBOM(token)
		}
		return advance, token, err
	}
}
