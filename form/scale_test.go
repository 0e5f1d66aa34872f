package form

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/benchcpu"
	"github.com/elicit/elicit/problem"
)

// Adversarial inputs at the 1 MiB cap: each repeats one shape that a
// quadratic check would compare with every earlier one, or that a message
// per problem would quote at length. They back the linearity tests and the
// 1 MiB benchmarks.

// shape is a document of lists that grow together: parts[0], list 0,
// parts[1], list 1, ..., parts[len(items)]; list k holds items[k](0),
// items[k](1), ... separated by commas.
type shape struct {
	name  string
	parts []string
	items []func(i int) string
}

// fit builds the shape with as many items as fit in size bytes.
func (s shape) fit(size int) []byte {
	lists := make([]strings.Builder, len(s.items))
	total := 0
	for _, p := range s.parts {
		total += len(p)
	}
	for i := 0; ; i++ {
		add := make([]string, len(s.items))
		grow := 0
		for k, item := range s.items {
			add[k] = item(i)
			if i > 0 {
				add[k] = "," + add[k]
			}
			grow += len(add[k])
		}
		if total+grow > size {
			break
		}
		total += grow
		for k := range lists {
			lists[k].WriteString(add[k])
		}
	}
	var b strings.Builder
	b.Grow(total)
	for k, p := range s.parts {
		b.WriteString(p)
		if k < len(lists) {
			b.WriteString(lists[k].String())
		}
	}
	return []byte(b.String())
}

func numbered(format string) func(int) string {
	return func(i int) string { return fmt.Sprintf(format, i) }
}

// numberedList joins format's first n numbered copies with commas.
func numberedList(n int, format string) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(format, i)
	}
	return strings.Join(items, ",")
}

func same(s string) func(int) string { return func(int) string { return s } }

var scaleForms = []shape{
	{"distinct fields", []string{`{"title":"t","fields":[`, `]}`},
		[]func(int) string{numbered(`{"id":"f%d","text":"Question %[1]d?","type":"boolean"}`)}},
	{"one id and text repeated", []string{`{"title":"t","fields":[`, `]}`},
		[]func(int) string{same(`{"id":"a","text":"q","type":"boolean"}`)}},
	{"fields missing options", []string{`{"title":"t","fields":[`, `]}`},
		[]func(int) string{numbered(`{"id":"f%d","text":"q%[1]d","type":"single_select"}`)}},
	{"many options", []string{`{"title":"t","fields":[{"id":"a","text":"q","type":"single_select","options":[`, `]}]}`},
		[]func(int) string{numbered(`"o%d"`)}},
	{"report items and options", []string{
		`{"title":"t","fields":[{"id":"a","text":"q","type":"progress","progress_style":"report","options":[`,
		`],"progress_items":[`, `]}]}`},
		[]func(int) string{numbered(`"o%d"`), numbered(`{"label":"o%d","status":"x"}`)}},
	{"blocked items not options", []string{
		`{"title":"t","fields":[{"id":"a","text":"q","type":"progress","options":[`, `],"progress_items":[`, `]}]}`},
		[]func(int) string{numbered(`"o%d"`), numbered(`{"label":"p%d","status":"blocked"}`)}},
	{"option notes not options", []string{
		`{"title":"t","fields":[{"id":"a","text":"q","type":"decision","options":[`, `],"option_notes":{`, `}}]}`},
		[]func(int) string{numbered(`"o%d"`), numbered(`"n%d":"x"`)}},
	{"unknown keys", []string{`{"title":"t","fields":[{"id":"a","text":"q","type":"boolean",`, `}]}`},
		[]func(int) string{numbered(`"k%d":1`)}},
	{"multi-select default not options", []string{
		`{"title":"t","fields":[{"id":"a","text":"q","type":"multi_select","options":[`, `],"default":[`, `]}]}`},
		[]func(int) string{numbered(`"o%d"`), numbered(`"d%d"`)}},
	{"ranking order not options", []string{
		`{"title":"t","fields":[{"id":"a","text":"q","type":"ranking","options":[`, `],"suggested":[`, `]}]}`},
		[]func(int) string{numbered(`"o%d"`), numbered(`"s%d"`)}},
	{"triage suggestions not rows", []string{
		`{"title":"t","fields":[{"id":"a","text":"q","type":"triage","dispositions":["fix","defer"],"triage_items":[`,
		`],"suggested":{`, `}}]}`},
		[]func(int) string{numbered(`{"label":"r%d"}`), numbered(`"s%d":"fix"`)}},
	{"endorsements not options", []string{
		`{"title":"t","fields":[{"id":"a","text":"q","type":"deliberation","options":[`, `],"endorsements":{`, `}}]}`},
		[]func(int) string{numbered(`"o%d"`), numbered(`"e%d":["v"]`)}},
	{"one voice repeated", []string{
		`{"title":"t","fields":[{"id":"a","text":"q","type":"deliberation","options":["o"],"endorsements":{"o":[`, `]}}]}`},
		[]func(int) string{same(`"v"`)}},
	{"fields inside rankings", []string{`{"title":"t","fields":[`, `,`, `]}`},
		[]func(int) string{numbered(`{"id":"r%d","text":"q%[1]d","type":"ranking","options":["a","b"]}`),
			numbered(`{"id":"r%d.1","text":"p%[1]d","type":"boolean"}`)}},
	{"long unknown key", []string{`{"title":"t","fields":[{"id":"a","text":"q","type":"boolean","`, `":1}]}`},
		[]func(int) string{same("k")}},
}

