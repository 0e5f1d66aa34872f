package widget

import (
	"bytes"
	"fmt"
	"html/template"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
)

// The widget's HTML was an html/template until html.go replaced it (the
// template's package initialisation cost every CLI call). The template
// stays here, in testdata/widget.tmpl, and these tests run it exactly as
// the widget did and hold html.go to its output byte for byte: every
// escaping context included.

var oldTemplate = sync.OnceValues(func() (*template.Template, error) {
	src, err := os.ReadFile("testdata/widget.tmpl")
	if err != nil {
		return nil, err
	}
	return template.New("widget").Parse(string(src))
})

// oldPage is a page as the template got it: the styles and the script as
// html/template's trusted CSS and JS.
type oldPage struct {
	ID, FormID, Title, Description, Submit string
	AllGuessed, Cancel                     bool
	CSS                                    template.CSS
	JS                                     template.JS
}

func asOld(p *page) oldPage {
	return oldPage{p.ID, p.FormID, p.Title, p.Description, p.Submit, p.AllGuessed, p.Cancel, template.CSS(p.CSS), template.JS(p.JS)}
}

// execOld runs one block of the template.
func execOld(t testing.TB, name string, data any) (string, error) {
	t.Helper()
	tmpl, err := oldTemplate()
	if err != nil {
		t.Fatalf("the old template: %v", err)
	}
	var b bytes.Buffer
	err = tmpl.ExecuteTemplate(&b, name, data)
	return b.String(), err
}

// renderOld is render as it was: the template's "head", the block named
// after each field's type, "foot".
func renderOld(t testing.TB, f *form.Form, opts *Options) (string, error) {
	p := newPage(f, opts)
	var out strings.Builder
	run := func(name string, data any) error {
		s, err := execOld(t, name, data)
		out.WriteString(s)
		return err
	}
	if err := run("head", asOld(p)); err != nil {
		return "", err
	}
	for i := range f.Fields {
		if err := run(string(f.Fields[i].Type), view(&f.Fields[i], p.ID+strconv.Itoa(i))); err != nil {
			return "", err
		}
	}
	if err := run("foot", asOld(p)); err != nil {
		return "", err
	}
	return out.String(), nil
}

// same fails the test when the new bytes differ from the template's,
// naming the first difference.
func same(t testing.TB, what, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	t.Errorf("%s differs from the template's output at byte %d:\n got: %q\nwant: %q", what, i, clip(got, i), clip(want, i))
}

func clip(s string, i int) string {
	return s[max(0, i-60):min(len(s), i+60)]
}

// checkForm compares the whole fragment of f, with and without Cancel.
func checkForm(t testing.TB, name string, f *form.Form) {
	t.Helper()
	for _, cancel := range []bool{false, true} {
		opts := &Options{Cancel: cancel}
		got, err := render(f, opts)
		want, errOld := renderOld(t, f, opts)
		if (err != nil) != (errOld != nil) {
			t.Fatalf("%s (cancel %v): render error %v, the template's %v", name, cancel, err, errOld)
		}
		same(t, fmt.Sprintf("%s (cancel %v)", name, cancel), got, want)
	}
}

// blockNames are the template's blocks that take a field view: every
// field type's and the shared pieces.
func blockNames() []string {
	names := []string{"choices", "rows", "req", "desc", "hint", "label", "notes", "err", "why"}
	for _, typ := range form.Types() {
		names = append(names, string(typ))
	}
	return names
}

// newBlock runs html.go's function for the template block name.
func newBlock(name string, v *fieldView) (string, error) {
	var w writer
	pieces := map[string]func(*writer, *fieldView){"choices": choices, "rows": rows, "req": req, "desc": desc,
		"hint": hint, "label": label, "notes": notes, "err": errLine, "why": why}
	if fn, ok := pieces[name]; ok {
		fn(&w, v)
		return w.String(), nil
	}
	err := field(&w, form.Type(name), v)
	return w.String(), err
}

// checkView compares every block of the template on v, each choice of v
// through the "choice" block, and head and foot on p.
func checkView(t testing.TB, what string, v *fieldView) {
	t.Helper()
	for _, name := range blockNames() {
		got, err := newBlock(name, v)
		want, errOld := execOld(t, name, v)
		if err != nil || errOld != nil {
			t.Fatalf("%s: block %s: %v, the template's %v", what, name, err, errOld)
		}
		same(t, what+": block "+name, got, want)
	}
	var all []choice
	all = append(all, v.Choices...)
	for _, r := range v.Rows {
		all = append(all, r.Choices...)
	}
	for _, s := range v.Slots {
		all = append(all, s.Choices...)
	}
	for i := range all {
		var w writer
		writeChoice(&w, &all[i])
		want, err := execOld(t, "choice", &all[i])
		if err != nil {
			t.Fatalf("%s: choice: %v", what, err)
		}
		same(t, what+": choice "+strconv.Itoa(i), w.String(), want)
	}
}

