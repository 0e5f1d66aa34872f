package form

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestConstructsDecode(t *testing.T) {
	forms := testForms(t)
	delib := mustParse(t, forms["deliberation"]).Fields[0]
	if diff := cmp.Diff(map[string][]string{"PostgreSQL": {"architect", "security"}, "SQLite": {"performance"}}, delib.Endorsements); diff != "" {
		t.Errorf("endorsements (-want +got):\n%s", diff)
	}
	triage := mustParse(t, forms["triage"]).Fields[0]
	if got := itemKeys(&triage); !cmp.Equal(got, []string{"sqli", "Unused import in the util package", "race"}) {
		t.Errorf("triage keys = %q", got)
	}
	if triage.Suggested.Rulings["sqli"] != "fix now" || triage.Suggested.Order != nil {
		t.Errorf("triage suggested = %+v", triage.Suggested)
	}
	confirm := mustParse(t, forms["confirm"])
	if !cmp.Equal(confirm.Fields[0].Options, ConfirmOptions()) || !cmp.Equal(confirm.Fields[1].Options, []string{"Deploy", "Hold"}) {
		t.Errorf("confirm options = %q, %q", confirm.Fields[0].Options, confirm.Fields[1].Options)
	}
	ranking := mustParse(t, forms["ranking"])
	if ranking.Fields[0].RankSlots() != 3 || ranking.Fields[1].RankSlots() != 2 {
		t.Errorf("rank slots = %d, %d", ranking.Fields[0].RankSlots(), ranking.Fields[1].RankSlots())
	}
	if !cmp.Equal(ranking.Fields[0].Suggested.Order, []string{"Reliability", "Performance", "Onboarding"}) {
		t.Errorf("ranking suggested = %+v", ranking.Fields[0].Suggested)
	}
	review := mustParse(t, forms["assumptions"]).Fields[0]
	if len(review.Items()) != 3 || review.Items()[2].Key() != "Deploys go through the CI pipeline" || review.Suggested.Rulings["go"] != "accept" {
		t.Errorf("assumption review = %+v", review)
	}
}

