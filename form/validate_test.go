package form

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestValidate: a form built in Go code is checked with Parse's rules, every
// problem named at its JSON path.
func TestValidate(t *testing.T) {
	one := func(fl Field) *Form { return &Form{Title: "T", Fields: []Field{fl}} }
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		f    *Form
		want []string // substrings of the error, in order
	}{
		{"nil", nil, []string{"form: missing"}},
		{"zero", &Form{}, []string{"title: must not be empty", "fields: must be a list of 1 or more fields"}},
		{"unknown type", one(Field{ID: "a", Text: "Q1", Type: "bogus"}), []string{"fields[0].type: unknown type"}},
		{"number default", one(Field{ID: "n", Text: "N", Type: Number, Default: "abc"}), []string{"fields[0].default: must be a number"}},
		{"duplicate id", &Form{Title: "T", Fields: []Field{{ID: "a", Text: "Q1", Type: TextInput}, {ID: "a", Text: "Q2", Type: TextInput}}},
			[]string{`fields[1].id: duplicate id "a"`}},
		{"confirm with 3 options", one(Field{ID: "c", Text: "Go?", Type: Confirm, Options: []string{"A", "B", "C"}}), []string{"fields[0].options"}},
		{"negative top_n", one(Field{ID: "r", Text: "Rank", Type: Ranking, Options: []string{"a", "b"}, TopN: -1}), []string{"fields[0].top_n"}},
		{"NaN", one(Field{ID: "n", Text: "N", Type: Number, Minimum: &nan}), []string{"fields[0]: cannot be written as JSON"}},
		{"bad UTF-8", one(Field{ID: "a", Text: "ab\xffcd", Type: TextInput, Options: []string{"x\xfe"}}),
			[]string{"fields[0].text: is not valid UTF-8 (first bad byte at offset 2)", "fields[0].options[0]: is not valid UTF-8"}},
		{"control character", one(Field{ID: "a", Text: "a\x00b", Type: TextInput}), []string{"fields[0].text: contains the control character"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.f.Validate()
			if err == nil {
				t.Fatal("valid, want problems")
			}
			msg, at := err.Error(), 0
			for _, w := range tc.want {
				i := strings.Index(msg[at:], w)
				if i < 0 {
					t.Fatalf("error %q lacks %q (in order)", msg, w)
				}
				at += i + len(w)
			}
		})
	}
}

// TestValidateParsed: every form Parse accepts is valid, so its canonical
// JSON decodes back (one set of rules).
func TestValidateParsed(t *testing.T) {
	files, _ := filepath.Glob("testdata/forms/*.json")
	more, _ := filepath.Glob("testdata/attune/loads/*.json")
	if len(files) < 10 || len(more) < 5 {
		t.Fatalf("only %d + %d testdata forms", len(files), len(more))
	}
	for _, p := range append(files, more...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if err := f.Validate(); err != nil {
			t.Errorf("%s: a parsed form is not valid: %v", p, err)
		}
	}
}

// TestInvalidFormRefused: Collect and SelectSurface refuse a form that
// breaks a rule instead of collecting data the form would refuse.
func TestInvalidFormRefused(t *testing.T) {
	bogus := &Form{Title: "T", Fields: []Field{{ID: "a", Text: "Q1", Type: "bogus"}}}
	if _, err := Collect(bogus, map[string]any{"a": "x"}, nil); err == nil || !strings.Contains(err.Error(), "fields[0].type") {
		t.Errorf("Collect(bogus type) = %v, want the form's problem", err)
	}
	g := &Form{Title: "T", Fields: []Field{{ID: "n", Text: "N", Type: Number, Default: "abc"}}}
	if r, err := Collect(g, map[string]any{}, nil); err == nil {
		out, _ := json.Marshal(r)
		t.Errorf("Collect(number default \"abc\") = %s, want the form's problem", out)
	}
	c := SelectSurface(bogus, nil)
	if c.Surface != "" || len(c.Problems) != 1 || !strings.Contains(c.Reason, "not valid") {
		t.Errorf("SelectSurface(bogus) = %+v", c)
	}
	if s := Summary(&Form{}, &Response{}); !strings.Contains(s, "not valid") {
		t.Errorf("Summary(zero form) = %q", s)
	}
}

