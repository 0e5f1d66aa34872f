package markdown

import (
	"regexp"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/google/go-cmp/cmp"
)

// keyForms are valid forms whose keys are hard to read back from a line:
// row keys holding ':' or '=', keys and ids that differ only in case, '_',
// '-' or white space, a row key over 80 characters, a row key on two
// lines, an id that starts like a question number.
var keyForms = map[string]string{
	"colon": `{"title": "T", "fields": [{"id": "f", "text": "Still true?", "type": "assumption_review", "assumptions": [
		{"label": "Port: 8080 is free"}, {"label": "Port"}, {"label": "a = b"}]}]}`,
	"alike rows": `{"title": "T", "fields": [{"id": "t", "text": "Rule?", "type": "triage", "dispositions": ["fix", "defer"],
		"triage_items": [{"label": "a b"}, {"label": "ab"}, {"label": "AB"}, {"label": "a-b"}]}]}`,
	"alike ids": `{"title": "T", "fields": [{"id": "a_b", "text": "One?", "type": "boolean"}, {"id": "aB", "text": "Two?", "type": "boolean"},
		{"id": "a-b", "text": "Three?", "type": "text_input"}]}`,
	"long row": `{"title": "T", "fields": [{"id": "assumed", "text": "Still true?", "type": "assumption_review", "assumptions": [
		{"label": "The deploy pipeline runs every integration test against a fresh database before it promotes a build"}]}]}`,
	"two-line row": `{"title": "T", "fields": [{"id": "t", "text": "Rule?", "type": "triage", "dispositions": ["fix", "defer"],
		"triage_items": [{"label": "first line\nsecond line"}, {"label": "other"}]}]}`,
	"numbers": `{"title": "T", "fields": [{"id": "sev", "text": "Severity?", "type": "single_select", "options": ["minor", "major"]},
		{"id": "note", "text": "Note?", "type": "text_input"}]}`,
	"number-like ids": `{"title": "T", "fields": [{"id": "x", "text": "X?", "type": "text_input"}, {"id": "1.5", "text": "Y?", "type": "text_input"},
		{"id": "1", "text": "Z?", "type": "text_input", "required": false}]}`,
}