// constructProblemCases are invalid construct forms with every problem the
// parser must report: each rule of the five later constructs.
var constructProblemCases = []struct {
	name string
	in   string
	want []string
}{
	{"deliberation without endorsements or options", field(`{"id": "d", "text": "D?", "type": "deliberation"}`), []string{
		"fields[0].options: type deliberation needs a list of 1 or more options",
		"fields[0].endorsements: missing (a deliberation maps options to the voices that endorse them: {option: [names]})",
	}},
	{"deliberation endorsements malformed", field(`{"id": "d", "text": "D?", "type": "deliberation", "options": ["a", "b"],
			"endorsements": {"a": [], "b": ["x", "", 3, "x"], "c": ["y"], "a": ["z"]}}`), []string{
		"fields[0].endorsements.a: must be a list of 1 or more names of endorsing voices (got array of 0)",
		"fields[0].endorsements.b[1]: is empty (name the voice)",
		"fields[0].endorsements.b[2]: must be a string naming an endorsing voice (got number 3)",
		`fields[0].endorsements.b[3]: duplicate voice "x" (same as fields[0].endorsements.b[0])`,
		`fields[0].endorsements.c: "c" is not one of the options ("a", "b")`,
	}},
	{"deliberation endorsements empty", field(`{"id": "d", "text": "D?", "type": "deliberation", "options": ["a"], "endorsements": {}}`), []string{
		"fields[0].endorsements: is empty (a deliberation with no endorsements is a decision: name at least one voice behind an option)",
	}},
	{"endorsements on a decision", field(`{"id": "d", "text": "D?", "type": "decision", "options": ["a"], "endorsements": {"a": ["x"]}}`), []string{
		"fields[0].endorsements: not a key of type decision (it belongs to deliberation)",
	}},
	{"triage without items or dispositions", field(`{"id": "t", "text": "T?", "type": "triage"}`), []string{
		"fields[0].triage_items: missing (a triage board lists the rows to rule on: [{label, id?, detail?, tag?}])",
		`fields[0].dispositions: missing (a triage board offers 2 or more rulings, e.g. ["fix", "defer", "dismiss"])`,
	}},
	{"triage items malformed", field(`{"id": "t", "text": "T?", "type": "triage", "dispositions": ["fix"],
			"triage_items": [3, {"id": ""}, {"label": "a", "tag": 1, "source": "x"}, {"label": "b", "id": "k"}, {"label": "c", "id": "k"}, {"label": "a"}]}`), []string{
		"fields[0].triage_items[0]: must be an object {label, id?, detail?, tag?} (got number 3)",
		"fields[0].triage_items[1].id: must not be empty",
		"fields[0].triage_items[1].label: missing (every row needs a label)",
		"fields[0].triage_items[2].tag: must be a string (got number 1)",
		"fields[0].triage_items[2].source: unknown key (known keys: label, id, detail, tag)",
		`fields[0].triage_items[4]: duplicate key "k" (same as fields[0].triage_items[3]; a row's answer key is its id, or its label when it has none)`,
		`fields[0].triage_items[5]: duplicate key "a" (same as fields[0].triage_items[2]; a row's answer key is its id, or its label when it has none)`,
		"fields[0].dispositions: needs 2 or more rulings to choose from (got 1)",
	}},
	{"triage keys alike but for white space", field(`{"id": "t", "text": "T?", "type": "triage", "dispositions": ["fix", "defer"],
			"triage_items": [{"label": "a b"}, {"label": "a  b"}, {"label": "x", "id": " a\nb"}, {"label": "ab"}]}`), []string{
		`fields[0].triage_items[1]: key "a  b" differs from the key of fields[0].triage_items[0] only in white space, so the two rows cannot be told apart where keys are typed (give one an id)`,
		`fields[0].triage_items[2]: key " a\nb" differs from the key of fields[0].triage_items[0] only in white space, so the two rows cannot be told apart where keys are typed (give one an id)`,
	}},
	{"triage items empty", field(`{"id": "t", "text": "T?", "type": "triage", "triage_items": [], "dispositions": "fix"}`), []string{
		"fields[0].triage_items: must be a list of 1 or more {label, id?, detail?, tag?} objects (got array of 0)",
		`fields[0].dispositions: must be a list of strings (got string "fix")`,
	}},
	{"triage dispositions malformed", field(`{"id": "t", "text": "T?", "type": "triage", "triage_items": [{"label": "a"}],
			"dispositions": ["fix", "", "fix", "defer "]}`), []string{
		"fields[0].dispositions[1]: empty disposition (a disposition needs a label)",
		`fields[0].dispositions[2]: duplicate disposition "fix" (same as fields[0].dispositions[0])`,
		`fields[0].dispositions[3]: disposition "defer " has leading or trailing white space (write "defer")`,
	}},
	{"triage suggested malformed", field(`{"id": "t", "text": "T?", "type": "triage", "triage_items": [{"label": "a"}, {"label": "b"}],
			"dispositions": ["fix", "defer"], "suggested": {"a": "ignore", "z": "fix", "b": 1}}`), []string{
		`fields[0].suggested.a: "ignore" is not one of the dispositions ("fix", "defer")`,
		`fields[0].suggested.z: "z" is not the key of a row ("a", "b")`,
		"fields[0].suggested.b: must be a string (got number 1)",
	}},
	{"triage suggested a list", field(`{"id": "t", "text": "T?", "type": "triage", "triage_items": [{"label": "a"}],
			"dispositions": ["fix", "defer"], "suggested": ["fix"], "options": ["x"]}`), []string{
		"fields[0].options: not a key of type triage (it belongs to single_select, multi_select, text_input, decision, pushback, progress, deliberation, confirm, ranking)",
		"fields[0].suggested: must be an object mapping row keys to suggested rulings (got array of 1)",
	}},
	{"suggested on a select", field(`{"id": "s", "text": "S?", "type": "single_select", "options": ["a"], "suggested": "a"}`), []string{
		"fields[0].suggested: not a key of type single_select (it belongs to triage, ranking, assumption_review)",
	}},
	{"confirm without consequences", field(`{"id": "c", "text": "C?", "type": "confirm", "options": ["Yes"], "default": "Yes", "recommended": "Yes"}`), []string{
		"fields[0].default: not allowed on confirm: nothing is pre-selected on a confirm: approving must be an explicit act",
		"fields[0].recommended: not allowed on confirm: a confirm recommends neither option: approving must be an explicit act",
		"fields[0].consequences: missing (a confirm lists what the action will do: [{label, severity?, detail?}])",
		`fields[0].options: a confirm has exactly 2 options, approve and abort (got 1; leave options out for "Approve" and "Abort")`,
	}},
	{"confirm consequences malformed", field(`{"id": "c", "text": "C?", "type": "confirm", "options": ["a", "b", "c"],
			"consequences": [{"severity": "high"}, "drop", {"label": "x", "severity": 2, "impact": "y"}]}`), []string{
		"fields[0].consequences[0].label: missing (every consequence needs a label)",
		`fields[0].consequences[1]: must be an object {label, severity?, detail?} (got string "drop")`,
		"fields[0].consequences[2].severity: must be a string (got number 2)",
		"fields[0].consequences[2].impact: unknown key (known keys: label, severity, detail)",
		`fields[0].options: a confirm has exactly 2 options, approve and abort (got 3; leave options out for "Approve" and "Abort")`,
	}},
	{"confirm consequences empty", field(`{"id": "c", "text": "C?", "type": "confirm", "consequences": []}`), []string{
		"fields[0].consequences: must be a list of 1 or more {label, severity?, detail?} objects (got array of 0)",
	}},
	{"consequences on a boolean", field(`{"id": "b", "text": "B?", "type": "boolean", "consequences": [{"label": "x"}]}`), []string{
		"fields[0].consequences: not a key of type boolean (it belongs to confirm)",
	}},
	{"ranking too few options", field(`{"id": "r", "text": "R?", "type": "ranking", "options": ["a"], "top_n": 2, "default": ["a"]}`), []string{
		"fields[0].default: not allowed on ranking: a ranking takes no default order: give a proposed order as suggested, which is shown as a proposal",
		"fields[0].options: a ranking orders 2 or more options (got 1)",
		"fields[0].top_n: is 2, but there are only 1 options to rank",
	}},
	{"ranking without options", field(`{"id": "r", "text": "R?", "type": "ranking"}`), []string{
		"fields[0].options: type ranking needs a list of 2 or more options",
	}},
	{"ranking with an empty list of options", field(`{"id": "r", "text": "R?", "type": "ranking", "options": []}`), []string{
		"fields[0].options: type ranking needs a list of 2 or more options",
	}},
	{"ranking top_n malformed", `{"title": "T", "fields": [
			{"id": "r", "text": "R?", "type": "ranking", "options": ["a", "b"], "top_n": 1.5},
			{"id": "s", "text": "S?", "type": "ranking", "options": ["a", "b"], "top_n": "2"},
			{"id": "u", "text": "U?", "type": "ranking", "options": ["a", "b"], "top_n": 0}]}`, []string{
		"fields[0].top_n: must be a positive whole number of options to rank (got 1.5)",
		`fields[1].top_n: must be a number (got string "2")`,
		"fields[2].top_n: must be a positive whole number of options to rank (got 0)",
	}},
	{"ranking suggested malformed", `{"title": "T", "fields": [
			{"id": "r", "text": "R?", "type": "ranking", "options": ["a", "b", "c"], "suggested": ["a", "z", "a"]},
			{"id": "s", "text": "S?", "type": "ranking", "options": ["a", "b", "c"], "top_n": 1, "suggested": {"a": 1}},
			{"id": "u", "text": "U?", "type": "ranking", "options": ["a", "b", "c"], "top_n": 2, "suggested": ["a", 2]}]}`, []string{
		`fields[0].suggested: "z" not among the options ("a", "b", "c")`,
		`fields[0].suggested: proposes "a" more than once (an order names each option once)`,
		"fields[1].suggested: must be a list of options in the proposed order (got object)",
		"fields[2].suggested[1]: must be a string (got number 2)",
		"fields[2].suggested: proposes 1 option(s); a proposed order names exactly 2 (top_n)",
	}},
	{"ranking suggested too short", field(`{"id": "r", "text": "R?", "type": "ranking", "options": ["a", "b", "c"], "suggested": ["b", "a"]}`), []string{
		"fields[0].suggested: proposes 2 option(s); a proposed order names exactly 3 (every option)",
	}},
	{"top_n on a select", field(`{"id": "s", "text": "S?", "type": "multi_select", "options": ["a"], "top_n": 1}`), []string{
		"fields[0].top_n: not a key of type multi_select (it belongs to ranking)",
	}},
	{"assumption review without assumptions", field(`{"id": "a", "text": "A?", "type": "assumption_review", "dispositions": ["ok", "no"], "default": {}}`), []string{
		"fields[0].dispositions: not allowed on assumption_review: an assumption review's rulings are fixed (accept, edit, reject)",
		"fields[0].default: not allowed on assumption_review: an assumption review takes no default rulings: pre-mark accepts with suggested",
		"fields[0].assumptions: missing (an assumption review lists what was inferred: [{label, id?, detail?, source?}])",
	}},
	{"assumptions malformed", field(`{"id": "a", "text": "A?", "type": "assumption_review",
			"assumptions": [{"label": "x", "tag": "t"}, {"label": "x", "id": "x2"}, {"label": "y", "id": "y.text"}, {"label": "z", "id": "x"}],
			"suggested": {"x": "reject", "x2": "accept", "q": "accept"}}`), []string{
		"fields[0].assumptions[0].tag: unknown key (known keys: label, id, detail, source)",
		`fields[0].assumptions[3]: duplicate key "x" (same as fields[0].assumptions[0]; a row's answer key is its id, or its label when it has none)`,
		`fields[0].assumptions[1].label: duplicate label "x" (same as fields[0].assumptions[0]; two rows that read alike cannot be told apart)`,
		`fields[0].assumptions[2]: key "y.text" ends in ".text", which flat surfaces use for an edit's replacement text (give the row another id)`,
		`fields[0].suggested.x: may only suggest "accept" (got "reject"): an edit or a rejection is the user's to make`,
		`fields[0].suggested.q: "q" is not the key of a row ("x", "x2", "y.text")`,
	}},
	{"answer namespaces", `{"title": "T", "fields": [
			{"id": "r", "text": "R?", "type": "ranking", "options": ["a", "b"]},
			{"id": "r.1", "text": "R1?", "type": "boolean"},
			{"id": "t.x", "text": "TX?", "type": "boolean"},
			{"id": "t", "text": "T?", "type": "triage", "triage_items": [{"label": "x"}], "dispositions": ["a", "b"]}]}`, []string{
		`fields[1].id: "r.1" is inside the answers of ranking "r" (flat surfaces answer it as "r.<slot>"); rename one of them`,
		`fields[2].id: "t.x" is inside the answers of triage "t" (flat surfaces answer it as "t.<row>"); rename one of them`,
	}},
	{"construct defaults fail their own validation", `{"title": "T", "fields": [
			{"id": "d", "text": "D?", "type": "deliberation", "options": ["a"], "endorsements": {"a": ["x"]}, "default": "b"},
			{"id": "t", "text": "T?", "type": "triage", "triage_items": [{"label": "x"}, {"label": "y"}], "dispositions": ["a", "b"], "default": {"x": "c"}}]}`, []string{
		`fields[0].default: "b" is not one of the options ("a")`,
		`fields[1].default.x: "c" is not one of the dispositions ("a", "b")`,
		`fields[1].default: no ruling for "y" (every row needs one)`,
	}},
}

