package mcpserver

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/internal/responselog"
	"github.com/google/go-cmp/cmp"
)

// TestResponseLogOverMCP renders, routes and collects forms through the
// tools and checks that elicitation_stats counts them, with the client
// from initialize as the host.
func TestResponseLogOverMCP(t *testing.T) {
	l := responselog.Open(t.TempDir())
	var warnings []string
	l.Warn = func(w string) { warnings = append(warnings, w) }
	cs := dial(t, New(&Options{Version: "test", Project: t.TempDir(), ResponseLogDir: l.Dir(), Warn: l.Warn}), protocols[0], nil)
	scope := readForm(t, "scope")
	for range 3 {
		call(t, cs, "elicitation_render_form", map[string]any{"form": scope})
		if out, isErr := call(t, cs, "elicitation_collect_response", map[string]any{"form": scope,
			"answers": map[string]any{"goal": "Refactor", "focus": []any{"tests"}}}); isErr {
			t.Fatalf("collect: %v", out)
		}
	}
	call(t, cs, "elicitation_collect_response", map[string]any{"form": scope, "answers": map[string]any{"goal": "Nope"}})
	call(t, cs, "elicitation_select_surface", map[string]any{"template": "session-contract", "slots": map[string]any{"project": "x"}})
	out, isErr := call(t, cs, "elicitation_stats", map[string]any{})
	if isErr {
		t.Fatalf("stats: %v", out)
	}
	got := map[string]any{"rendered": out["rendered"], "routed": out["routed"], "hosts": out["submissions_by_host"],
		"submissions": out["submissions"], "rejected": out["rejected"], "promote": len(out["promote"].([]any))}
	want := map[string]any{"rendered": map[string]any{"ask": 3.0}, "routed": map[string]any{"ask": 4.0}, // a client without MCP Apps
		"hosts": map[string]any{"test": 3.0}, "submissions": 3.0, "rejected": 1.0, "promote": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	if len(warnings) > 0 {
		t.Errorf("warnings: %q", warnings)
	}
}

// TestStatsWithoutLog checks the tool's answer when the server keeps no
// log, and that NoLogWrites records nothing.
func TestStatsWithoutLog(t *testing.T) {
	cs := connect(t, protocols[0], nil)
	if out, isErr := call(t, cs, "elicitation_stats", map[string]any{}); !isErr {
		t.Errorf("stats without a log: %v", out)
	}
	l := responselog.Open(t.TempDir())
	cs = dial(t, New(&Options{Version: "test", Project: t.TempDir(), ResponseLogDir: l.Dir(), Warn: l.Warn, NoLogWrites: true}), protocols[0], nil)
	call(t, cs, "elicitation_render_form", map[string]any{"form": readForm(t, "scope")})
	out, _ := call(t, cs, "elicitation_stats", map[string]any{})
	if out["records"] != 0.0 {
		t.Errorf("records = %v with NoLogWrites", out["records"])
	}
}

// TestStatsSuggestsFreeNames checks that elicitation_stats suggests a
// template name the server's template folder does not already have.
func TestStatsSuggestsFreeNames(t *testing.T) {
	l := responselog.Open(t.TempDir())
	taken := &form.Templates{Folder: fstest.MapFS{"scope-this-work.json": {Data: []byte(`{"title": "Taken", "fields": [{"id": "a", "text": "A?", "type": "boolean"}]}`)}}}
	cs := dial(t, New(&Options{Version: "test", Project: t.TempDir(), ResponseLogDir: l.Dir(), Warn: l.Warn, Templates: taken}), protocols[0], nil)
	scope := readForm(t, "scope")
	for range 3 {
		call(t, cs, "elicitation_render_form", map[string]any{"form": scope})
	}
	out, isErr := call(t, cs, "elicitation_stats", map[string]any{})
	promote, _ := out["promote"].([]any)
	if isErr || len(promote) != 1 {
		t.Fatalf("stats: %v", out)
	}
	if p := promote[0].(map[string]any); p["suggested_name"] != "scope-this-work-2" {
		t.Errorf("suggested %v, want scope-this-work-2 (scope-this-work is a template)", p["suggested_name"])
	}
}

// TestEmbedderDefaults: mcpserver.New(nil) reads the process environment
// as the CLI does, so the deliberation tools use ~/.elicit/deliberations
// (or $ELICIT_HOME/deliberations) as Options documents; without either,
// the tools and elicitation_stats say what is missing.
func TestEmbedderDefaults(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("ELICIT_HOME", "")
	cs := dial(t, New(nil), protocols[0], nil)
	out, isErr := call(t, cs, "deliberation_start", map[string]any{"question": "Should we cache this?"})
	if isErr {
		t.Fatalf("deliberation_start with HOME set: %v", out)
	}
	if want := filepath.Join(home, ".elicit", "deliberations"); filepath.Dir(out["state_file"].(string)) != want {
		t.Errorf("state file %v, want it in %s", out["state_file"], want)
	}
	elicitHome := t.TempDir()
	t.Setenv("ELICIT_HOME", elicitHome)
	cs = dial(t, New(nil), protocols[0], nil)
	if out, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Should we cache this?"}); filepath.Dir(out["state_file"].(string)) != filepath.Join(elicitHome, "deliberations") {
		t.Errorf("with ELICIT_HOME: state file %v", out["state_file"])
	}

	none := func(string) string { return "" }
	cs = dial(t, New(&Options{Getenv: none, Project: t.TempDir()}), protocols[0], nil)
	out, isErr = call(t, cs, "deliberation_start", map[string]any{"question": "Should we cache this?"})
	want := "no deliberation folder: the server was given none, and neither ELICIT_HOME nor HOME is set in its environment (set ELICIT_HOME to the folder where elicit keeps its state; a program serving the tools can set Options.DeliberationDir instead)"
	if !isErr || !slices.Equal(toStrings(out["problems"]), []string{want}) {
		t.Errorf("deliberation_start without a home: %v, want %q", out, want)
	}
	out, isErr = call(t, cs, "elicitation_stats", map[string]any{})
	want = "this server keeps no response log: it was started without a folder for one (elicit serve keeps it in $ELICIT_HOME/log or ~/.elicit/log, and needs ELICIT_HOME or HOME set; a program serving the tools sets Options.ResponseLogDir)"
	if !isErr || !slices.Equal(toStrings(out["problems"]), []string{want}) {
		t.Errorf("elicitation_stats without a log: %v, want %q", out, want)
	}
}

