package method

import (
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

// good is a valid row; cases change one field at a time.
const good = `60,risk,Good Method,A description,a->b,1,"plan:0,forge:3","","alpha,beta",true,`

func withField(i int, v string) string {
	f := strings.Split(`60|risk|Good Method|A description|a->b|1|"plan:0,forge:3"|""|"alpha,beta"|true|`, "|")
	f[i] = v
	return strings.Join(f, ",")
}

func TestParseWarnings(t *testing.T) {
	tests := []struct {
		name    string
		rows    string // after the header, which is row 1
		methods int
		want    []string
	}{
		{"valid row", good, 1, nil},
		{"ten columns", strings.TrimSuffix(good, ","), 1, nil},
		{"nine columns", `60,risk,Good Method,d,a->b,1,"plan:0","",alpha`, 0, []string{
			`Row 2 has 9 columns (expected 11): 60,risk,Good Method,d,a->b,1,"plan:0","",alpha`}},
		{"twelve columns, cut at 80", good + `,extra`, 0, []string{
			`Row 2 has 12 columns (expected 11): 60,risk,Good Method,A description,a->b,1,"plan:0,forge:3","","alpha,beta",true,,`}},
		{"bad name", withField(colName, "Evil `rm -rf`"), 0, []string{
			"Invalid method_name 'Evil `rm -rf`' — contains disallowed characters, skipping row"}},
		{"markdown name", withField(colName, "**Bold**"), 0, []string{
			"Invalid method_name '**Bold**' — contains disallowed characters, skipping row"}},
		{"html name", withField(colName, "<b>x</b>"), 0, []string{
			"Invalid method_name '<b>x</b>' — contains disallowed characters, skipping row"}},
		{"apostrophe and hyphen name", withField(colName, "Occam's Re-think"), 1, nil},
		{"tier 3", withField(colTier, "3"), 0, []string{"Invalid tier '3' for method Good Method — skipping row"}},
		{"tier word", withField(colTier, "one"), 0, []string{"Invalid tier 'one' for method Good Method — skipping row"}},
		{"one bad phase kept row", withField(colPhases, `"plan:0,forge,arc:x"`), 1, []string{
			"Invalid phase 'forge' for method Good Method — skipping that phase",
			"Invalid phase 'arc:x' for method Good Method — skipping that phase"}},
		{"all phases bad", withField(colPhases, `"plan,Forge:3"`), 0, []string{
			"Invalid phase 'plan' for method Good Method — skipping that phase",
			"Invalid phase 'Forge:3' for method Good Method — skipping that phase",
			"Method Good Method has no valid phase entries — skipping row"}},
		{"missing fields", `,risk,,d,a->b,,"","",alpha,true,`, 0, []string{
			"Row 2 is missing required field num — skipping row",
			"Row 2 is missing required field method_name — skipping row",
			"Row 2 is missing required field tier — skipping row",
			"Row 2 is missing required field phases — skipping row"}},
		{"empty topics", withField(colTopics, `""`), 0, []string{
			"Row 2 is missing required field topics — skipping row"}},
		{"no valid topics", withField(colTopics, `"two words,the"`), 0, []string{
			"Invalid topic 'two words' for method Good Method — a topic is one keyword (letters, digits, inner hyphens; no stopword), skipping that topic",
			"Invalid topic 'the' for method Good Method — a topic is one keyword (letters, digits, inner hyphens; no stopword), skipping that topic",
			"Method Good Method has no valid topics — skipping row"}},
		{"num not numeric", withField(colNum, "6a"), 0, []string{
			"Invalid num '6a' for method Good Method — must be a positive whole number, skipping row"}},
		{"num negative", withField(colNum, "-4"), 0, []string{
			"Invalid num '-4' for method Good Method — must be a positive whole number, skipping row"}},
		{"duplicate num", good + "\n" + strings.Replace(good, "Good Method", "Other", 1), 1, []string{
			"Duplicate num 60 for method Other (already used by Good Method) — skipping row"}},
		{"duplicate name any case", good + "\n" + strings.Replace(good, "60,risk,Good Method", "61,risk,GOOD method", 1), 1, []string{
			"Duplicate method_name 'GOOD method' (first on row 2) — skipping row"}},
		{"duplicate num out of order", strings.Replace(good, "60,risk,Good Method", "61,risk,Other", 1) + "\n" + good + "\n" +
			strings.Replace(good, "60,risk,Good Method", "61,risk,Third", 1), 2, []string{
			"Duplicate num 61 for method Third (already used by Other) — skipping row"}},
		{"a row skipped for its name leaves its num free", good + "\n" + strings.Replace(good, "60,risk,Good Method", "61,risk,GOOD METHOD", 1) + "\n" +
			strings.Replace(good, "60,risk,Good Method", "61,risk,Third", 1), 2, []string{
			"Duplicate method_name 'GOOD METHOD' (first on row 2) — skipping row"}},
		{"duplicate name with apostrophe and hyphen", withField(colName, "Occam's Re-think") + "\n" +
			strings.Replace(withField(colName, "OCCAM'S re-THINK"), "60,", "61,", 1), 1, []string{
			"Duplicate method_name 'OCCAM'S re-THINK' (first on row 2) — skipping row"}},
		{"duplicate slug", withField(colName, "A-B") + "\n" + strings.Replace(withField(colName, "A B"), "60,", "61,", 1) + "\n" +
			strings.Replace(withField(colName, "a'b"), "60,", "62,", 1), 1, []string{
			"Duplicate method slug 'a-b' for method A B (first on row 2, for A-B) — skipping row",
			"Duplicate method slug 'a-b' for method a'b (first on row 2, for A-B) — skipping row"}},
		{"a row skipped for its slug leaves its slug free", withField(colName, "A B") + "\n" +
			strings.Replace(withField(colName, "A-B"), "60,", "61,", 1), 1, []string{
			"Duplicate method slug 'a-b' for method A-B (first on row 2, for A B) — skipping row"}},
		{"name without letter or digit", withField(colName, "'") + "\n" + strings.Replace(withField(colName, "- '"), "60,", "61,", 1), 0, []string{
			"Invalid method_name ''' — needs a letter or digit (its slug '-' would name no file apart), skipping row",
			"Invalid method_name '- '' — needs a letter or digit (its slug '---' would name no file apart), skipping row"}},
		{"name that is a number", withField(colName, "1") + "\n" + strings.Replace(withField(colName, "-7"), "60,", "61,", 1), 0, []string{
			"Invalid method_name '1' — a number reads as a method num, so the name could never be looked up; skipping row",
			"Invalid method_name '-7' — a number reads as a method num, so the name could never be looked up; skipping row"}},
		{"names with digits", withField(colName, "5 Whys") + "\n" + strings.Replace(withField(colName, "12 34"), "60,", "61,", 1), 2, nil},
		{"control characters in description", withField(colDescription, "Desc \x1b[31mred\x07 \u009b") + "\n" +
			strings.Replace(withField(colName, "Other"), "60,", "61,", 1), 2, []string{
			"Method Good Method has a control character in description, U+001B (ESC) — shown escaped; remove it"}},
		{"description not UTF-8", withField(colDescription, "caf\xe9"), 1, []string{
			"Method Good Method has bytes that are not UTF-8 in description — shown as U+FFFD; save the registry as UTF-8"}},
		{"auto_suggest disagrees with tier", withField(colAutoSuggest, "false"), 0, []string{
			"Invalid auto_suggest 'false' for method Good Method — tier 1 needs true, skipping row"}},
		{"auto_suggest not a bool", withField(colAutoSuggest, "yes"), 0, []string{
			"Invalid auto_suggest 'yes' for method Good Method — tier 1 needs true, skipping row"}},
		{"codex_role invalid kept as empty", withField(colCodexRole, "blue_team"), 1, []string{
			"Invalid codex_role 'blue_team' for method Good Method — treated as empty (no Codex)"}},
		{"bad agent", withField(colAgents, `"forge-keeper,bad agent"`), 1, []string{
			"Invalid agent 'bad agent' for method Good Method — skipping that agent"}},
		{"all agents bad", withField(colAgents, `"-x"`), 0, []string{
			"Invalid agent '-x' for method Good Method — skipping that agent",
			"Method Good Method has no valid agent entries — skipping row"}},
		{"bad category", withField(colCategory, "Risk!"), 0, []string{
			"Invalid category 'Risk!' for method Good Method — lowercase letters, digits, '-' and '_' only, skipping row"}},
		{"empty pattern step", withField(colPattern, "a->->b"), 0, []string{
			"Invalid output_pattern 'a->->b' for method Good Method — step 2 is empty, skipping row"}},
		{"code in pattern", withField(colPattern, "a->`b`"), 0, []string{
			"Invalid output_pattern 'a->`b`' for method Good Method — step 2 contains '`', skipping row"}},
		{"unclosed quote", `60,risk,Good Method,"d,a->b`, 0, []string{
			`Row 2 has malformed quoting (a quoted field is never closed), skipping row: 60,risk,Good Method,"d,a->b`}},
		{"quote inside an unquoted field", withField(colDescription, `Say "no" often`), 1, nil},
		{"blanks around quoted fields", strings.ReplaceAll(strings.ReplaceAll(good, `,"`, `, "`), `",`, `" ,`), 1, nil},
		{"text after quote", `60,risk,Good Method,"d"x,a->b,1,"plan:0","",alpha,true,`, 0, []string{
			`Row 2 has malformed quoting (text after a closing quote), skipping row: 60,risk,Good Method,"d"x,a->b,1,"plan:0","",alpha,true,`}},
		{"row numbers are file lines", "\n" + good + "\n\n" + withField(colTier, "x"), 1, []string{
			"Invalid tier 'x' for method Good Method — skipping row"}},
		{"several problems in one row", `0,risk,Bad!,d,a->b,7,"nope","",alpha,true,`, 0, []string{
			"Invalid num '0' for method Bad! — must be a positive whole number, skipping row",
			"Invalid method_name 'Bad!' — contains disallowed characters, skipping row",
			"Invalid tier '7' for method Bad! — skipping row",
			"Invalid phase 'nope' for method Bad! — skipping that phase",
			"Method Bad! has no valid phase entries — skipping row"}},
		{"header only", "", 0, []string{WarnUnavailable}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte(Header + "\n" + tt.rows + "\n"))
			want := tt.want
			if tt.methods == 0 && (len(want) == 0 || want[len(want)-1] != WarnUnavailable) {
				want = append(want, WarnUnavailable)
			}
			if diff := cmp.Diff(want, r.WarningTexts(), cmpEmpty); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if len(r.Methods) != tt.methods {
				t.Errorf("got %d methods, want %d", len(r.Methods), tt.methods)
			}
		})
	}
}