// scaleAnswers are adversarial answers, each to a form of the given shape.
var scaleAnswers = []struct {
	shape
	form shape
}{
	{shape{"unknown keys", []string{`{`, `}`}, []func(int) string{numbered(`"x%d":"Yes"`)}}, scaleForms[0]},
	{shape{"duplicate keys", []string{`{`, `}`}, []func(int) string{numbered(`"f%d":"Yes","f%[1]d":"No"`)}}, scaleForms[0]},
	{shape{"multi-select items not options", []string{`{"a":[`, `]}`}, []func(int) string{numbered(`"x%d"`)}},
		// scaleForms[3] as a multi-select.
		shape{"", []string{strings.Replace(scaleForms[3].parts[0], "single_select", "multi_select", 1), scaleForms[3].parts[1]}, scaleForms[3].items}},
	{shape{"ranking answer not options", []string{`{"a":[`, `]}`}, []func(int) string{numbered(`"x%d"`)}},
		shape{"", []string{`{"title":"t","fields":[{"id":"a","text":"q","type":"ranking","options":[`, `]}]}`}, scaleForms[3].items}},
	{shape{"rulings not rows", []string{`{"a":{`, `}}`}, []func(int) string{numbered(`"x%d":"fix"`)}},
		shape{"", []string{`{"title":"t","fields":[{"id":"a","text":"q","type":"triage","dispositions":["fix","defer"],"triage_items":[`, `]}]}`},
			[]func(int) string{numbered(`{"label":"r%d"}`)}}},
	{shape{"dotted ranking slots", []string{`{`, `}`}, []func(int) string{numbered(`"a.%d":"o0"`)}},
		shape{"", []string{`{"title":"t","fields":[{"id":"a","text":"q","type":"ranking","options":[`, `]}]}`}, scaleForms[3].items}},
}

// collectDoc is what collect does with an answers document keyed by id.
func collectDoc(f *Form, data []byte) error {
	doc, err := DecodeJSON(data, "answers", false)
	if err != nil {
		return err
	}
	if probs := doc.Problems("answers"); len(probs) > 0 {
		return probs
	}
	_, err = Collect(f, doc.Value.(map[string]any), nil)
	return err
}

// TestScaleInputsFit keeps the generators honest: each fills its 1 MiB.
func TestScaleInputsFit(t *testing.T) {
	for _, s := range scaleForms {
		if got := len(s.fit(MaxInput)); got > MaxInput || got < MaxInput-100 {
			t.Errorf("%s: %d bytes", s.name, got)
		}
	}
}