// checkPage compares head and foot on p in every combination of its
// switches.
func checkPage(t testing.TB, what string, p page) {
	t.Helper()
	for _, guessed := range []bool{false, true} {
		for _, cancel := range []bool{false, true} {
			p.AllGuessed, p.Cancel = guessed, cancel
			for name, fn := range map[string]func(*writer, *page){"head": head, "foot": foot} {
				var w writer
				fn(&w, &p)
				want, err := execOld(t, name, asOld(&p))
				if err != nil {
					t.Fatalf("%s: %s: %v", what, name, err)
				}
				same(t, fmt.Sprintf("%s: %s (all guessed %v, cancel %v)", what, name, guessed, cancel), w.String(), want)
			}
		}
	}
}

// TestRenderMatchesTemplate: every test form (the widget's, the shared
// ones, the benchmark's) renders to the template's bytes, with and
// without Cancel, and so does each of its fields in every block and its
// head and foot in every combination.
func TestRenderMatchesTemplate(t *testing.T) {
	for name, data := range testForms(t) {
		t.Run(name, func(t *testing.T) {
			f := formtest.MustParse(t, data)
			checkForm(t, name, f)
			p := newPage(f, &Options{})
			checkPage(t, name, *p)
			p.Description = ""
			checkPage(t, name+" without description", *p)
			for i := range f.Fields {
				checkView(t, name+"/"+f.Fields[i].ID, view(&f.Fields[i], p.ID+strconv.Itoa(i)))
			}
		})
	}
}

// TestAllGuessedMatchesTemplate: a form whose every answer is a guess
// (its Confirm button and note) renders to the template's bytes.
func TestAllGuessedMatchesTemplate(t *testing.T) {
	n := 0
	for name, data := range testForms(t) {
		f := formtest.MustParse(t, data)
		if f.AllGuessed() {
			n++
			checkForm(t, name, f)
		}
	}
	if n == 0 {
		t.Fatal("no test form has every answer guessed")
	}
}

// TestUnknownTypeFails: a field type the widget has no block for is an
// error from render, as it was from the template, never a panic.
func TestUnknownTypeFails(t *testing.T) {
	f := &form.Form{Title: "T", Fields: []form.Field{{ID: "a", Text: "A", Type: "bogus"}}}
	if _, err := render(f, &Options{}); err == nil || !strings.Contains(err.Error(), `"bogus"`) {
		t.Errorf("render = %v, want an error naming the type", err)
	}
	if _, err := renderOld(t, f, &Options{}); err == nil {
		t.Error("the template ran a block it does not have")
	}
	if r := Render(f, nil); r.Success || len(r.Problems) == 0 {
		t.Errorf("Render = %+v, want a failure", r)
	}
}

// hostile are strings that exercise every escaper: each special of each
// context, white space, NUL, U+2028, noncharacters, invalid UTF-8 and the
// ends of a script or a comment.
var hostile = []string{"", "plain", `<a href="x">&amp;</a>`, `'+'`, "a`b=c d\te\nf\rg\fh\vi", "\x00", "\u2028\u2029",
	"\ufdd0\uffff\ufffd\U0001F600", "\xff\xfe", "\xed\xa0\x80", "</script><!--", "--></textarea></title>", "javascript:alert(1)",
	"-", "0", "x&#34;y", "&lt;"}

// TestHostileMatchesTemplate runs every block on views and pages whose
// every string is one of hostile.
func TestHostileMatchesTemplate(t *testing.T) {
	for i, a := range hostile {
		b, c := hostile[(i+1)%len(hostile)], hostile[(i+5)%len(hostile)]
		for bits := range uint16(8) {
			what := fmt.Sprintf("hostile %d/%d", i, bits)
			checkView(t, what, fuzzView(a, b, c, bits*37))
			checkPage(t, what, fuzzPage(a, b, c))
		}
	}
}

// fuzzPage is a page of the strings a, b, c.
func fuzzPage(a, b, c string) page {
	return page{ID: a, FormID: b, Title: c, Description: a + b, Submit: c + a, CSS: b, JS: c}
}