// TestParseDuplicateWarningsInRowOrder: a duplicate's warning comes after
// its row's own warnings and before the next row's, whether the nums are
// in order (a slug clash found once every row is read) or not.
func TestParseDuplicateWarningsInRowOrder(t *testing.T) {
	rows := func(nums ...string) string {
		return Header + "\n" +
			strings.Replace(withField(colCodexRole, "blue"), "60,", nums[0]+",", 1) + "\n" +
			strings.Replace(withField(colPhases, `"plan:0,x"`), "60,risk,Good Method", nums[1]+",risk,GOOD METHOD", 1) + "\n" +
			strings.Replace(withField(colAgents, `"ok,bad agent"`), "60,risk,Good Method", nums[2]+",risk,Other", 1) + "\n"
	}
	want := []problem.Problem{
		{Path: "row 2", Message: "Invalid codex_role 'blue' for method Good Method — treated as empty (no Codex)"},
		{Path: "row 3", Message: "Invalid phase 'x' for method GOOD METHOD — skipping that phase"},
		{Path: "row 3", Message: "Duplicate method_name 'GOOD METHOD' (first on row 2) — skipping row"},
		{Path: "row 4", Message: "Invalid agent 'bad agent' for method Other — skipping that agent"},
	}
	for _, nums := range [][]string{{"1", "2", "3"}, {"3", "2", "1"}} {
		r := Parse([]byte(rows(nums...)))
		if diff := cmp.Diff(want, []problem.Problem(r.Warnings)); diff != "" {
			t.Errorf("nums %v: warnings (-want +got):\n%s", nums, diff)
		}
		if len(r.Methods) != 2 || r.Methods[0].Name != "Good Method" || r.Methods[1].Name != "Other" {
			t.Errorf("nums %v: methods %+v", nums, r.Methods)
		}
	}
}

