package responselog

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// shapesLog is a log with hand-built forms of the given shapes and titles,
// one response each, the later ones seen later.
func shapesLog(t *testing.T, open opener, shapes ...string) *Store {
	t.Helper()
	l, _ := open(t)
	for i := 0; i+1 < len(shapes); i += 2 {
		sh, title := shapes[i], shapes[i+1]
		l.Append(Record{ID: fmt.Sprint("r", i), Time: time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC), Kind: KindResponse,
			TemplateID: "dict", Shape: sh, Title: title, ResponseID: "resp-" + sh, Form: []byte(`{"title":"` + title + `"}`)})
	}
	return mustRead(t, l)
}

// mustRead reads the log, closing the store when the test ends.
func mustRead(t *testing.T, l *Log) *Store {
	t.Helper()
	s, err := l.Read()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestFormByShapePrefix checks templates save's lookup: a unique prefix
// finds the form, an exact shape wins, and a prefix of several shapes is
// an error that lists them, whichever was seen last.
func TestFormByShapePrefix(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		s := shapesLog(t, open, "3aaaaaaaaaaa", "Scope this work", "3bbbbbbbbbbb", "Pick a cache", "3bbbbbbbbbbbx", "Longer", "4ccccccccccc", "Other")
		for _, tc := range []struct{ prefix, shape, title, err string }{
			{"3a", "3aaaaaaaaaaa", "Scope this work", ""},
			{"4", "4ccccccccccc", "Other", ""},
			{"3bbbbbbbbbbb", "3bbbbbbbbbbb", "Pick a cache", ""},
			{"3", "", "", `shape "3" is the start of 3 shapes in the response log: 3aaaaaaaaaaa (Scope this work), 3bbbbbbbbbbb (Pick a cache), 3bbbbbbbbbbbx (Longer); give more of it`},
			{"3b", "", "", `shape "3b" is the start of 2 shapes`},
			{"5", "", "", `no hand-built form of shape "5" in the response log`},
			{"", "", "", `no hand-built form of shape "" in the response log`},
		} {
			def, full, title, err := s.Form(tc.prefix)
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("Form(%q): error %v, want %q", tc.prefix, err, tc.err)
			case tc.err == "" && (err != nil || full != tc.shape || title != tc.title || string(def) != `{"title":"`+tc.title+`"}`):
				t.Errorf("Form(%q) = %s, %q, %q, %v; want %q, %q", tc.prefix, def, full, title, err, tc.shape, tc.title)
			}
		}
	})
}

// TestAmbiguousShapesListed checks that a prefix of many shapes lists 20
// and says how many more.
func TestAmbiguousShapesListed(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		var args []string
		for i := range 25 {
			args = append(args, fmt.Sprintf("7%011d", i), "T")
		}
		_, _, _, err := shapesLog(t, open, args...).Form("7")
		if err == nil || !strings.Contains(err.Error(), "700000000019 (T), … 5 more; give more of it") || strings.Contains(err.Error(), "700000000020") {
			t.Errorf("error %v", err)
		}
	})
}

