package widget

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/internal/golden"
)

// testForms are the widget's own forms (one per type, plus guessed and
// XSS) and the shared test forms, by name.
func testForms(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	paths, err := filepath.Glob("testdata/forms/*.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no widget test forms: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ".json")] = data
	}
	for name, data := range formtest.Forms(t) {
		out["shared-"+name] = data
	}
	out["bench-six-fields"] = formtest.Bench(t)
	return out
}

// TestGolden pins the HTML of every test form; -update rewrites it.
func TestGolden(t *testing.T) {
	for name, data := range testForms(t) {
		t.Run(name, func(t *testing.T) {
			f := formtest.MustParse(t, data)
			got := Render(f, nil).HTML
			golden.Check(t, name+".html", []byte(got))
		})
	}
}

// TestEveryTypeHasGolden makes sure each field type is rendered by a
// golden file of its own.
func TestEveryTypeHasGolden(t *testing.T) {
	for _, typ := range form.Types() {
		data, err := os.ReadFile(filepath.Join("testdata", "forms", string(typ)+".json"))
		if err != nil {
			t.Errorf("type %s has no test form: %v", typ, err)
			continue
		}
		f := formtest.MustParse(t, data)
		if !slices.ContainsFunc(f.Fields, func(fl form.Field) bool { return fl.Type == typ }) {
			t.Errorf("testdata/forms/%s.json has no %s field", typ, typ)
		}
	}
}

// TestSizeTarget holds the 6-field benchmark form to at most 6,500 bytes,
// half the peer's widget for the same form.
func TestSizeTarget(t *testing.T) {
	f := formtest.MustParse(t, formtest.Bench(t))
	if n := len(Render(f, nil).HTML); n > 6500 {
		t.Errorf("the 6-field form renders to %d bytes, over the 6,500-byte target", n)
	}
}

func TestResult(t *testing.T) {
	f := formtest.MustParse(t, formtest.Bench(t))
	r := Render(f, nil)
	want := []string{"track", "platforms", "notify", "budget", "ship_date", "notes"}
	if !r.Success || r.Title != "Release plan" || !slices.Equal(r.FieldIDs, want) {
		t.Errorf("Render = {%v %q %v}, want {true \"Release plan\" %v}", r.Success, r.Title, r.FieldIDs, want)
	}
	if !strings.HasPrefix(r.HTML, `<form class=el `) || !strings.HasSuffix(r.HTML, "</form>\n") {
		t.Errorf("the fragment is not one <form> element:\n%s", r.HTML)
	}
}

// TestNoExternalReferences: no tag of the fragment loads anything, and
// neither its styles nor its script fetch (the browser tests watch the
// network as well).
func TestNoExternalReferences(t *testing.T) {
	tag := regexp.MustCompile(`<[a-zA-Z][^>]*>`)
	quoted := regexp.MustCompile(`"[^"]*"`)
	attr := regexp.MustCompile(`(?i)\s(src|href|action|formaction|srcset|poster|data|background)\s*=`)
	code := regexp.MustCompile(`url\(|@import|fetch\(|XMLHttpRequest|import\(|sendBeacon|WebSocket`)
	for name, data := range testForms(t) {
		html := Render(formtest.MustParse(t, data), nil).HTML
		for _, tg := range tag.FindAllString(html, -1) {
			names := quoted.ReplaceAllString(tg, `""`) // attribute names only
			if m := attr.FindString(names); m != "" {
				t.Errorf("%s: tag %s loads something: %q", name, tg, m)
			}
		}
		a := assets()
		if m := code.FindString(a.jsHead + a.jsRows + a.jsTail + a.base + a.cards + a.progress + a.rows); m != "" {
			t.Errorf("the script or styles reach out: %q", m)
		}
	}
}

