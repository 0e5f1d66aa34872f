package mcpserver

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/deliberation"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestDeliberationTools walks the CLI's converging scenario through the MCP
// tools: the same answers and evaluations give the same outcome.
func TestDeliberationTools(t *testing.T) {
	ar, err := txtar.ParseFile("../internal/cli/testdata/script/deliberate_converge.txtar")
	if err != nil {
		t.Fatal(err)
	}
	file := func(name string) string {
		for _, f := range ar.Files {
			if f.Name == name {
				return string(f.Data)
			}
		}
		t.Fatalf("no %s in the scenario", name)
		return ""
	}
	cs := connectWith(t, &Options{Version: "test", DeliberationDir: t.TempDir(), ResponseLogDir: t.TempDir()})

	got, isErr := call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?", "facts": []any{"no new infrastructure"}})
	if isErr || !strings.Contains(got["prompt"].(string), "F1 [user]: no new infrastructure") {
		t.Fatalf("start: %v", got)
	}
	id := got["id"].(string)
	if !strings.HasSuffix(got["state_file"].(string), "codex-ask-state-"+id+".json") {
		t.Errorf("state_file = %v", got["state_file"])
	}
	wantActions := []string{"critique", "coverage_check", "synthesize"}
	for i, action := range wantActions {
		n := string(rune('1' + i))
		if got, isErr = call(t, cs, "deliberation_respond", map[string]any{"id": id, "response": file("answer" + n + ".txt")}); isErr {
			t.Fatalf("respond %s: %v", n, got)
		}
		var eval map[string]any
		json.Unmarshal([]byte(file("eval"+n+".json")), &eval)
		got, isErr = call(t, cs, "deliberation_evaluate", map[string]any{"id": id, "evaluation": eval})
		if isErr || got["action"] != action {
			t.Fatalf("evaluate %s: %v, want action %s", n, got, action)
		}
	}
	got, isErr = call(t, cs, "deliberation_synthesize", map[string]any{"id": id})
	if !isErr || !strings.HasPrefix(strings.Join(toStrings(got["problems"]), "\n"), `answer: is required: the top-line answer to the question ("Should the importer retry on HTTP 429?")`) {
		t.Errorf("synthesize without its answer: %v", got)
	}
	got, _ = call(t, cs, "deliberation_synthesize", map[string]any{"id": id, "answer": "Yes: honour Retry-After; no fixed retry cap."})
	if got["exit_reason"] != "converged" || got["answer"] != "Yes: honour Retry-After; no fixed retry cap." || got["markdown"] != file("synthesis.md") {
		t.Errorf("synthesize: %v\nwant the CLI's markdown:\n%s", got, file("synthesis.md"))
	}
	// The synthesis joins the decision ledger, once however often it is
	// asked for.
	call(t, cs, "deliberation_synthesize", map[string]any{"id": id, "answer": "Yes: honour Retry-After; no fixed retry cap."})
	got, _ = call(t, cs, "elicitation_recall", map[string]any{"query": "importer retries"})
	if ds, _ := got["decisions"].([]any); len(ds) != 1 || !strings.Contains(ds[0].(map[string]any)["said"].(string), "Should the importer retry on HTTP 429? Yes: honour Retry-After") ||
		ds[0].(map[string]any)["deliberation"] != id {
		t.Errorf("recall of the synthesis: %v", got)
	}
	got, _ = call(t, cs, "deliberation_status", map[string]any{"id": id})
	if got["status"] != "finished" || got["version"] != 1.0 {
		t.Errorf("status: %v", got)
	}
	got, _ = call(t, cs, "deliberation_list", map[string]any{})
	if l := got["deliberations"].([]any); len(l) != 1 || l[0].(map[string]any)["id"] != id {
		t.Errorf("list: %v", got)
	}
	got, isErr = call(t, cs, "deliberation_recover", map[string]any{"id": id})
	if !isErr || !strings.Contains(strings.Join(toStrings(got["problems"]), "\n"), "nothing to recover") {
		t.Errorf("recover of a finished deliberation: %v", got)
	}
}

