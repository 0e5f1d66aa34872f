package ask

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/internal/golden"
	"github.com/google/go-cmp/cmp"
)

func TestRenderGolden(t *testing.T) {
	for name, data := range formtest.Forms(t) {
		t.Run(name, func(t *testing.T) {
			golden.Check(t, name+".json", golden.JSON(t, Render(formtest.MustParse(t, data))))
		})
	}
}

func TestAskUserQuestionHostLimits(t *testing.T) {
	for name, data := range formtest.Forms(t) {
		f := formtest.MustParse(t, data)
		r := Render(f)
		if r.ChangeSome != nil { // the one-tap confirm: one question, the form after it
			if len(r.AskUserQuestion) != 1 || len(r.AskUserQuestion[0].Questions) != 1 {
				t.Errorf("%s: the confirm is %d calls", name, len(r.AskUserQuestion))
			}
			checkAskInput(t, name+" confirm", r.AskUserQuestion[0])
			r = r.ChangeSome
		}
		asked := map[string]bool{}
		for i, in := range r.AskUserQuestion {
			checkAskInput(t, name, in)
			for _, p := range r.Batches[i] {
				asked[fieldOf(f, p.QuestionID)] = true
			}
		}
		for _, fu := range r.Followups {
			for _, g := range fu.Groups {
				checkAskInput(t, name+" followup", Input{Questions: []Question{g.Question}})
			}
		}
		for _, u := range r.Unsupported {
			asked[u.QuestionID] = true
			if u.Reason == "" || u.Surface == "" {
				t.Errorf("%s: unsupported %s has no reason or surface", name, u.QuestionID)
			}
		}
		if len(r.Batches) != len(r.AskUserQuestion) {
			t.Errorf("%s: %d batches but %d tool inputs", name, len(r.Batches), len(r.AskUserQuestion))
		}
		for _, fld := range f.Fields {
			if !asked[fld.ID] {
				t.Errorf("%s: field %s silently dropped", name, fld.ID)
			}
		}
	}
}

func checkAskInput(t *testing.T, name string, in Input) {
	t.Helper()
	if n := len(in.Questions); n < 1 || n > 4 {
		t.Errorf("%s: %d questions, want 1-4", name, n)
	}
	if (len(in.Questions) > 1) != (in.Metadata != nil && in.Metadata.Source == "elicit-form") {
		t.Errorf("%s: metadata %+v for %d questions", name, in.Metadata, len(in.Questions))
	}
	for _, q := range in.Questions {
		if q.Question == "" || q.Header == "" || len(utf16.Encode([]rune(q.Header))) > 12 {
			t.Errorf("%s: bad question or header %q / %q", name, q.Question, q.Header)
		}
		if n := len(q.Options); n < 2 || n > 4 {
			t.Errorf("%s: %q has %d options, want 2-4", name, q.Question, n)
		}
		labels := map[string]bool{}
		for _, o := range q.Options {
			if o.Label == "" || labels[o.Label] || strings.EqualFold(o.Label, "other") {
				t.Errorf("%s: bad or repeated label %q", name, o.Label)
			}
			if n := len(strings.Fields(o.Label)); n < 1 || n > 5 {
				t.Errorf("%s: label %q has %d words, want 1-5", name, o.Label, n)
			}
			if q.MultiSelect && strings.Contains(o.Label, ",") {
				t.Errorf("%s: multi-select label %q has a comma", name, o.Label)
			}
			labels[o.Label] = true
		}
	}
}

func TestTwoTierGroupsAreBalanced(t *testing.T) {
	for n := 5; n <= 16; n++ {
		opts := make([]string, n)
		for i := range opts {
			opts[i] = string(rune('a'+i)) + "x"
		}
		p := planFor(&form.Field{ID: "x", Text: "X?", Type: form.SingleSelect, Options: opts, Required: true})
		total := 0
		for _, g := range p.Groups {
			if k := len(g.Question.Options); k < 2 || k > 4 {
				t.Errorf("n=%d: group of %d", n, k)
			}
			total += len(g.Question.Options)
		}
		if total != n || len(p.Question.Options) != len(p.Groups) {
			t.Errorf("n=%d: %d options in %d groups", n, total, len(p.Groups))
		}
	}
	p := planFor(&form.Field{ID: "x", Text: "X?", Type: form.SingleSelect, Options: make([]string, 17)})
	if p.Unsupported == "" {
		t.Error("17 options must be unsupported")
	}
}

func TestRenderBatches(t *testing.T) {
	js := `{"title": "T", "fields": [`
	for i := range 9 {
		if i > 0 {
			js += ","
		}
		js += `{"id": "b` + string(rune('0'+i)) + `", "text": "Q` + string(rune('0'+i)) + `?", "type": "boolean"}`
	}
	r := Render(formtest.MustParse(t, []byte(js+`]}`)))
	var sizes []int
	for _, in := range r.AskUserQuestion {
		sizes = append(sizes, len(in.Questions))
	}
	if diff := cmp.Diff([]int{4, 4, 1}, sizes); diff != "" {
		t.Errorf("batch sizes (-want +got):\n%s", diff)
	}
	if r.AskUserQuestion[2].Metadata != nil {
		t.Error("a one-question batch must not carry metadata")
	}
}

// FuzzRender renders every form Parse accepts: no panic, and every field is
// either asked or listed as unsupported.
func FuzzRender(f *testing.F) {
	for _, data := range formtest.Forms(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fm, err := form.Parse(data)
		if err != nil {
			return
		}
		r := Render(fm)
		if r.ChangeSome != nil {
			if !fm.AllGuessed() {
				t.Fatal("a confirm for a form that is not all guesses")
			}
			r = r.ChangeSome
		}
		seen := map[string]bool{}
		for _, u := range r.Unsupported {
			seen[u.QuestionID] = true
		}
		for _, b := range r.Batches {
			for _, p := range b {
				seen[fieldOf(fm, p.QuestionID)] = true
			}
		}
		if len(seen) != len(fm.Fields) {
			t.Fatalf("%d fields, %d asked or unsupported", len(fm.Fields), len(seen))
		}
	})
}

// fieldOf is the id of the field a payload's question id asks: the field
// itself, or the construct whose row or slot it is.
func fieldOf(f *form.Form, questionID string) string {
	for _, fl := range f.Fields {
		if fl.ID == questionID || fl.Type.Expands() && strings.HasPrefix(questionID, fl.ID+".") {
			return fl.ID
		}
	}
	return questionID
}
