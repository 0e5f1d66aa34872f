package page

import (
	"html/template"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/widget"
	"github.com/elicit/elicit/internal/formtest"
)

// The page was an html/template (testdata/page.tmpl) until HTML wrote it
// by hand; these tests run the template as the page did and hold HTML to
// its output byte for byte.

// oldHTML is HTML as it was.
func oldHTML(t testing.TB, f *form.Form) string {
	t.Helper()
	tmpl, err := template.ParseFiles("testdata/page.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	err = tmpl.Execute(&b, struct {
		Title  string
		Widget template.HTML
		JS     template.JS
	}{f.Title, template.HTML(widget.Render(f, &widget.Options{Cancel: true}).HTML), template.JS(pageJS.Get())})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestHTMLMatchesTemplate: every test form's page (the shared forms, the
// widget's, the benchmark's) is the template's bytes.
func TestHTMLMatchesTemplate(t *testing.T) {
	forms := formtest.Forms(t)
	paths, _ := filepath.Glob("../testdata/forms/*.json")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		forms["widget-"+filepath.Base(p)] = data
	}
	forms["bench"] = formtest.Bench(t)
	if len(forms) < 20 {
		t.Fatalf("only %d test forms", len(forms))
	}
	for name, data := range forms {
		f := formtest.MustParse(t, data)
		if got, want := HTML(f), oldHTML(t, f); got != want {
			t.Errorf("%s: the page differs from the template's:\n got: %q\nwant: %q", name, got, want)
		}
	}
}

// FuzzHTMLMatchesTemplate: a page with any title (the form valid or not)
// is the template's bytes.
func FuzzHTMLMatchesTemplate(f *testing.F) {
	for _, s := range []string{"", "Release plan", `<script>"'&+</script>`, "\x00\xff\u2028", "</title><!--"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		fm := &form.Form{Title: title, Fields: []form.Field{{ID: "ok", Text: title, Type: form.Boolean}}}
		if got, want := HTML(fm), oldHTML(t, fm); got != want {
			t.Errorf("the page differs from the template's:\n got: %q\nwant: %q", got, want)
		}
	})
}