// TestCheckNoticesChanges: a parsed form is remembered as valid, and a
// change to its fields' ids, types or number is noticed.
func TestCheckNoticesChanges(t *testing.T) {
	f, err := Parse([]byte(`{"title": "T", "fields": [{"id": "a", "text": "Q1", "type": "text_input"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Check(); err != nil {
		t.Fatalf("parsed form: %v", err)
	}
	f.Fields[0].Type = "bogus"
	if err := f.Check(); err == nil || !strings.Contains(err.Error(), "fields[0].type") {
		t.Errorf("type changed to bogus: Check = %v", err)
	}
	f.Fields[0].Type = TextInput
	f.Fields = append(f.Fields, Field{ID: "a", Text: "Q2", Type: TextInput})
	if _, err := Collect(f, map[string]any{"a": "x"}, nil); err == nil || !strings.Contains(err.Error(), "duplicate id") {
		t.Errorf("duplicate id added: Collect = %v", err)
	}
}

// TestUnmarshalRoundTrip: every testdata form written with encoding/json
// reads back with json.Unmarshal into the same form, suggested rulings and
// a ranking's suggested order included.
func TestUnmarshalRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.json")
	more, _ := filepath.Glob("testdata/*/*/*.json")
	n, suggested := 0, 0
	for _, p := range append(files, more...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(data)
		if err != nil {
			continue // a refused form
		}
		n++
		out, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		var back Form
		if err := json.Unmarshal(out, &back); err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		again, _ := json.Marshal(&back)
		if string(again) != string(out) {
			t.Errorf("%s: round trip changed the form:\n%s\n%s", p, out, again)
		}
		for i := range f.Fields {
			if !f.Fields[i].Suggested.isZero() {
				suggested++
				if !reflect.DeepEqual(f.Fields[i].Suggested, back.Fields[i].Suggested) {
					t.Errorf("%s: fields[%d].suggested = %+v, want %+v", p, i, back.Fields[i].Suggested, f.Fields[i].Suggested)
				}
			}
		}
	}
	if n < 15 || suggested < 2 {
		t.Fatalf("only %d forms, %d with suggestions", n, suggested)
	}
	var s Suggested
	if err := json.Unmarshal([]byte(`"fix now"`), &s); err == nil || !strings.Contains(err.Error(), "suggested: must be an object") {
		t.Errorf("a string: %v", err)
	}
}

// TestExportedListsReadOnly: the lists the package hands out are copies:
// writing to one changes neither the next copy nor how forms parse.
func TestExportedListsReadOnly(t *testing.T) {
	ConfirmOptions()[0] = "Nuke"
	AssumptionRulings()[0] = "bogus"
	Types()[0] = "bogus"
	if got := Types(); len(got) != 15 || got[0] != SingleSelect {
		t.Errorf("Types() after a write to an earlier copy = %q", got)
	}
	if got := ConfirmOptions(); !slices.Equal(got, []string{"Approve", "Abort"}) {
		t.Errorf("ConfirmOptions() after a write to an earlier copy = %q", got)
	}
	if got := AssumptionRulings(); !slices.Equal(got, []string{RulingAccept, RulingEdit, RulingReject}) {
		t.Errorf("AssumptionRulings() after a write to an earlier copy = %q", got)
	}
	f, err := Parse([]byte(`{"title": "T", "fields": [{"id": "go", "text": "Go?", "type": "confirm", "consequences": [{"label": "Deploys"}]},
		{"id": "s", "text": "S", "type": "single_select", "options": ["a", "b"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Fields[0].Options; !slices.Equal(got, []string{"Approve", "Abort"}) {
		t.Errorf("confirm options = %q", got)
	}
}
