package surfaces

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

func TestParseAnswersShapes(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["scope"])
	tests := []struct {
		name, in string
		want     map[string]any
	}{
		{"by id", `{"goal": "Refactor", "focus": ["tests"]}`, map[string]any{"goal": "Refactor", "focus": []any{"tests"}}},
		{"widget postback", `{"__elicitation_response__": true, "title": "Scope this work", "answers": {"goal": "Refactor"}}`, map[string]any{"goal": "Refactor"}},
		{"the widget's chat message", "Elicitation form submitted — parse and validate this response:\n```json\n" +
			`{"__elicitation_response__":true,"title":"Scope this work","answers":{"goal":"Refactor","focus":["tests"]}}` + "\n```",
			map[string]any{"goal": "Refactor", "focus": []any{"tests"}}},
		{"tool output", `{"questions": [], "answers": {"What are you trying to accomplish?": "Refactor", "Which areas matter here?": "security, tests"}}`,
			map[string]any{"goal": "Refactor", "focus": []string{"security", "tests"}}},
		{"several tool outputs", `[{"answers": {"What are you trying to accomplish?": "Investigate"}}, {"answers": {"Which areas matter here?": "tests,correctness"}}]`,
			map[string]any{"goal": "Investigate", "focus": []string{"correctness", "tests"}}},
		{"other text", `{"questions": [], "answers": {"What are you trying to accomplish?": "Write docs"}}`, map[string]any{"goal": "Write docs"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAnswers(f, []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAskRoundTrip answers every rendered question the way the host would

// report it and checks collect gets the options back.

// TestPostbackForAnotherForm: collect refuses a widget postback rendered
// from another form, by its form_id or its title.
func TestPostbackForAnotherForm(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["scope"])
	for _, doc := range []string{
		`{"__elicitation_response__": true, "form_id": "0123456789abcdef", "answers": {"goal": "Refactor"}}`,
		`{"__elicitation_response__": true, "title": "Another form", "answers": {"goal": "Refactor"}}`,
	} {
		_, err := ParseAnswers(f, []byte(doc))
		probs, ok := err.(problem.List)
		if !ok || len(probs) != 1 || (probs[0].Path != "form_id" && probs[0].Path != "title") {
			t.Errorf("ParseAnswers(%s) = %v, want one problem naming the other form", doc, err)
		}
	}
}

func TestAskRoundTrip(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["many"])
	out := map[string]any{
		"Which region should host it? (choose a group first)": "Group 2",
		"Which region should host it? (Group 2)":              "ap-northeast",
		"Which languages do you use? (choose a group first)":  "Group 1, Group 2",
		"Which languages do you use? (Group 1)":               "Rust, Go",
		"Which languages do you use? (Group 2)":               "C++",
		"Proceed with the migration?":                         "No",
		"Who owns the rollout?":                               "infra",
		"What codename should it have?":                       "bluebird",
		"Which build?":                                        "release",
		"Which combos?":                                       []any{"salt, pepper"},
	}
	data, _ := json.Marshal(map[string]any{"questions": []any{}, "answers": out})
	_, err := ParseAnswers(f, data)
	if err == nil || err.Error() != `answers["Which combos?"]: must be a string, as AskUserQuestion answers are (got a list)` {
		t.Fatalf("err = %v", err)
	}
	out["Which combos?"] = "oil"
	data, _ = json.Marshal(map[string]any{"questions": []any{}, "answers": out})
	answers, err := ParseAnswers(f, data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := form.Collect(f, answers, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"region": "ap-northeast", "langs": []string{"Go", "Rust", "C++"}, "ok": "No",
		"owner": "infra", "codename": "bluebird", "only": "release", "combo": []string{"oil"}}
	if diff := cmp.Diff(want, r.Responses); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}

// FuzzCollect feeds arbitrary answer documents to every test form: no panic,

// and either a response or a problem list.

func FuzzCollect(f *testing.F) {
	forms := formtest.Forms(f)
	f.Add(`{"goal": "Refactor", "focus": ["tests"]}`)
	f.Add(`Your questions have been answered: "What are you trying to accomplish?"="Refactor", "Which areas matter here?"=""a, b", tests". You can now continue with these answers in mind.`)
	f.Add(`[{"answers": {"Which areas matter here?": "a,,b"}}]`)
	f.Add(`{"__elicitation_response__": true, "answers": {"budget": 1e999}}`)
	f.Add(`{"goal": "\ud800", "goal": "\\\udc00", "focus": [1, "\ud83d\ude00"], "x\udbff": -1e999}`)
	f.Add(`{"findings.sqli": "fix now", "findings": {}, "themes.01": "x", "themes.1": "y", "assumed.db": "edit", "assumed.db.text": "z", "assumed.q.text": 1}`)
	f.Fuzz(func(t *testing.T, doc string) {
		for _, data := range forms {
			fm := formtest.MustParse(t, data)
			// As a reply is read (JSON, the widget's message,
			// AskUserQuestion's text or markdown): a response or a Failure.
			if _, err := Collect(fm, []Document{{Name: "reply", Format: FormatAuto, Data: []byte(doc)}}, nil); err != nil {
				if _, ok := err.(*Failure); !ok {
					t.Fatalf("Collect of a reply: error is %T", err)
				}
			}
			answers, err := ParseAnswers(fm, []byte(doc))
			if err != nil {
				if _, ok := err.(problem.List); !ok {
					t.Fatalf("ParseAnswers error is %T", err)
				}
				continue
			}
			if _, err := form.Collect(fm, answers, nil); err != nil {
				if _, ok := err.(problem.List); !ok {
					t.Fatalf("Collect error is %T", err)
				}
			}
		}
	})
}

const surrogateHint = "a lone UTF-16 surrogate escape, which is not a valid Unicode character (write the character itself, or a surrogate pair such as \\ud83d\\ude00)"

// badInputForm has a field of each kind the bad-input cases answer.
const badInputForm = `{"title": "T", "fields": [
	{"id": "a", "text": "A?", "type": "single_select", "options": ["x", "y"]},
	{"id": "b", "text": "B?", "type": "multi_select", "options": ["p", "q"], "required": false},
	{"id": "n", "text": "N?", "type": "number", "required": false},
	{"id": "t", "text": "T?", "type": "text_input", "required": false}]}`

func TestParseAnswersBadInput(t *testing.T) {
	f := formtest.MustParse(t, []byte(badInputForm))
	tests := []struct {
		name, in string
		want     []string
	}{
		{"duplicate answer", `{"a": "x", "a": "y"}`, []string{
			`answers.a: duplicate key (given 2 times: string "x", string "y"; give each key once)`,
		}},
		{"duplicate answer and other problems", `{"n": "s", "a": "x", "a": "z", "a": "y"}`, []string{
			`answers.a: duplicate key (given 3 times: string "x", string "z", string "y"; give each key once)`,
			`answers.n: must be a number (got string "s")`,
		}},
		{"duplicate in the widget postback", `{"__elicitation_response__": true, "title": "T", "answers": {"a": "x", "a": "y"}}`, []string{
			`answers.a: duplicate key (given 2 times: string "x", string "y"; give each key once)`,
		}},
		{"duplicate in an AskUserQuestion output", `{"questions": [], "answers": {"A?": "x", "A?": "y"}}`, []string{
			`answers["A?"]: duplicate key (given 2 times: string "x", string "y"; give each key once)`,
		}},
		{"duplicate in a list of AskUserQuestion outputs", `[{"answers": {"A?": "x", "A?": "y"}}]`, []string{
			`[0].answers["A?"]: duplicate key (given 2 times: string "x", string "y"; give each key once)`,
		}},
		{"number out of range", `{"a": "x", "n": 1e400}`, []string{
			"answers.n: must be a number within ±1.8e308 (got 1e400)",
		}},
		{"negative number out of range", `{"a": "x", "n": -1e400}`, []string{
			"answers.n: must be a number within ±1.8e308 (got -1e400)",
		}},
		{"number out of range for a text field", `{"a": "x", "t": 1e400}`, []string{
			"answers.t: must be a string (got number 1e400)",
		}},
		{"number out of range in the widget postback", `{"__elicitation_response__": true, "title": "T", "answers": {"a": "x", "n": 1e999}}`, []string{
			"answers.n: must be a number within ±1.8e308 (got 1e999)",
		}},
		{"lone high surrogate", `{"a": "x", "t": "ab\ud800cd"}`, []string{
			`answers.t: the text contains \ud800, ` + surrogateHint,
		}},
		{"lone low surrogate after an escaped backslash", `{"a": "x", "t": "\\\udc00"}`, []string{
			`answers.t: the text contains \udc00, ` + surrogateHint,
		}},
		{"high surrogate followed by a non-surrogate", `{"a": "x", "t": "\uD800\u0041"}`, []string{
			`answers.t: the text contains \uD800, ` + surrogateHint,
		}},
		{"lone surrogate in a choice", `{"a": "\ud800"}`, []string{
			`answers.a: the text contains \ud800, ` + surrogateHint,
		}},
		{"lone surrogate in a key", `{"a": "x", "t\udc00": "y"}`, []string{
			`answers["t\udc00"]: the key contains \udc00, ` + surrogateHint,
			`answers.t` + "\ufffd" + `: no field has this id (fields: "a", "b", "n", "t")`,
		}},
		{"lone surrogate in an AskUserQuestion answer", `{"questions": [], "answers": {"T?": "\ud800"}}`, []string{
			`answers["T?"]: the text contains \ud800, ` + surrogateHint,
		}},
		{"non-string option", `{"a": "x", "b": [1]}`, []string{
			"answers.b[0]: must be one of the options as a string (got number 1)",
		}},
		{"several bad options", `{"a": "x", "b": ["p", null, "z", ["q"], "p"]}`, []string{
			"answers.b[1]: must be one of the options as a string (got null)",
			"answers.b[3]: must be one of the options as a string (got a list)",
			`answers.b: "z" not among the options ("p", "q"); "p" chosen more than once`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			answers, err := ParseAnswers(f, []byte(tt.in))
			if err == nil {
				_, err = form.Collect(f, answers, nil)
			}
			probs, ok := err.(problem.List)
			if !ok {
				t.Fatalf("err = %#v, want a problem list", err)
			}
			if diff := cmp.Diff(tt.want, probs.Strings()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseAnswersKeepsValidText(t *testing.T) {
	f := formtest.MustParse(t, []byte(badInputForm))
	answers, err := ParseAnswers(f, []byte(`{"a": "x", "t": "\ud83d\ude00 \\ud800 \u00e9", "n": 1.7e308, "b": ["p"]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": "x", "t": `😀 \ud800 é`, "n": 1.7e308, "b": []any{"p"}}
	if diff := cmp.Diff(want, answers); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}

func TestParseResponseBadInput(t *testing.T) {
	f := formtest.MustParse(t, []byte(badInputForm))
	tests := []struct {
		name, in string
		want     []string
	}{
		{"duplicate response", `{"success": true, "responses": {"a": "x", "a": "y"}}`, []string{
			`response.responses.a: duplicate key (given 2 times: string "x", string "y"; give each key once)`,
		}},
		{"number out of range", `{"success": true, "responses": {"a": "x", "n": 1e400}}`, []string{
			"response.responses.n: must be a number within ±1.8e308 (got 1e400)",
		}},
		{"a wrong response", `{"success": true, "responses": {"a": "z"}}`, []string{
			`response.responses.a: "z" is not one of the options ("x", "y")`,
		}},
		{"duplicate answer", `{"a": "x", "a": "y"}`, []string{
			`response.a: duplicate key (given 2 times: string "x", string "y"; give each key once)`,
		}},
		{"bare answers missing a field", `{"b": ["p"]}`, []string{
			`response.a: required, but not answered (one of "x", "y")`,
		}},
		{"a tool output", `{"questions": [], "answers": {"A?": 1}}`, []string{
			`response.answers["A?"]: must be a string, as AskUserQuestion answers are (got number 1)`,
		}},
		{"a failed collect", `{"success": false, "problems": ["answers.a: required, but not answered"], "reask": {"field_ids": ["a"]}}`, []string{
			"response: is a failed collect (success: false): fix its problems, collect again and pass the successful result",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseResponse(f, []byte(tt.in), nil)
			probs, _ := err.(problem.List)
			if diff := cmp.Diff(tt.want, probs.Strings()); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseResponseShapes: collect's output and a response-log record
// (responses show --json) are responses with their id; a form whose field
// is named "responses" still gets its bare answers read as answers.
func TestParseResponseShapes(t *testing.T) {
	scope := formtest.MustParse(t, formtest.Forms(t)["scope"])
	own := formtest.MustParse(t, []byte(`{"title": "T", "fields": [
		{"id": "responses", "text": "R?", "type": "text_input"}, {"id": "response_id", "text": "I?", "type": "text_input"}]}`))
	answered := map[string]any{"goal": "Refactor", "focus": []string{"tests"}}
	tests := []struct {
		name   string
		f      *form.Form
		in     string
		id     string
		answer map[string]any
	}{
		{"collect output", scope, `{"success": true, "responses": {"goal": "Refactor", "focus": ["tests"]}, "response_id": "resp-1"}`, "resp-1", answered},
		{"log record", scope, `{"id": "1101918cf36c0e4d", "ts": "2026-11-30T22:11:24Z", "kind": "response", "response_id": "resp-2",
			"template_id": "dict", "shape": "08ee1012388f", "title": "Scope this work", "host": "cli", "via": "cli", "fields": 2,
			"inferred": 0, "kept": 0, "responses": {"goal": "Refactor", "focus": ["tests"]}}`, "resp-2", answered},
		{"bare answers", scope, `{"goal": "Refactor", "focus": ["tests"]}`, "", answered},
		{"a form's own responses field", own, `{"responses": {"x": 1}, "response_id": "abc"}`, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseResponse(tt.f, []byte(tt.in), nil)
			if tt.answer == nil {
				if probs, _ := err.(problem.List); len(probs) == 0 || !strings.HasPrefix(probs[0].String(), "response.responses: must be a string") {
					t.Fatalf("err = %v, want the answer to field responses refused", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.ResponseID != tt.id {
				t.Errorf("response id %q, want %q", r.ResponseID, tt.id)
			}
			if diff := cmp.Diff(tt.answer, r.Responses); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBigNumberKeepsItsText(t *testing.T) {
	f := formtest.MustParse(t, []byte(badInputForm))
	answers, err := ParseAnswers(f, []byte(`{"n": 1e400}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(answers)
	if err != nil || string(out) != `{"n":1e400}` {
		t.Errorf("Marshal = %s, %v; want {\"n\":1e400}", out, err)
	}
}

// TestCollectTakesTheWidgetsMessage: the chat message the widget sends is
// read as its JSON postback, not as a markdown reply.
func TestCollectTakesTheWidgetsMessage(t *testing.T) {
	f := formtest.MustParse(t, formtest.Forms(t)["scope"])
	msg := "Elicitation form submitted — parse and validate this response:\n```json\n" +
		`{"__elicitation_response__":true,"title":"Scope this work","answers":{"goal":"Refactor","focus":["tests"]}}` + "\n```"
	r, err := Collect(f, []Document{{Name: "answers", Format: FormatAuto, Data: []byte(msg)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"goal": "Refactor", "focus": []string{"tests"}}
	if diff := cmp.Diff(want, r.Responses); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}