// TestRecallOverMCP: an answer collected through the tools is found by a
// word of its question, with the day it was decided; a server for another
// project does not find it; arguments are checked.
func TestRecallOverMCP(t *testing.T) {
	logDir, project := t.TempDir(), t.TempDir()
	cs := dial(t, New(&Options{Version: "test", Project: project, ResponseLogDir: logDir}), protocols[0], nil)
	scope := readForm(t, "scope")
	if out, isErr := call(t, cs, "elicitation_collect_response", map[string]any{"form": scope,
		"answers": map[string]any{"goal": "Refactor", "focus": []any{"tests"}}}); isErr {
		t.Fatalf("collect: %v", out)
	}
	question := scope["fields"].([]any)[0].(map[string]any)["text"].(string)
	word := strings.Fields(question)[len(strings.Fields(question))-1]
	out, isErr := call(t, cs, "elicitation_recall", map[string]any{"query": strings.Trim(word, "?")})
	ds, _ := out["decisions"].([]any)
	if isErr || len(ds) != 1 {
		t.Fatalf("recall %q: %v", word, out)
	}
	d := ds[0].(map[string]any)
	if said := d["said"].(string); !strings.HasPrefix(said, "decided on 20") || !strings.Contains(said, question+" Refactor") || d["host"] != "test" || d["project"] != project {
		t.Errorf("decision = %v", d)
	}
	if out, _ := call(t, cs, "elicitation_recall", map[string]any{"query": "zebra"}); len(out["decisions"].([]any)) != 0 || !strings.Contains(out["note"].(string), "ask") {
		t.Errorf("recall of nothing: %v", out)
	}
	other := dial(t, New(&Options{Version: "test", Project: t.TempDir(), ResponseLogDir: logDir}), protocols[0], nil)
	if out, _ := call(t, other, "elicitation_recall", map[string]any{}); len(out["decisions"].([]any)) != 0 {
		t.Errorf("another project recalled: %v", out)
	}
	if out, isErr := call(t, cs, "elicitation_recall", map[string]any{"query": "?!", "limit": "five", "when": 1}); !isErr || len(out["problems"].([]any)) != 3 {
		t.Errorf("bad arguments: %v", out)
	}
	if out, isErr := call(t, connect(t, protocols[0], nil), "elicitation_recall", map[string]any{}); !isErr {
		t.Errorf("recall without a log: %v", out)
	}
}

// TestRecallOffersLastAnswerOverMCP: session-contract's effort cap, once
// answered, starts at that answer the next time the template is rendered
// in the project (the result says so under recalled); a project whose
// settings turn recall off is offered nothing.
func TestRecallOffersLastAnswerOverMCP(t *testing.T) {
	logDir, project := t.TempDir(), t.TempDir()
	cs := dial(t, New(&Options{Version: "test", Project: project, ResponseLogDir: logDir}), protocols[0], nil)
	contract := map[string]any{"template": "session-contract", "slots": map[string]any{"project": "auth"}}
	with := func(extra map[string]any) map[string]any {
		out := maps.Clone(contract)
		maps.Copy(out, extra)
		return out
	}
	if out, _ := call(t, cs, "elicitation_render_form", contract); out["recalled"] != nil {
		t.Fatalf("recalled before any answer: %v", out["recalled"])
	}
	if out, isErr := call(t, cs, "elicitation_collect_response", with(map[string]any{"answers": map[string]any{
		"mode": "Fix what is broken", "outcome": "login fixed", "done_when": "tests pass", "effort_cap": "Half a day"}})); isErr {
		t.Fatalf("collect: %v", out)
	}
	out, _ := call(t, cs, "elicitation_render_form", contract)
	rec, _ := out["recalled"].([]any)
	if len(rec) != 1 || rec[0].(map[string]any)["field"] != "effort_cap" || rec[0].(map[string]any)["answer"] != "Half a day" {
		t.Fatalf("recalled = %v", out["recalled"])
	}
	var offered map[string]any
	for _, q := range out["batches"].([]any)[0].([]any) {
		if q := q.(map[string]any); q["question_id"] == "effort_cap" {
			offered = q
		}
	}
	if offered["default"] != "Half a day" || !strings.Contains(offered["help_text"].(string), "your answer on 20") {
		t.Errorf("effort_cap as asked: %v", offered)
	}
	// The guess is what the person keeps by answering nothing new for it.
	if out, isErr := call(t, cs, "elicitation_collect_response", with(map[string]any{"answers": map[string]any{
		"mode": "Build something new", "outcome": "a page", "done_when": "it renders", "effort_cap": "Half a day"}})); isErr || out["responses"].(map[string]any)["effort_cap"] != "Half a day" {
		t.Errorf("collect of the guess: %v", out)
	}
	if err := os.WriteFile(filepath.Join(project, "elicit.config.json"), []byte(`{"recall": false}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _ := call(t, cs, "elicitation_render_form", contract); out["recalled"] != nil {
		t.Errorf("recalled with recall off: %v", out["recalled"])
	}
}
