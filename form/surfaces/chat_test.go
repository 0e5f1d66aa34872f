package surfaces

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/ask"
	"github.com/elicit/elicit/form/codex"
	"github.com/elicit/elicit/form/native"
	"github.com/elicit/elicit/internal/formtest"
	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

// gateForm has a confirm, a ranking and a multi-select: what the tool
// output cases answer.
const gateForm = `{"title": "T", "fields": [
	{"id": "gate", "text": "Ship it?", "type": "confirm", "consequences": [{"label": "deploys"}]},
	{"id": "order", "text": "Order?", "type": "ranking", "options": ["a", "b"], "required": false},
	{"id": "tags", "text": "Tags?", "type": "multi_select", "options": ["x", "y", "z"], "required": false}]}`

func problemsOf(err error) []string {
	var probs problem.List
	if errors.As(err, &probs) {
		return probs.Strings()
	}
	if err != nil {
		return []string{err.Error()}
	}
	return nil
}

// TestToolOutputConflicts: tool outputs in one list that answer a question
// differently are reported like two documents that do, whichever tool gave
// them; the same answer given twice is no conflict.
func TestToolOutputConflicts(t *testing.T) {
	f := formtest.MustParse(t, []byte(gateForm))
	tests := []struct {
		name, in string
		want     map[string]any
		probs    []string
	}{
		{"request_user_input twice", `[{"answers":{"gate":{"answers":["Approve"]}}},{"answers":{"gate":{"answers":["Abort"]}}}]`, nil, []string{
			`answers.gate: answered in both [0].answers["gate"] ("Approve") and [1].answers["gate"] ("Abort"); give one answer`,
		}},
		{"AskUserQuestion twice", `[{"answers":{"Ship it? If approved: deploys.":"Approve"}},{"answers":{"Ship it? If approved: deploys.":"Abort"}}]`, nil, []string{
			`answers.gate: answered in both [0].answers["Ship it? If approved: deploys."] ("Approve") and [1].answers["Ship it? If approved: deploys."] ("Abort"); give one answer`,
		}},
		{"one of each", `[{"answers":{"Ship it? If approved: deploys.":"Abort"}},{"answers":{"gate":{"answers":["Approve"]}}}]`, nil, []string{
			`answers.gate: answered in both [0].answers["Ship it? If approved: deploys."] ("Abort") and [1].answers["gate"] ("Approve"); give one answer`,
		}},
		{"one of each, request_user_input first", `[{"answers":{"gate":{"answers":["Approve"]}}},{"answers":{"Ship it? If approved: deploys.":"Abort"}}]`, nil, []string{
			`answers.gate: answered in both [0].answers["gate"] ("Approve") and [1].answers["Ship it? If approved: deploys."] ("Abort"); give one answer`,
		}},
		{"a multi-select twice", `[{"answers":{"Tags?":"x, y"}},{"answers":{"Tags?":"z"}}]`, nil, []string{
			`answers.tags: answered in both [0].answers["Tags?"] (["x" "y"]) and [1].answers["Tags?"] (["z"]); give one answer`,
		}},
		{"the same answer twice", `[{"answers":{"gate":{"answers":["Approve"]}}},{"answers":{"Ship it? If approved: deploys.":"Approve (Recommended)"}},{"answers":{"Tags?":"y, x"}},{"answers":{"Tags?":"x,y"}}]`,
			map[string]any{"gate": "Approve", "tags": []string{"x", "y"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAnswers(f, []byte(tt.in))
			if diff := cmp.Diff(tt.probs, problemsOf(err)); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got); err == nil && diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
	// The library readers report it too, when given several calls.
	_, err := codex.Answers(f, map[string]any{"gate": map[string]any{"answers": []any{"Approve"}}}, map[string]any{"gate": map[string]any{"answers": []any{"Abort"}}})
	if diff := cmp.Diff([]string{`answers.gate: answered twice at answers["gate"] ("Approve", then "Abort"); give one answer`}, problemsOf(err)); diff != "" {
		t.Errorf("codex.Answers (-want +got):\n%s", diff)
	}
	_, err = ask.Answers(f, map[string]any{"Tags?": "x"}, map[string]any{"Tags?": "y"})
	if diff := cmp.Diff([]string{`answers.tags: answered twice at answers["Tags?"] (["x"], then ["y"]); give one answer`}, problemsOf(err)); diff != "" {
		t.Errorf("ask.Answers (-want +got):\n%s", diff)
	}
}

// TestToolOutputBadMember: one malformed member of a request_user_input
// result is reported by its path; the document is not taken for
// AskUserQuestion's output.
func TestToolOutputBadMember(t *testing.T) {
	f := formtest.MustParse(t, []byte(gateForm))
	tests := []struct{ in, want string }{
		{`{"answers":{"gate":{"answers":["Approve"]},"order_1":{"answer":["a"]}}}`,
			`answers["order_1"]: must be {"answers": ["<chosen label or your text>"]}, as request_user_input answers (got an object with "answer": did you mean "answers"?)`},
		{`[{"answers":{"gate":{"answers":["Approve"]},"order_1":{"answer":["a"]}}}]`,
			`[0].answers["order_1"]: must be {"answers": ["<chosen label or your text>"]}, as request_user_input answers (got an object with "answer": did you mean "answers"?)`},
		{`{"answers":{"gate":{"answers":["Approve"]},"order_1":"a"}}`,
			`answers["order_1"]: must be {"answers": ["<chosen label or your text>"]}, as request_user_input answers (got string "a")`},
		{`{"answers":{"gate":{"answer":["Approve"]},"order_1":{"answer":["a"]}, "order_2":"b"}}`,
			`answers["gate"]: must be {"answers": ["<chosen label or your text>"]}, as request_user_input answers (got an object with "answer": did you mean "answers"?)`},
		{`{"answers":{"gate":{"answers":"Approve"}}}`,
			`answers["gate"]: must be {"answers": ["<chosen label or your text>"]}, as request_user_input answers (got an object whose "answers" is string "Approve")`},
	}
	for _, tt := range tests {
		_, err := ParseAnswers(f, []byte(tt.in))
		got := problemsOf(err)
		if len(got) == 0 || got[0] != tt.want {
			t.Errorf("%s:\n got %q\nwant first %q", tt.in, got, tt.want)
		}
		for _, p := range got {
			if strings.Contains(p, "no question of this form has this text") {
				t.Errorf("%s: read as AskUserQuestion's output: %q", tt.in, got)
			}
		}
	}
}

// TestChatSurfacesAgree answers the same choices through AskUserQuestion's
// and request_user_input's outputs: labels with their badges, in another
// case or spacing, Not now, a raw option, a two-tier picker's tiers, and a
// first tier whose chosen group's follow-up is missing. Both readers must
// agree (they share form.ChatAnswers).
func TestChatSurfacesAgree(t *testing.T) {
	forms := formtest.Forms(t)
	type answer struct {
		field string
		group int // 0: the field's question; k: group k's follow-up
		text  string
	}
	tests := []struct {
		form    string
		answers []answer
		want    map[string]any
		probs   []string
	}{
		{"pushback", []answer{{"retries", 0, "Fixed 3x retry (your approach)"}}, map[string]any{"retries": "Fixed 3x retry"}, nil},
		{"pushback", []answer{{"retries", 0, " Fixed 3x retry (YOUR APPROACH) "}}, map[string]any{"retries": "Fixed 3x retry"}, nil},
		{"pushback", []answer{{"retries", 0, "Exponential backoff + jitter"}}, map[string]any{"retries": "Exponential backoff + jitter"}, nil},
		{"pushback", []answer{{"retries", 0, "Exponential backoff + jitter (Suggested)"}}, map[string]any{"retries": "Exponential backoff + jitter"}, nil},
		{"pushback", []answer{{"retries", 0, "Something else (Recommended) (your approach)"}}, map[string]any{"retries": "Something else"}, nil},
		{"progress-single", []answer{{"exec", 0, "not now"}}, map[string]any{"exec": ""}, nil},
		{"progress-single", []answer{{"exec", 0, "Not now"}}, map[string]any{"exec": ""}, nil},
		{"many", []answer{{"region", 0, "group 2"}, {"region", 2, "ap-south"}}, map[string]any{"region": "ap-south"}, nil},
		{"many", []answer{{"region", 0, "Group 2"}, {"region", 1, "us-east"}}, nil, []string{
			"answers.region: the first tier chose %s but %s was not answered", "2",
		}},
		{"many", []answer{{"region", 0, "Group 1"}}, nil, []string{
			"answers.region: the first tier chose %s but %s was not answered", "1",
		}},
		{"many", []answer{{"region", 0, "eu-central (Recommended)"}}, map[string]any{"region": "eu-central"}, nil},
	}
	for _, tt := range tests {
		f := formtest.MustParse(t, forms[tt.form])
		ar, cr := ask.Render(f), codex.Render(f)
		askOut, codexOut := map[string]any{}, map[string]any{}
		for _, a := range tt.answers {
			askOut[askQuestion(t, ar, a.field, a.group)] = a.text
			codexOut[codexQuestion(t, cr, a.field, a.group)] = map[string]any{"answers": []any{a.text}}
		}
		for name, doc := range map[string]map[string]any{"AskUserQuestion": askOut, "request_user_input": codexOut} {
			data, _ := json.Marshal(map[string]any{"answers": doc})
			got, err := ParseAnswers(f, data)
			var want []string
			if tt.probs != nil { // the message, and the group whose follow-up is missing
				k, _ := strconv.Atoi(tt.probs[1])
				group, follow := ar.Followups[0].Groups[k-1].Label, "the follow-up question for it"
				if name == "request_user_input" {
					group, follow = cr.Followups[0].Groups[k-1].Label, "its follow-up question (region_group_"+tt.probs[1]+")"
				}
				want = append(want, fmt.Sprintf(tt.probs[0], strconv.Quote(group), follow))
			}
			if diff := cmp.Diff(want, problemsOf(err)); diff != "" {
				t.Errorf("%s %v on %s: problems (-want +got):\n%s", tt.form, tt.answers, name, diff)
			}
			if diff := cmp.Diff(tt.want, got); err == nil && diff != "" {
				t.Errorf("%s %v on %s: answers (-want +got):\n%s", tt.form, tt.answers, name, diff)
			}
		}
	}
}

// askQuestion is the text of field id's question (group 0) or of its
// group k's follow-up, as rendered for AskUserQuestion.
func askQuestion(t *testing.T, r *ask.Result, id string, k int) string {
	t.Helper()
	if k > 0 {
		for _, fu := range r.Followups {
			if fu.QuestionID == id {
				return fu.Groups[k-1].Question.Question
			}
		}
	}
	for i, batch := range r.Batches {
		for j, p := range batch {
			if p.QuestionID == id {
				return r.AskUserQuestion[i].Questions[j].Question
			}
		}
	}
	t.Fatalf("no AskUserQuestion question for %s", id)
	return ""
}

// codexQuestion is the id of field id's question or of its group k's
// follow-up, as rendered for request_user_input.
func codexQuestion(t *testing.T, r *codex.Result, id string, k int) string {
	t.Helper()
	for _, fu := range r.Followups {
		if fu.QuestionID == id {
			if k > 0 {
				return fu.Groups[k-1].Question.ID
			}
			return fu.After
		}
	}
	return id
}

// TestBadgeNeverCollides: an option written like another option plus a
// badge ("Keep" recommended beside "Keep (Recommended)") keeps every label
// distinct on the chat tools and the native dialog, and each label maps
// back to its own option.
func TestBadgeNeverCollides(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title":"x","fields":[{"id":"f","text":"Which?","type":"single_select",
		"options":["Keep","Keep (Recommended)","Drop"],"default":"Keep"}]}`))
	want := []string{"Keep", "Keep (Recommended)", "Drop"}
	askLabels, codexLabels := chatLabels(f)
	var titles []string
	var schema struct {
		Properties map[string]struct{ OneOf []struct{ Title string } }
	}
	data, _ := json.Marshal(native.Render(f).Schema)
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	for _, one := range schema.Properties["f"].OneOf {
		titles = append(titles, one.Title)
	}
	for name, got := range map[string][]string{"AskUserQuestion": askLabels, "request_user_input": codexLabels, "native": titles} {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s labels (-want +got):\n%s", name, diff)
		}
	}
	for _, label := range want {
		chatAnswer(t, f, label, label)
		// The markdown reply takes the option written as typed.
		r, err := Collect(f, []Document{{Name: "reply", Data: []byte("f: " + label)}}, nil)
		if err != nil || r.Responses["f"] != label {
			t.Errorf("markdown answered %q: got %v, %v", label, r, err)
		}
	}
}

// TestOptionNamedOther: an option named "Other" is sent as "Other (option)"
// (the hosts add a free-text Other of their own), and that label, the
// option's own name, and free text all map back without loss.
func TestOptionNamedOther(t *testing.T) {
	f := formtest.MustParse(t, []byte(`{"title":"x","fields":[{"id":"f","text":"Which?","type":"single_select",
		"options":["Mine","other","Theirs"],"default":"other"}]}`))
	want := []string{"other (option) (Recommended)", "Mine", "Theirs"}
	askLabels, codexLabels := chatLabels(f)
	for name, got := range map[string][]string{"AskUserQuestion": askLabels, "request_user_input": codexLabels} {
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s labels (-want +got):\n%s", name, diff)
		}
	}
	for answer, wantValue := range map[string]string{"other (option) (Recommended)": "other", "other (option)": "other", "other": "other", "Mine": "Mine", "a third way": "a third way"} {
		chatAnswer(t, f, answer, wantValue)
	}
}

// chatLabels are the option labels of f's one question "Which?" (id f) on
// AskUserQuestion and request_user_input.
func chatLabels(f *form.Form) (askLabels, codexLabels []string) {
	for _, o := range ask.Render(f).AskUserQuestion[0].Questions[0].Options {
		askLabels = append(askLabels, o.Label)
	}
	for _, o := range codex.Render(f).RequestUserInput[0].Questions[0].Options {
		codexLabels = append(codexLabels, o.Label)
	}
	return askLabels, codexLabels
}

// chatAnswer answers that question with answer on both tools and checks
// the value read back.
func chatAnswer(t *testing.T, f *form.Form, answer, want string) {
	t.Helper()
	for name, doc := range map[string]any{
		"AskUserQuestion":    map[string]any{"Which?": answer},
		"request_user_input": map[string]any{"f": map[string]any{"answers": []any{answer}}},
	} {
		data, _ := json.Marshal(map[string]any{"answers": doc})
		got, err := ParseAnswers(f, data)
		if err != nil || got["f"] != want {
			t.Errorf("%s answered %q: got %v, %v; want %q", name, answer, got, err, want)
		}
	}
}
