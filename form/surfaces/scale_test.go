package surfaces

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/benchcpu"
)

// numbered joins format's numbered copies, from 0, with sep while they fit
// in size bytes.
func numbered(format, sep string, size int) string {
	var b strings.Builder
	for i := 0; ; i++ {
		item := fmt.Sprintf(format, i)
		if i > 0 {
			item = sep + item
		}
		if b.Len()+len(item) > size {
			return b.String()
		}
		b.WriteString(item)
	}
}

// manyOptions is a multi-select form of nearly 1 MiB of options.
func manyOptions(t testing.TB) *form.Form {
	f, err := form.Parse([]byte(`{"title":"t","fields":[{"id":"a","text":"q","type":"multi_select","options":[` +
		numbered(`"o%d"`, ",", form.MaxInput-100) + `]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// scaleAnswers are answers documents of nearly 1 MiB for manyOptions: the
// AskUserQuestion tool's comma-joined labels (once matched against every
// option, label by label), and duplicate keys whose values collect also
// rejects (once checked against every reported problem).
var scaleAnswers = []struct{ name, doc string }{
	{"AskUserQuestion labels", `{"answers":{"q":"` + numbered("o%d", ", ", form.MaxInput-100) + `"}}`},
	{"duplicate keys, bad values", `{` + numbered(`"a":["x%d"]`, ",", form.MaxInput-100) + `}`},
}

// TestParseAnswersMemory: each answers document is read within 64 MiB.
func TestParseAnswersMemory(t *testing.T) {
	f := manyOptions(t)
	for _, s := range scaleAnswers {
		t.Run(s.name, func(t *testing.T) {
			data := []byte(s.doc)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			ParseAnswers(f, data)
			runtime.ReadMemStats(&after)
			if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
				t.Errorf("allocated %d MiB, over 64 MiB", got>>20)
			}
		})
	}
}

// TestAskLabelsMapped: every label of a long AskUserQuestion answer comes
// back as its option, in option order, and the labels that are no option
// after them as free text.
func TestAskLabelsMapped(t *testing.T) {
	f := manyOptions(t)
	opts := f.Fields[0].Options
	labels := strings.Split(scaleAnswers[0].doc[len(`{"answers":{"q":"`):len(scaleAnswers[0].doc)-3], ", ")
	got, err := askAnswers(f, labels)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(labels) || got[0] != "o0" || got[len(opts)-1] != opts[len(opts)-1] || got[len(opts)] != labels[len(opts)] {
		t.Errorf("%d of %d labels back", len(got), len(labels))
	}
}

func askAnswers(f *form.Form, labels []string) ([]string, error) {
	answers, err := ParseAnswers(f, []byte(`{"answers":{"q":"`+strings.Join(labels, ", ")+`"}}`))
	if err != nil {
		return nil, err
	}
	return answers["a"].([]string), nil
}

// BenchmarkParseAnswers1MiB reads each answers document against a 1 MiB
// form (target: at most 100 ms).
func BenchmarkParseAnswers1MiB(b *testing.B) {
	f := manyOptions(b)
	for _, s := range scaleAnswers {
		data := []byte(s.doc)
		b.Run(strings.ReplaceAll(s.name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			defer benchcpu.Start(b)()
			for b.Loop() {
				ParseAnswers(f, data)
			}
		})
	}
}

// manyFields is a form of nearly 1 MiB of yes/no questions, with a
// markdown reply answering every one wrongly and a re-ask reply answering
// every one again.
func manyFields(t testing.TB) (f *form.Form, wrong, again []byte) {
	f, err := form.Parse([]byte(`{"title":"t","fields":[` +
		numbered(`{"id":"f%d","text":"q","type":"boolean"}`, ",", form.MaxInput-100) + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	var w, a strings.Builder
	for i := range f.Fields {
		fmt.Fprintf(&w, "f%d: perhaps\n", i)
		fmt.Fprintf(&a, "f%d: yes\n", i)
	}
	return f, []byte(w.String()), []byte(a.String())
}

// TestCollectManyWrongAnswers: every answer of a 1 MiB form (24,081
// fields) wrong is a failure whose re-ask asks every field again; with the
// re-ask's reply after it, the form is collected.
func TestCollectManyWrongAnswers(t *testing.T) {
	f, wrong, again := manyFields(t)
	_, err := Collect(f, []Document{{Name: "r.md", Data: wrong}}, nil)
	var fail *Failure
	if !errors.As(err, &fail) || fail.Reask == nil || len(fail.Reask.FieldIDs) != len(f.Fields) {
		t.Fatalf("every answer wrong: want a failure re-asking all %d fields; got %v", len(f.Fields), err)
	}
	named := 0
	for _, p := range fail.Problems {
		if strings.HasPrefix(p.Path, "answers.f") {
			named++
		}
	}
	if named != len(f.Fields) {
		t.Errorf("every answer wrong: %d problems name a field, want %d", named, len(f.Fields))
	}
	r, err := Collect(f, []Document{{Name: "r.md", Data: wrong}, {Name: "again.md", Data: again}}, nil)
	if err != nil {
		t.Fatalf("with the re-ask's reply: %v", err)
	}
	if len(r.Responses) != len(f.Fields) || r.Responses["f0"] != "Yes" {
		t.Errorf("with the re-ask's reply: %d responses, f0 = %v; want %d, Yes", len(r.Responses), r.Responses["f0"], len(f.Fields))
	}
}

// BenchmarkCollectManyWrongAnswers collects the 1 MiB form's wrong reply,
// alone and followed by the re-ask's reply. A problem costs its path's
// length, not the form's size: finding a problem's field and the wrong
// answers a later one replaces once scanned every field and every problem
// (32 s for the test above), as did the re-ask's AskUserQuestion inputs.
func BenchmarkCollectManyWrongAnswers(b *testing.B) {
	f, wrong, again := manyFields(b)
	for _, bm := range []struct {
		name string
		docs []Document
	}{
		{"wrong", []Document{{Name: "r.md", Data: wrong}}},
		{"wrong_then_reask", []Document{{Name: "r.md", Data: wrong}, {Name: "again.md", Data: again}}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			defer benchcpu.Start(b)()
			for b.Loop() {
				Collect(f, bm.docs, nil)
			}
		})
	}
}