func TestReplyKeys(t *testing.T) {
	tests := []struct {
		form, reply string
		want        map[string]any
		probs       []string
	}{
		{"colon", "f.Port: 8080 is free: accept\nf.Port: reject\nf.a = b: accept", map[string]any{
			"f": map[string]any{"Port: 8080 is free": "accept", "Port": "reject", "a = b": "accept"}}, nil},
		{"colon", "- `f.Port: 8080 is free`: edit: Port: 9090 is free\n**f.Port**: accept\nf.a = b = reject", map[string]any{
			"f": map[string]any{"Port: 8080 is free": map[string]any{"edit": "Port: 9090 is free"}, "Port": "accept", "a = b": "reject"}}, nil},
		{"alike rows", "t.a b: fix\nt.ab: defer\nt.AB: fix\nt.a-b: defer", map[string]any{
			"t": map[string]string{"a b": "fix", "ab": "defer", "AB": "fix", "a-b": "defer"}}, nil},
		{"alike rows", "t.a b: fix\nt.ab: defer\nT.Ab: fix\nt.a-b: defer", nil, []string{
			`answers.t.a b: reply line 3: "T.Ab" could mean t.a b, t.ab, t.AB or t.a-b: write the key exactly as the questionnaire shows it`,
			`answers.t: no ruling for "AB" (every row needs one)`,
		}},
		{"alike ids", "a_b: yes\naB: no\na-b: free text", map[string]any{"a_b": "Yes", "aB": "No", "a-b": "free text"}, nil},
		{"alike ids", "AB: yes", nil, []string{
			`answers.a_b: reply line 1: "AB" could mean a_b, aB or a-b: write the key exactly as the questionnaire shows it`,
			`answers.a_b: required, but not answered ("Yes" or "No")`,
			`answers.aB: required, but not answered ("Yes" or "No")`,
			"answers.a-b: required, but not answered (some text)",
		}},
		{"long row", "assumed.The deploy pipeline runs every integration test against a fresh database before it promotes a build: accept",
			map[string]any{"assumed": map[string]any{"The deploy pipeline runs every integration test against a fresh database before it promotes a build": "accept"}}, nil},
		{"two-line row", "t.first line second line: fix\nt.other: defer", map[string]any{
			"t": map[string]string{"first line\nsecond line": "fix", "other": "defer"}}, nil},
		{"number-like ids", "x: a\n1.5: b\n1: c", map[string]any{"x": "a", "1.5": "b", "1": "c"}, nil},
		// A question's number with a colon, as with a dot; no leading space kept.
		{"numbers", "1: minor\n2:   some text", map[string]any{"sev": "minor", "note": "some text"}, nil},
		{"numbers", "1. minor\n2.   some text", map[string]any{"sev": "minor", "note": "some text"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.form, func(t *testing.T) {
			f := formtest.MustParse(t, []byte(keyForms[tt.form]))
			answers, err := Parse(f, tt.reply, nil)
			var probs []string
			if err != nil {
				probs = problemStrings(err)
			}
			r, cerr := form.Collect(f, answers, nil)
			if cerr != nil {
				probs = append(probs, problemStrings(cerr)...)
			}
			if diff := cmp.Diff(tt.probs, probs); diff != "" {
				t.Errorf("%q: problems (-want +got):\n%s", tt.reply, diff)
			}
			if tt.probs == nil && r != nil {
				if diff := cmp.Diff(tt.want, r.Responses); diff != "" {
					t.Errorf("%q: responses (-want +got):\n%s", tt.reply, diff)
				}
			}
		})
	}
}

// skeletonLine is one line of a questionnaire's reply skeleton.
var skeletonLine = regexp.MustCompile("(?s)```\n(.*)```\n$")

// TestEveryKeyAnswerable fills in the reply skeleton of every test form
// and of keyForms, as a person would, with the first option of each
// question: every line must answer the question it stands for, so that no
// form that validates is unanswerable in markdown (and no re-ask loops).
func TestEveryKeyAnswerable(t *testing.T) {
	forms := formtest.All(t)
	for name, data := range keyForms {
		forms[name] = formtest.MustParse(t, []byte(data))
	}
	for name, f := range forms {
		t.Run(name, func(t *testing.T) {
			md := Render(f, nil).Markdown
			m := skeletonLine.FindStringSubmatch(md)
			if m == nil {
				return // nothing to answer
			}
			parts, _ := partIndex(f)
			var reply strings.Builder
			var keys []string
			for _, line := range strings.Split(strings.TrimSuffix(m[1], "\n"), "\n") {
				key := strings.TrimSuffix(line, ":")
				keys = append(keys, key)
				reply.WriteString(line + " " + answerFor(f, parts, key) + "\n")
			}
			answers, err := Parse(f, reply.String(), nil)
			if err != nil {
				t.Fatalf("reply:\n%s\n%v", reply.String(), err)
			}
			if len(answers) < len(keys) {
				t.Errorf("%d lines answered %d keys: %v\nreply:\n%s", len(keys), len(answers), answers, reply.String())
			}
		})
	}
}

// answerFor is a valid answer to the skeleton line key.
func answerFor(f *form.Form, parts map[string]*form.Part, key string) string {
	for id, pt := range parts {
		if lineKey(id) == key {
			return pt.Field.Options[0]
		}
	}
	fl := f.Field(key)
	switch {
	case fl == nil:
		return "?"
	case fl.Type == form.Ranking:
		return strings.Join(fl.Options[:fl.RankSlots()], ", ")
	case fl.Type == form.Number:
		if fl.Minimum != nil {
			return form.FormatValue(*fl.Minimum)
		}
		return "1"
	case fl.Type == form.Date:
		return "2026-01-05"
	case fl.Type == form.Boolean:
		return "yes"
	case len(fl.Choices()) > 0:
		return "1"
	}
	return "some text"
}