func TestConstructAnswers(t *testing.T) {
	forms := testForms(t)
	tests := []struct {
		name, form string
		answers    map[string]any
		want       map[string]any
		probs      []string
	}{
		{"deliberation", "deliberation", map[string]any{"engine": "SQLite"}, map[string]any{"engine": "SQLite"}, nil},
		{"deliberation not an option", "deliberation", map[string]any{"engine": "MySQL"}, nil, []string{
			`answers.engine: "MySQL" is not one of the options ("PostgreSQL", "SQLite", "DynamoDB")`,
		}},
		{"triage whole", "triage", map[string]any{"findings": map[string]any{"sqli": "fix now", "Unused import in the util package": "dismiss", "race": "defer"}},
			map[string]any{"findings": map[string]string{"sqli": "fix now", "Unused import in the util package": "dismiss", "race": "defer"}}, nil},
		{"triage dotted", "triage", map[string]any{"findings.sqli": "fix now", "findings.Unused import in the util package": "dismiss", "findings.race": "defer", "notes": "No"},
			map[string]any{"findings": map[string]string{"sqli": "fix now", "Unused import in the util package": "dismiss", "race": "defer"}, "notes": "No"}, nil},
		{"triage partial", "triage", map[string]any{"findings": map[string]any{"sqli": "fix now", "race": ""}}, nil, []string{
			`answers.findings: no ruling for "Unused import in the util package", "race" (every row needs one)`,
		}},
		{"triage bad rulings", "triage", map[string]any{"findings.sqli": "fix later", "findings.race": 3, "findings.xss": "defer", "findings.Unused import in the util package": "defer"}, nil, []string{
			`answers.findings: "xss" not among the rows ("sqli", "Unused import in the util package", "race")`,
			`answers.findings.sqli: "fix later" is not one of the dispositions ("fix now", "defer", "dismiss")`,
			"answers.findings.race: must be one of the dispositions as a string (got number 3)",
		}},
		{"triage both shapes", "triage", map[string]any{"findings": map[string]any{"sqli": "defer"}, "findings.race": "defer"}, nil, []string{
			"answers.findings: given both whole and as dotted keys (findings.race): give one shape",
		}},
		{"triage unanswered", "triage", map[string]any{}, nil, []string{
			`answers.findings: required, but not answered (a ruling for every row: {row key: one of "fix now", "defer", "dismiss"})`,
		}},
		{"triage not an object", "triage", map[string]any{"findings": []any{"fix now"}}, nil, []string{
			"answers.findings: must be an object mapping each row's key to its ruling (got a list)",
		}},
		{"ranking whole", "ranking", map[string]any{"themes": []any{"Onboarding", "Reliability", "Performance"}, "hires": []any{"SRE", "Backend"}},
			map[string]any{"themes": []string{"Onboarding", "Reliability", "Performance"}, "hires": []string{"SRE", "Backend"}}, nil},
		{"ranking dotted", "ranking", map[string]any{"themes.2": "Reliability", "themes.1": "Performance", "themes.3": "Onboarding"},
			map[string]any{"themes": []string{"Performance", "Reliability", "Onboarding"}}, nil},
		{"ranking bad slots", "ranking", map[string]any{"themes.01": "Reliability", "themes.1": "Performance", "themes.x": "Onboarding", "themes.4": "Onboarding", "hires.1": "SRE"}, nil, []string{
			"answers.themes.1: rank 1 is also given as themes.01 (give each slot once)",
			"answers.themes.4: there is no rank 4 (ranking \"themes\" has slots 1 to 3)",
			`answers.themes.x: not a rank slot of ranking "themes" (the slots are themes.1 to themes.3)`,
			"answers.themes: rank 2, 3 not given (a ranking fills every slot from 1 to 3)",
			"answers.hires: rank 2 not given (a ranking fills every slot from 1 to 2)",
		}},
		{"ranking bad order", "ranking", map[string]any{"themes": []any{"Reliability", "Reliability", "Speed", 4}, "hires": []any{"SRE"}}, nil, []string{
			"answers.themes[3]: must be one of the options as a string (got number 4)",
			`answers.themes: "Speed" not among the options ("Reliability", "Onboarding", "Performance"); ranks "Reliability" more than once; ranks 4 option(s); rank exactly 3 (every option)`,
			"answers.hires: ranks 1 option(s); rank exactly 2 (top_n)",
		}},
		{"ranking unanswered", "ranking", map[string]any{"hires": []any{}}, nil, []string{
			`answers.themes: required, but not answered (a list of 3 of "Reliability", "Onboarding", "Performance", best first)`,
		}},
		{"assumptions whole", "assumptions", map[string]any{"assumed": map[string]any{"go": "accept", "db": map[string]any{"edit": "PostgreSQL and Redis"}, "Deploys go through the CI pipeline": "reject"}},
			map[string]any{"assumed": map[string]any{"go": "accept", "db": map[string]any{"edit": "PostgreSQL and Redis"}, "Deploys go through the CI pipeline": "reject"}}, nil},
		{"assumptions dotted", "assumptions", map[string]any{"assumed.go": "accept", "assumed.db": "edit", "assumed.db.text": "PostgreSQL and Redis", "assumed.Deploys go through the CI pipeline": "reject", "assumed.go.text": ""},
			map[string]any{"assumed": map[string]any{"go": "accept", "db": map[string]any{"edit": "PostgreSQL and Redis"}, "Deploys go through the CI pipeline": "reject"}}, nil},
		{"assumptions bad rulings", "assumptions", map[string]any{"assumed.go": "edit", "assumed.db": "maybe", "assumed.db.text": "x", "assumed.q.text": "y", "assumed.Deploys go through the CI pipeline": map[string]any{"edit": " "}}, nil, []string{
			`answers.assumed.db.text: replacement text, but the ruling is string "maybe" (text is read only with "edit")`,
			`answers.assumed.q.text: replacement text for a row with no ruling (give assumed.q: "edit" with it)`,
			`answers.assumed.go: an edit needs its replacement text: {"edit": "the corrected assumption"}`,
			`answers.assumed.db: "maybe" is not a ruling (give "accept", "reject" or {"edit": "the corrected assumption"})`,
			`answers.assumed["Deploys go through the CI pipeline"]: an edit needs its replacement text as a non-empty string (got string " ")`,
		}},
		{"assumptions edit with no text", "assumptions", map[string]any{"assumed.go": "accept", "assumed.db": "edit", "assumed.Deploys go through the CI pipeline": "accept"}, nil, []string{
			`answers.assumed.db: an edit needs its replacement text: {"edit": "the corrected assumption"}`,
		}},
		{"confirm", "confirm", map[string]any{"drop": "Abort", "deploy": "Hold"}, map[string]any{"drop": "Abort", "deploy": "Hold"}, nil},
		{"confirm unanswered is not approval", "confirm", map[string]any{"drop": "", "deploy": "Yes"}, nil, []string{
			`answers.drop: required, but not answered (one of "Approve", "Abort")`,
			`answers.deploy: "Yes" is not one of the options ("Deploy", "Hold")`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkCollect(t, mustParse(t, forms[tt.form]), tt.answers, tt.want, tt.probs) })
	}
}