// TestProblemsCapped: a check lists at most MaxProblems problems, then
// how many more there were; counting goes on, quoting stops.
func TestProblemsCapped(t *testing.T) {
	f := `{"title": "T", "fields": [` + numberedList(maxProblems+500, `{"id": "f%d", "text": "Q%[1]d?"}`) + `]}`
	_, err := Parse([]byte(f))
	probs, _ := err.(problem.List)
	if len(probs) != maxProblems+1 {
		t.Fatalf("%d problems, want %d", len(probs), maxProblems+1)
	}
	if got, want := probs[maxProblems-1].String(), fmt.Sprintf("fields[%d].type: missing (every field needs id, text and type)", maxProblems-1); got != want {
		t.Errorf("last listed problem = %q, want %q", got, want)
	}
	if got, want := probs[maxProblems].String(), "… and 500 more problems (fix the ones above and check again)"; got != want {
		t.Errorf("last problem = %q, want %q", got, want)
	}

	g := mustParse(t, []byte(`{"title": "T", "fields": [{"id": "a", "text": "A?", "type": "boolean"}]}`))
	answers := map[string]any{}
	for i := range maxProblems + 2 {
		answers[fmt.Sprintf("x%d", i)] = "Yes"
	}
	_, err = Collect(g, answers, nil) // 1,002 unknown keys, "a" unanswered
	probs, _ = err.(problem.List)
	if len(probs) != maxProblems+1 || probs[maxProblems].Message != "… and 3 more problems (fix the ones above and check again)" {
		t.Errorf("collect: %d problems, the last %q", len(probs), probs[len(probs)-1])
	}
}

// allocated is how many bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestScaleMemory checks the memory half of the 1 MiB target: each
// adversarial form, and each adversarial answers document, is checked
// within 64 MiB of allocations, and its report stays a fraction of that.
// (Comparing every field with every other once took 4.4 GB for 149 KB.)
func TestScaleMemory(t *testing.T) {
	const limit = 64 << 20
	check := func(t *testing.T, run func() error) {
		var err error
		if got := allocated(func() { err = run() }); got > limit {
			t.Errorf("allocated %d MiB, over 64 MiB", got>>20)
		}
		if err != nil && len(err.Error()) > 2*MaxInput {
			t.Errorf("the report is %d bytes, more than twice the input's cap", len(err.Error()))
		}
	}
	for _, s := range scaleForms {
		t.Run("form/"+s.name, func(t *testing.T) {
			data := s.fit(MaxInput)
			check(t, func() error { _, err := Parse(data); return err })
		})
	}
	for _, s := range scaleAnswers {
		t.Run("answers/"+s.name, func(t *testing.T) {
			f, err := Parse(s.form.fit(MaxInput))
			if err != nil {
				t.Fatal(err)
			}
			data := s.fit(MaxInput)
			check(t, func() error { return collectDoc(f, data) })
		})
	}
}

// BenchmarkParse1MiB parses each adversarial form at the 1 MiB cap (target:
// at most 100 ms and 64 MiB each).
func BenchmarkParse1MiB(b *testing.B) {
	for _, s := range scaleForms {
		data := s.fit(MaxInput)
		b.Run(benchName(s.name), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			defer benchcpu.Start(b)()
			for b.Loop() {
				Parse(data)
			}
		})
	}
}

// BenchmarkCollect1MiB decodes and collects each adversarial answers
// document at the 1 MiB cap, against a 1 MiB form.
func BenchmarkCollect1MiB(b *testing.B) {
	for _, s := range scaleAnswers {
		f, err := Parse(s.form.fit(MaxInput))
		if err != nil {
			b.Fatal(err)
		}
		data := s.fit(MaxInput)
		b.Run(benchName(s.name), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			defer benchcpu.Start(b)()
			for b.Loop() {
				collectDoc(f, data)
			}
		})
	}
}

func benchName(s string) string { return strings.ReplaceAll(s, " ", "_") }