// TestMarks checks what a person sees beside fields: guesses with their
// reason, the confirmation of an all-guessed form, badges and headings.
func TestMarks(t *testing.T) {
	tests := []struct {
		form string
		want []string
		not  []string
	}{
		{"guessed", []string{"Every answer below is a guess from context", ">Confirm</button>",
			`<p class=g id="`, "Guessed from you mentioned a failing test.</p>", `value="Fix a bug" selected`, `value="Yes" checked`}, []string{">Submit</button>"}},
		{"multi_select", []string{"Guessed from the CI config runs these today.", `value="lint" checked`, `value="unit" checked`, "<ul>"}, []string{">Confirm</button>"}},
		{"decision", []string{"<em class=bd>Recommended</em>", "<small>Real progress now</small>", "<b>Why</b> Building"}, nil},
		{"pushback", []string{"<em class=bd>your approach</em>", "<em class=bd>I&#39;d suggest instead</em>", "<b>Why I&#39;d push back</b>"}, nil},
		{"progress", []string{"<p class=pb>Done</p>", "<s>T1 model</s>", "<p class=pb>In flight</p>", "<p class=pb>Blocked: which one next?</p>",
			"<em class=bd>suggested next</em>", "<b>Summary</b> 2 of 5", "Pick one to go deeper", "<em class=tg>project context</em>",
			"<em class=tg>reference</em>"}, []string{`data-id="status"`}},
		{"single_select", []string{"<ol>", "Nightly builds are unsigned.", `<ol><li><label class="k"><input type=radio name=`, `value="us-east" checked>us-east`, "No answer"}, nil},
		{"number", []string{`min="1" max="40"`, "(1 to 40)", "(optional, at least 0.001)", `max="2000000"`, `value="1500"`}, nil},
		{"textarea", []string{`data-l="40"`, "(up to 40 characters)"}, nil},
		{"deliberation", []string{"<em class=bd>Synthesis pick</em>", "<small>Endorsed by architect, perf.</small>", "<small>Shared across nodes Endorsed by ops.</small>", "<b>Synthesis</b>"}, nil},
		{"confirm", []string{"<p class=pb>If approved</p>", "Every staging table is dropped<em class=tg>high</em><small>42 tables</small>", `value="Approve">Approve`, `value="Abort">Abort`}, []string{" checked>"}},
		{"triage", []string{`data-k="sqli"`, `value="fix now" checked><span>fix now<em class=bd>suggested</em>`, `data-k="Unused import"`, "No ruling", "<b>Why</b>"}, nil},
		{"assumption_review", []string{`value="accept" checked><span>Accept<em class=bd>suggested</em>`, `<input class=ed aria-label="Corrected: PostgreSQL is the only database">`, "(from go.mod)"}, []string{"No ruling"}},
		{"ranking", []string{"Rank 1 of 3<select>", `<option value="Performance" selected>`, "(suggested order filled in)", "(optional)", `data-w="top_n"`, "Most requested by new users"}, nil},
	}
	forms := testForms(t)
	for _, tt := range tests {
		t.Run(tt.form, func(t *testing.T) {
			html := Render(formtest.MustParse(t, forms[tt.form]), nil).HTML
			for _, w := range tt.want {
				if !strings.Contains(html, w) {
					t.Errorf("missing %q in\n%s", w, html)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(html, n) {
					t.Errorf("unexpected %q in\n%s", n, html)
				}
			}
		})
	}
}

// TestRecommendedFirst: a construct's recommendation is the first card.
func TestRecommendedFirst(t *testing.T) {
	html := Render(formtest.MustParse(t, testForms(t)["decision"]), nil).HTML
	first := strings.Index(html, `value="Verifiable backlog loop"`)
	other := strings.Index(html, `value="Behind a verify gate"`)
	if first < 0 || other < 0 || first > other {
		t.Errorf("the recommended option is not first:\n%s", html)
	}
}

// TestRequiredMessages: the message a field shows when left empty is
// collect's own.
func TestRequiredMessages(t *testing.T) {
	for name, data := range testForms(t) {
		f := formtest.MustParse(t, data)
		html := Render(f, nil).HTML
		for i := range f.Fields {
			fl := &f.Fields[i]
			_, err := form.Collect(f, map[string]any{}, nil)
			refused := err != nil && strings.Contains(err.Error(), "answers."+fl.ID+": required")
			tag := regexp.MustCompile(`<[a-z]+ [^>]*data-id="` + regexp.QuoteMeta(fl.ID) + `"[^>]*>`).FindString(html)
			has := strings.Contains(tag, ` data-r="`+escapeAttr(need(fl))+`"`)
			if refused && !has {
				t.Errorf("%s: field %s: collect refuses it empty but the widget does not carry the message %q", name, fl.ID, need(fl))
			}
		}
	}
}

func escapeAttr(s string) string {
	return strings.NewReplacer(`"`, "&#34;", "'", "&#39;", "<", "&lt;", ">", "&gt;", "&", "&amp;", "+", "&#43;").Replace(s)
}

func TestCancelButton(t *testing.T) {
	f := formtest.MustParse(t, formtest.Bench(t))
	if html := Render(f, nil).HTML; strings.Contains(html, "Cancel") {
		t.Error("the chat widget has a Cancel button")
	}
	if html := Render(f, &Options{Cancel: true}).HTML; !strings.Contains(html, `<button type=button class=cn>Cancel</button>`) {
		t.Errorf("no Cancel button with Options.Cancel:\n%s", html)
	}
}

func TestFormID(t *testing.T) {
	forms := testForms(t)
	a := formtest.MustParse(t, forms["decision"])
	b := formtest.MustParse(t, forms["decision"])
	if FormID(a) != FormID(b) || len(FormID(a)) != 16 {
		t.Errorf("FormID = %q and %q, want the same 16 hex digits", FormID(a), FormID(b))
	}
	b.Fields[0].Options[0] = "changed"
	if FormID(a) == FormID(b) {
		t.Error("FormID did not change with an option")
	}
}

func TestMinify(t *testing.T) {
	js := minifyJS("// c\n(function(F){\n  var a=1,\n  b=2;\n  if(a){\n    f(b)\n  }\n  g()\n})\n")
	if want := "(function(F){var a=1,b=2;if(a){f(b)}\ng()})"; js != want {
		t.Errorf("minifyJS = %q, want %q", js, want)
	}
	css := minifyCSS("/* c */\n.a{x:1}\n  .b{y:2}\n")
	if want := ".a{x:1}.b{y:2}"; css != want {
		t.Errorf("minifyCSS = %q, want %q", css, want)
	}
}

// FuzzRender: a string added to a test form's title, description and every
// question, help text, guess and rationale never makes Render panic and
// adds no markup: the fragment has as many <, > and " as with a plain word
// in its place.
func FuzzRender(f *testing.F) {
	for i, s := range []string{"", "plain", "<script>window.x=1</script>", `"'><svg onload=x>`, "</textarea></title><!--",
		"\x00\xff\u2028\ufdd0", "javascript:x", "a`b=c d\te", "&lt;&#34;"} {
		f.Add(s, uint8(i*7))
	}
	forms := testForms(f)
	names := slices.Sorted(maps.Keys(forms))
	f.Fuzz(func(t *testing.T, s string, pick uint8) {
		name := names[int(pick)%len(names)]
		got, ok := renderWith(t, forms[name], s)
		want, okPlain := renderWith(t, forms[name], "plain")
		if !ok || !okPlain {
			return // s broke a definition rule: Render only had not to panic
		}
		for _, c := range []string{"<", ">", `"`} {
			if n, m := strings.Count(got, c), strings.Count(want, c); n != m {
				t.Errorf("%s with %q: %d %s in the fragment, %d with a plain word:\n%s", name, s, n, c, m, got)
			}
		}
	})
}

// renderWith renders the form in data with s added to the end of its
// title, description and each field's texts that are not empty.
func renderWith(t *testing.T, data []byte, s string) (string, bool) {
	f := formtest.MustParse(t, data)
	add := func(p *string) {
		if *p != "" {
			*p += s
		}
	}
	add(&f.Title)
	add(&f.Description)
	for i := range f.Fields {
		fl := &f.Fields[i]
		for _, p := range []*string{&fl.Text, &fl.HelpText, &fl.InferredFrom, &fl.Rationale} {
			add(p)
		}
	}
	r := Render(f, nil)
	return r.HTML, r.Success
}