// TestParts checks how the expanding constructs split into single choices
// and that answering every part's default collects as the suggestion.
func TestParts(t *testing.T) {
	forms := testForms(t)
	tests := []struct {
		form, id string
		ids      []string
		first    string
	}{
		{"triage", "findings", []string{"findings.sqli", "findings.Unused import in the util package", "findings.race"},
			"The injection is reachable from the public login form. Rule on each finding — [high] String-built SQL in the login query (auth/login.go:42)"},
		{"ranking", "themes", []string{"themes.1", "themes.2", "themes.3"}, "Order these themes by priority — rank 1 of 3 (each option once)"},
		{"assumptions", "assumed", []string{"assumed.go", "assumed.db", "assumed.Deploys go through the CI pipeline"},
			"I inferred these from the repository; rule on each — The service targets Go 1.26 (from go.mod) " + EditHint},
	}
	for _, tt := range tests {
		f := mustParse(t, forms[tt.form])
		parts := f.Field(tt.id).Parts()
		var ids []string
		for _, p := range parts {
			ids = append(ids, p.Field.ID)
			if p.Field.Type != SingleSelect || len(p.Field.Options) < 2 {
				t.Errorf("%s: part %s is %s with %d options", tt.form, p.Field.ID, p.Field.Type, len(p.Field.Options))
			}
		}
		if diff := cmp.Diff(tt.ids, ids); diff != "" || parts[0].Field.Text != tt.first {
			t.Errorf("%s: ids (-want +got):\n%s\nfirst text %q", tt.form, diff, parts[0].Field.Text)
		}
	}
	ranking := mustParse(t, forms["ranking"])
	answers := map[string]any{}
	for _, p := range ranking.Field("themes").Parts() {
		answers[p.Field.ID] = p.Field.Default
	}
	r, err := Collect(ranking, answers, nil)
	if err != nil || !cmp.Equal(r.Responses["themes"], []string{"Reliability", "Performance", "Onboarding"}) {
		t.Errorf("the suggested order answered part by part: %v, %v", r, err)
	}
	out := map[string]any{}
	EditAnswer(out, "a.x", "accept")
	EditAnswer(out, "a.y", "Only on Linux")
	if diff := cmp.Diff(map[string]any{"a.x": "accept", "a.y": "edit", "a.y.text": "Only on Linux"}, out); diff != "" {
		t.Errorf("EditAnswer (-want +got):\n%s", diff)
	}
}