// TestResponsesFilter checks list's filters: a bare template name is the
// template's id, a shape may be given by a unique prefix (an ambiguous one
// is an error listing the shapes), and NoMatch says why nothing matched.
func TestResponsesFilter(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		l, _ := open(t)
		for i, r := range []Record{
			{TemplateID: "template:review", Shape: "6f0000000000", Title: "Review"},
			{TemplateID: "dict", Shape: "6f1111111111", Title: "Scope"},
			{TemplateID: "dict", Shape: "6a2222222222", Title: "Other"},
			{TemplateID: "dict", Shape: "6a2222222222", Title: "Other", Kind: KindRender},
		} {
			r.ID, r.ResponseID = fmt.Sprint("r", i), fmt.Sprint("resp-", i)
			if r.Kind == "" {
				r.Kind = KindResponse
			}
			l.Append(r)
		}
		s := mustRead(t, l)
		for _, tc := range []struct {
			filter Filter
			want   string
			err    string
			why    string
		}{
			{Filter{TemplateID: "review"}, "resp-0", "", ""},
			{Filter{TemplateID: "template:review"}, "resp-0", "", ""},
			{Filter{TemplateID: "dict"}, "resp-1 resp-2", "", ""},
			{Filter{TemplateID: "nope"}, "", "", `no response of template:nope in the response log (template ids there: dict, template:review)`},
			{Filter{Shape: "6f1"}, "resp-1", "", ""},
			{Filter{Shape: "6a2222222222"}, "resp-2", "", ""},
			{Filter{Shape: "6f"}, "", `shape "6f" is the start of 2 shapes in the response log: 6f0000000000 (Review), 6f1111111111 (Scope); give more of it`, ""},
			{Filter{Shape: "7"}, "", "", `no response in the response log has a shape starting "7"`},
			{Filter{Shape: "6f1", TemplateID: "review"}, "", "", `no response of template:review has shape 6f1111111111`},
		} {
			list, err := s.Responses(tc.filter)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Errorf("%+v: error %v, want %q", tc.filter, err, tc.err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%+v: %v", tc.filter, err)
				continue
			}
			var ids []string
			for _, e := range list {
				ids = append(ids, e.ResponseID)
			}
			if got := strings.Join(sorted(ids), " "); got != tc.want {
				t.Errorf("%+v: %q, want %q", tc.filter, got, tc.want)
			}
			why, err := s.NoMatch(tc.filter)
			if err != nil || (len(list) == 0) != (why != "") || (why != "" && why != tc.why) {
				t.Errorf("%+v: NoMatch = %q, %v; want %q", tc.filter, why, err, tc.why)
			}
		}
	})
}

// TestPromotedNamesAreUnique checks that stats never suggests one template
// name twice, nor a name a template or an earlier save already has: two
// shapes titled alike get review-findings and review-findings-2.
func TestPromotedNamesAreUnique(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		l, _ := open(t)
		i := 0
		use := func(shape, title string, n int) {
			for range n {
				i++
				l.Append(Record{ID: fmt.Sprint("r", i), Time: time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC), Kind: KindResponse,
					TemplateID: "dict", Shape: shape, Title: title, ResponseID: fmt.Sprint("resp-", i), Form: []byte(`{}`)})
			}
		}
		use("aaaaaaaaaaaa", "Review findings", 5)
		use("bbbbbbbbbbbb", "Review findings", 4)
		use("cccccccccccc", "Review: findings!", 3)
		use("dddddddddddd", "Scope", 3)
		use("eeeeeeeeeeee", "Old", 3)
		s := mustRead(t, l)
		if err := s.MarkPromoted("eeeeeeeeeeee", "scope", time.Now()); err != nil {
			t.Fatal(err)
		}
		names := func() []string {
			st, err := s.Stats(false)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, p := range st.Promote {
				out = append(out, p.Name)
				if want := "elicit templates save " + p.Name + " --shape " + p.Shape; p.Command != want {
					t.Errorf("command %q, want %q", p.Command, want)
				}
			}
			return out
		}
		if got, want := strings.Join(names(), " "), "review-findings review-findings-2 review-findings-3 scope-2"; got != want {
			t.Errorf("suggested %q, want %q", got, want)
		}
		s.TemplateExists = func(name string) bool { return name == "review-findings" || name == "scope-2" }
		if got, want := strings.Join(names(), " "), "review-findings-2 review-findings-3 review-findings-4 scope-3"; got != want {
			t.Errorf("with templates review-findings and scope-2: suggested %q, want %q", got, want)
		}
	})
}

// TestKeyboardHintText checks the hint says what keyboard mode does with
// number, date and textarea fields: forms with them still go to the widget
// (the router ranks them above keyboard mode), and AskUserQuestion asks
// them in the markdown follow-up; they do not "need" the widget.
func TestKeyboardHintText(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		l, _ := open(t)
		for i := range KeyboardHintAfter {
			l.Append(Record{Kind: KindResponse, TemplateID: "dict", Shape: "s", ResponseID: fmt.Sprint("resp-", i)})
		}
		s := mustRead(t, l)
		st, err := s.Stats(false)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"10 forms submitted so far", "elicit config set keyboard_mode true", "AskUserQuestion",
			"number, date or textarea fields still opens the widget", "markdown follow-up"} {
			if !strings.Contains(st.KeyboardHint, want) {
				t.Errorf("hint %q lacks %q", st.KeyboardHint, want)
			}
		}
		if strings.Contains(st.KeyboardHint, "need the widget") {
			t.Errorf("hint %q says the fields need the widget", st.KeyboardHint)
		}
	})
}