var cmpEmpty = cmp.Transformer("empty", func(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
})

// TestParseEscapesDescription: a description's control characters are
// kept visibly, as escapes; bytes that are not UTF-8 become U+FFFD.
func TestParseEscapesDescription(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain  text", "plain text"},
		{"Desc \x1b[31mred\x07", `Desc \x1b[31mred\x07`},
		{"C1 \u009b and DEL \x7f", `C1 \u009b and DEL \x7f`},
		{"caf\xe9 \u00e9", "caf\ufffd é"},
		{"tab\tand\nbreak", "tab and break"},
	}
	for _, tt := range tests {
		r := Parse([]byte(Header + "\n" + withField(colDescription, `"`+tt.in+`"`) + "\n"))
		if len(r.Methods) != 1 || r.Methods[0].Description != tt.want {
			t.Errorf("description %q: got %+v, want %q", tt.in, r.Methods, tt.want)
		}
	}
}

func TestParseEmpty(t *testing.T) {
	for name, in := range map[string]string{"nil": "", "blank lines": "\n\r\n  \n", "bom only": "\ufeff"} {
		r := Parse([]byte(in))
		if diff := cmp.Diff([]string{WarnUnavailable}, r.WarningTexts()); diff != "" || len(r.Methods) != 0 {
			t.Errorf("%s: %d methods, warnings (-want +got):\n%s", name, len(r.Methods), diff)
		}
	}
}