func TestDeliberationToolErrors(t *testing.T) {
	cs := connectWith(t, &Options{Version: "test", DeliberationDir: t.TempDir()})
	tests := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"deliberation_start", map[string]any{"question": "  "}, "question: is empty"},
		{"deliberation_start", map[string]any{}, "question: missing (a string is required)"},
		{"deliberation_start", map[string]any{"question": strings.Repeat("q", deliberation.MaxQuestion+1)}, "question: is 65537 bytes, over the cap of 64 KiB for a deliberation's question"},
		{"deliberation_status", map[string]any{"id": "../../etc/passwd"}, `id: "../../etc/passwd" is not a deliberation ID`},
		{"deliberation_status", map[string]any{"id": "20990101-000000"}, "id: no deliberation 20990101-000000"},
		{"deliberation_evaluate", map[string]any{"id": "20990101-000000", "evaluation": "x"}, "evaluation: must be a JSON object"},
		{"deliberation_respond", map[string]any{"id": 3}, "id: must be a string"},
		{"deliberation_list", map[string]any{"x": 1}, "x: unknown argument (this tool takes no arguments)"},
	}
	for _, tt := range tests {
		got, isErr := call(t, cs, tt.tool, tt.args)
		if !isErr || !strings.Contains("\n"+strings.Join(toStrings(got["problems"]), "\n"), "\n"+tt.want) {
			t.Errorf("%s %v: %v, want a problem starting %q", tt.tool, tt.args, got, tt.want)
		}
	}
}

// TestDeliberationStartAllProblems: the arguments' type problems and the
// start's own come back in one reply, each argument judged once.
func TestDeliberationStartAllProblems(t *testing.T) {
	dir := t.TempDir()
	cs := connectWith(t, &Options{Version: "test", DeliberationDir: dir})
	got, isErr := call(t, cs, "deliberation_start", map[string]any{"question": "MCP q?", "quick": "yes", "ledger_budget": -1,
		"paths": []any{"rel/path"}, "interpretations": []any{"only one"}, "facts": []any{3}})
	want := []string{
		"quick: must be true or false",
		"facts: must be a list of strings",
		"interpretations: 1 given, want exactly 2 (A, the default, and B) or none",
		`paths[0]: "rel/path" is not absolute (the consultee may run elsewhere)`,
		"ledger_budget: is -1, want a whole number, 0 to 9007199254740991",
	}
	probs := toStrings(got["problems"])
	slices.Sort(probs)
	slices.Sort(want)
	if !isErr || !slices.Equal(probs, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(probs, "\n"), strings.Join(want, "\n"))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused start wrote %v", entries)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// connectWith connects to a server with opts on the latest protocol.
func connectWith(t *testing.T, opts *Options) *mcp.ClientSession {
	t.Helper()
	return dial(t, New(opts), protocols[0], nil)
}

// TestRecoverRestores: over MCP a state file beyond use is named as the
// tool call that rebuilds it (deliberation_recover with restore), never as
// a CLI command, in a tool's problems and in the listing; that call
// rewrites it from the transcript, keeping the unreadable one, and gives
// the Recovery prompt; on a healthy state it changes nothing.
func TestRecoverRestores(t *testing.T) {
	dir := t.TempDir()
	cs := connectWith(t, &Options{Version: "test", DeliberationDir: dir})
	got, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?"})
	id := got["id"].(string)
	state := got["state_file"].(string)
	if got, isErr := call(t, cs, "deliberation_respond", map[string]any{"id": id, "response": "1. Retry 5 times."}); isErr {
		t.Fatalf("respond: %v", got)
	}
	os.WriteFile(state, []byte("garbage"), 0o600)
	restore := `with: deliberation_recover {"id": "` + id + `", "restore": true}`

	got, isErr := call(t, cs, "deliberation_status", map[string]any{"id": id})
	if probs := strings.Join(toStrings(got["problems"]), "\n"); !isErr || !strings.HasSuffix(probs, restore) || strings.Contains(probs, "elicit deliberate") {
		t.Errorf("status of an unreadable state: %v", got)
	}
	got, _ = call(t, cs, "deliberation_list", map[string]any{})
	if e := got["deliberations"].([]any)[0].(map[string]any); !strings.HasSuffix(e["error"].(string), restore) {
		t.Errorf("list: %v", e)
	}
	got, isErr = call(t, cs, "deliberation_recover", map[string]any{"id": id, "restore": true})
	if isErr || got["restored"] != true || !strings.Contains(got["prompt"].(string), "SESSION RECOVERY") || !strings.HasPrefix(got["kept"].(string), state+".unreadable-") {
		t.Fatalf("recover with restore: %v", got)
	}
	if got, isErr := call(t, cs, "deliberation_status", map[string]any{"id": id}); isErr || got["status"] != "active" {
		t.Errorf("status after the restore: %v", got)
	}
	got, isErr = call(t, cs, "deliberation_recover", map[string]any{"id": id, "restore": true})
	if isErr || got["restored"] != false || got["prompt"] != nil || !strings.Contains(got["note"].(string), "nothing changed") {
		t.Errorf("recover with restore of a healthy state: %v", got)
	}
}