// fuzzView is a field view whose every string is one of a, b, c (or made
// of them) and whose switches and list lengths come from bits.
func fuzzView(a, b, c string, bits uint16) *fieldView {
	on := func(i uint) bool { return bits&(1<<i) != 0 }
	pick := func(i uint) string { return []string{a, b, c, ""}[(uint(bits)>>i)&3] }
	ch := func(k uint) choice {
		return choice{Value: pick(k), Label: pick(k + 1), Kind: pick(k + 2), Name: pick(k + 3), Note: pick(k + 4), Tag: pick(k + 5),
			Badges: []string{a, b, c}[:(bits>>k)%4], Checked: on(k), Card: on(k + 1)}
	}
	cs := []choice{ch(0), ch(3), ch(7)}[:1+bits%3]
	v := &fieldView{ID: a, Text: b, P: c, Mode: pick(0), Req: pick(2), Hint: pick(4), Help: pick(6), Guess: pick(8),
		Desc: a + " " + c, ListStyle: []string{"", "ordered", "unordered", a}[bits%4], Choices: cs,
		Value: pick(10), Min: pick(12), Max: pick(14), MaxLength: int(bits%5) - 1, Rationale: pick(1), WhyHead: pick(3),
		PickHead: pick(5), SlotsWhy: pick(7), Edit: on(9), Notes: on(10)}
	it := func(k uint) item { return item{Label: pick(k), Tag: pick(k + 2), Detail: pick(k + 4), Done: on(k)} }
	v.Buckets = []bucket{{Name: a, Items: []item{it(1), it(2)}}, {Name: b, Items: []item{it(3)}}}[:bits%3]
	v.Consequences = []item{it(4), it(5)}[:bits%3]
	v.Rows = []row{{Key: a, Label: b, Tag: pick(6), Detail: pick(8), Choices: cs}, {Key: c, Label: a, Choices: cs[:1]}}[:bits%3]
	v.Slots = []slot{{Label: a, Choices: cs}, {Label: c, Choices: slices.Clone(cs)}}[:bits%3]
	return v
}

// spice adds s to the end of every text of f a person reads (and of
// every reference to an option, so they still agree); f may then fail
// form.Check.
func spice(f *form.Form, s string) {
	add := func(p *string) {
		if *p != "" {
			*p += s
		}
	}
	all := func(l []string) {
		for i := range l {
			add(&l[i])
		}
	}
	keys := func(m map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			out[k+s] = v + s
		}
		return out
	}
	add(&f.Title)
	add(&f.Description)
	for i := range f.Fields {
		fl := &f.Fields[i]
		for _, p := range []*string{&fl.Text, &fl.HelpText, &fl.InferredFrom, &fl.Rationale, &fl.Recommended, &fl.UserPosition} {
			add(p)
		}
		all(fl.Options)
		all(fl.Suggested.Order)
		switch d := fl.Default.(type) {
		case string:
			if fl.Type != form.Date && fl.Type != form.Boolean {
				fl.Default = d + s
			}
		case []string:
			all(d)
		}
		if fl.OptionNotes != nil {
			fl.OptionNotes = keys(fl.OptionNotes)
		}
		if fl.Endorsements != nil {
			e := map[string][]string{}
			for k, v := range fl.Endorsements {
				e[k+s] = v
			}
			fl.Endorsements = e
		}
		if r := fl.Suggested.Rulings; r != nil {
			fl.Suggested.Rulings = map[string]string{}
			for _, it := range slices.Concat(fl.TriageItems, fl.Assumptions) {
				if v, ok := r[it.Key()]; ok {
					k := it.Key()
					if it.ID == "" {
						k += s
					}
					fl.Suggested.Rulings[k] = v
				}
			}
		}
		for i := range fl.ProgressItems {
			add(&fl.ProgressItems[i].Label)
			add(&fl.ProgressItems[i].Detail)
		}
		for _, items := range [][]form.Item{fl.TriageItems, fl.Assumptions} {
			for i := range items {
				for _, p := range []*string{&items[i].Label, &items[i].Detail, &items[i].Tag, &items[i].Source} {
					add(p)
				}
			}
		}
		for i := range fl.Consequences {
			add(&fl.Consequences[i].Label)
			add(&fl.Consequences[i].Detail)
		}
	}
}

// FuzzRenderMatchesTemplate: for fuzzed strings a, b, c the widget's
// bytes are the template's, for a whole test form with a added to its
// every string (when the form still passes form.Check), for field views
// and pages made of a, b and c; and Render never panics.
func FuzzRenderMatchesTemplate(f *testing.F) {
	for i, s := range hostile {
		f.Add(s, hostile[(i+3)%len(hostile)], hostile[(i+7)%len(hostile)], uint16(i*911))
	}
	forms := testForms(f)
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range forms {
			if !yield(n) {
				return
			}
		}
	})
	f.Fuzz(func(t *testing.T, a, b, c string, bits uint16) {
		name := names[int(bits)%len(names)]
		fm := formtest.MustParse(t, forms[name])
		spice(fm, a)
		Render(fm, nil) // never panics, valid or not
		if fm.Check() == nil {
			checkForm(t, name, fm)
		}
		checkView(t, "view", fuzzView(a, b, c, bits))
		checkPage(t, "page", fuzzPage(a, b, c))
	})
}