func TestParseHeader(t *testing.T) {
	r := Parse([]byte("id,name\n" + good))
	want := []string{"Row 1 is not the expected header, skipping it and reading columns by position: id,name"}
	if diff := cmp.Diff(want, r.WarningTexts()); diff != "" || len(r.Methods) != 1 {
		t.Errorf("%d methods, warnings (-want +got):\n%s", len(r.Methods), diff)
	}
	ten := strings.TrimSuffix(Header, ",codex_role")
	if r := Parse([]byte(ten + "\n" + good)); len(r.Warnings) != 0 {
		t.Errorf("10-column header: warnings %v", r.Warnings)
	}
}

// TestParseShortRowExpectsTheHeader: a row's wrong column count is compared
// with the header's own count.
func TestParseShortRowExpectsTheHeader(t *testing.T) {
	short := `60,risk,Good Method,d`
	tests := []struct{ header, want string }{
		{Header, "Row 2 has 4 columns (expected 11): " + short},
		{strings.TrimSuffix(Header, ",codex_role"), "Row 2 has 4 columns (expected 10): " + short},
		{"id,name", "Row 2 has 4 columns (expected 10 or 11): " + short},
	}
	for _, tt := range tests {
		got := Parse([]byte(tt.header + "\n" + short + "\n")).WarningTexts()
		if !slices.Contains(got, tt.want) {
			t.Errorf("header %s: warnings %q, want %q", tt.header, got, tt.want)
		}
	}
}

// TestParseFormatting checks what the seed leaves implicit: byte order mark,
// CRLF, stray whitespace, quoted commas and quotes, line breaks in fields.
func TestParseFormatting(t *testing.T) {
	csv := "\ufeff" + Header + "\r\n" +
		` 60 , risk ,  Good Method ,"A ""quoted"", comma
		description", a -> b ,1, " plan:0 , forge:3,plan:0 " , "" ," Alpha, beta ,alpha", TRUE , critic ` + "\r\n"
	r := Parse([]byte(csv))
	if len(r.Warnings) != 0 {
		t.Fatalf("warnings: %v", r.Warnings)
	}
	want := []Method{{
		Num: 60, Category: "risk", Name: "Good Method", Description: `A "quoted", comma description`,
		OutputPattern: "a -> b", Tier: 1, Phases: []string{"plan:0", "forge:3"}, Agents: []string{},
		Topics: []string{"Alpha", "beta", "alpha"}, AutoSuggest: true, CodexRole: "critic",
	}}
	if diff := cmp.Diff(want, r.Methods, ignoreIndex); diff != "" {
		t.Errorf("methods (-want +got):\n%s", diff)
	}
}

// TestParseGolden parses a file with one of every problem and compares the
// whole warning list, with paths, to a golden file.
func TestParseGolden(t *testing.T) {
	bad := Header + "\n" + strings.Join([]string{
		`61,risk,Short,d,a->b,1,"plan:0"`,
		"62,risk,Bad `name`,d,a->b,1,\"plan:0\",\"\",alpha,true,",
		`63,risk,Tier Bad,d,a->b,0,"plan:0","",alpha,true,`,
		`64,risk,Phase Bad,d,a->b,1,"plan,forge:x","",alpha,true,`,
		`65,risk,Codex Bad,d,a->b,1,"plan:0","",alpha,true,red-team`,
		`20,risk,Renumbered,d,a->b,1,"plan:0","",alpha,true,`,
	}, "\n") + "\n"
	r := Default().Merge(Parse([]byte(bad)))
	golden(t, "warnings.txt", strings.Join(r.Warnings.Strings(), "\n")+"\n")
	if len(r.Methods) != 26 {
		t.Errorf("merged %d methods, want 26 (two valid extra rows)", len(r.Methods))
	}
}
