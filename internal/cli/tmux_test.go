package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/elicit/elicit/internal/tmuxtest"
	"github.com/google/go-cmp/cmp"
)

// elicitOnPath makes this test binary callable as "elicit" (TestMain runs
// the CLI when it is called by that name) and returns a folder to run in
// with it on PATH.
func elicitOnPath(t *testing.T) (dir, path string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(bin, "elicit")); err != nil {
		t.Fatal(err)
	}
	return t.TempDir(), "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// TestPickOnTerminal drives methods pick on a real terminal: the top method
// is preselected, space toggles, enter confirms; nothing chosen is refused;
// Escape is no answer (exit 3).
func TestPickOnTerminal(t *testing.T) {
	dir, path := elicitOnPath(t)
	pick := "elicit methods pick --phase forge:3 --title 'Architecture Design'"

	term := tmuxtest.Start(t, dir, 90, 20, pick, path)
	screen := term.WaitFor("Which reasoning methods should this section apply?")
	for _, want := range []string{"› [x] Tree of Thoughts", "[ ] Architecture Decision Records"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the first screen lacks %q:\n%s", want, screen)
		}
	}
	term.Keys("Space") // nothing chosen now
	term.WaitFor("› [ ] Tree of Thoughts")
	term.Keys("Enter")
	term.WaitFor("choose at least one")
	term.Keys("j", "Space", "Enter")
	code, screen := term.Exit()
	if code != 0 || !regexp.MustCompile(`(?m)^20\s+Architecture Decision Records$`).MatchString(screen) {
		t.Errorf("exit %d, screen:\n%s", code, screen)
	}

	term = tmuxtest.Start(t, dir, 90, 20, pick, path)
	term.WaitFor("Which reasoning methods")
	term.Keys("Escape")
	code, screen = term.Exit()
	// The widget's line ends before the message.
	if code != 3 || !strings.Contains(screen, "✘ Which reasoning methods should this section apply?  not answered\nelicit: cancelled: no answer\n") {
		t.Errorf("Escape: exit %d, screen:\n%s", code, screen)
	}
}

// TestPickStdoutRedirected: with standard output captured (a file, a
// pipe, $(...)) pick still asks on the terminal, drawing on standard error
// as form ask does, and prints the choice to standard output.
func TestPickStdoutRedirected(t *testing.T) {
	dir, path := elicitOnPath(t)
	term := tmuxtest.Start(t, dir, 90, 20, "elicit methods pick --phase forge:3 --title 'Architecture Design' > out.txt", path)
	term.WaitFor("› [x] Tree of Thoughts")
	term.Keys("j", "Space", "Enter")
	if code, screen := term.Exit(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, screen)
	}
	out, _ := os.ReadFile(filepath.Join(dir, "out.txt"))
	if !regexp.MustCompile(`(?m)^\d+\tTree of Thoughts\n20\tArchitecture Decision Records\n$`).Match(out) {
		t.Errorf("stdout %q", out)
	}

	// standard error redirected too: the widgets draw on the terminal itself
	term = tmuxtest.Start(t, dir, 90, 20, "elicit methods pick --phase forge:3 --title 'Architecture Design' 2>/dev/null | cat > out.txt", path)
	term.WaitFor("Which reasoning methods should this section apply?")
	term.Keys("Enter")
	if code, screen := term.Exit(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, screen)
	}
	if out, _ := os.ReadFile(filepath.Join(dir, "out.txt")); !regexp.MustCompile(`^\d+\tTree of Thoughts\n$`).Match(out) {
		t.Errorf("stdout %q", out)
	}
}

// tenTypes has one field of each of the seed's ten types.
const tenTypes = `{"title": "Release plan", "description": "One question of each type.", "fields": [
  {"id": "track", "text": "Which release track?", "type": "single_select",
   "options": ["stable", "beta", "nightly"], "default": "stable", "inferred_from": "the last release was stable"},
  {"id": "platforms", "text": "Which platforms ship?", "type": "multi_select", "options": ["linux", "macos", "windows"]},
  {"id": "notify", "text": "Announce it?", "type": "boolean"},
  {"id": "owner", "text": "Who owns it?", "type": "text_input", "options": ["platform", "infra"]},
  {"id": "budget", "text": "How many hours?", "type": "number", "minimum": 1, "maximum": 40},
  {"id": "ship_date", "text": "When should it ship?", "type": "date"},
  {"id": "notes", "text": "Release notes?", "type": "textarea", "max_length": 100},
  {"id": "approach", "text": "How should we test it?", "type": "decision",
   "options": ["Canary", "Big bang"], "recommended": "Canary", "rationale": "A canary limits the blast radius.",
   "option_notes": {"Big bang": "Faster, riskier"}},
  {"id": "retries", "text": "How should clients retry?", "type": "pushback",
   "options": ["Fixed 3x", "Backoff"], "user_position": "Fixed 3x", "recommended": "Backoff",
   "rationale": "Fixed retries hammer a struggling service."},
  {"id": "next", "text": "Where the release stands", "type": "progress", "options": ["Docs", "Changelog"],
   "progress_items": [{"label": "Build", "status": "done"}, {"label": "Docs", "status": "blocked", "detail": "needs review"},
     {"label": "Changelog", "status": "blocked"}]}]}`

// TestFormAskOnTerminal answers a form of every type on a real terminal,
// checking what the screen shows along the way and the JSON at the end.
func TestFormAskOnTerminal(t *testing.T) {
	dir, path := elicitOnPath(t)
	if err := os.WriteFile(filepath.Join(dir, "ten.json"), []byte(tenTypes), 0o644); err != nil {
		t.Fatal(err)
	}
	term := tmuxtest.Start(t, dir, 100, 40, "elicit form ask ten.json > out.json", path)
	screen := term.WaitFor("? Which release track? (pick one)")
	for _, want := range []string{"Release plan", "Guessed: stable (from the last release was stable)", "› 1. stable (default, guessed)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("first screen lacks %q:\n%s", want, screen)
		}
	}
	term.Keys("Enter")                                   // keep the guess
	term.WaitFor("? Which platforms ship?")              //
	term.Keys("Enter")                                   // none chosen: refused
	term.WaitFor("choose at least one")                  //
	term.Keys("Space", "Down", "Down", "Space", "Enter") // linux, windows
	term.WaitFor("? Announce it? (yes or no)")
	term.Keys("Enter") // nothing chosen yet: refused
	term.WaitFor("choose Yes or No")
	term.Keys("y")
	term.WaitFor("Suggestions: platform · infra")
	term.Keys("Tab", "Tab", "Enter") // the second suggestion
	term.WaitFor("? How many hours? (a number from 1 to 40)")
	term.Type("50")
	term.Keys("Enter")
	term.WaitFor("50 is above the maximum 40")
	term.Keys("BSpace", "BSpace")
	term.Type("12")
	term.Keys("Enter")
	term.WaitFor("? When should it ship?")
	term.Type("2026-02-30")
	term.Keys("Enter")
	term.WaitFor("is not a real calendar date")
	term.Keys("C-u")
	term.Type("2026-03-01")
	term.Keys("Enter")
	term.WaitFor("ctrl-d submit")
	term.Type("First line")
	term.Keys("Enter")
	term.Type("second line")
	term.Keys("C-d")
	screen = term.WaitFor("? How should we test it?")
	for _, want := range []string{"Why: A canary limits the blast radius.", "› 1. Canary (Recommended)", "2. Big bang — Faster, riskier"} {
		if !strings.Contains(screen, want) {
			t.Errorf("decision screen lacks %q:\n%s", want, screen)
		}
	}
	term.Keys("j", "Enter")
	screen = term.WaitFor("? How should clients retry?")
	for _, want := range []string{"Why I'd push back: Fixed retries hammer a struggling service.", "1. Backoff (I'd suggest instead)", "2. Fixed 3x (your approach)"} {
		if !strings.Contains(screen, want) {
			t.Errorf("pushback screen lacks %q:\n%s", want, screen)
		}
	}
	term.Keys("Enter")
	screen = term.WaitFor("? Where the release stands")
	for _, want := range []string{"done: Build", "blocked: Docs (needs review), Changelog", "2. Changelog"} {
		if !strings.Contains(screen, want) {
			t.Errorf("progress screen lacks %q:\n%s", want, screen)
		}
	}
	term.Keys("2", "Enter")
	code, screen := term.Exit()
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, screen)
	}
	out, err := os.ReadFile(filepath.Join(dir, "out.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Success   bool
		Responses map[string]any
	}
	if err := json.Unmarshal(out, &got); err != nil || !got.Success {
		t.Fatalf("output %s: %v", out, err)
	}
	want := map[string]any{"track": "stable", "platforms": []any{"linux", "windows"}, "notify": "Yes", "owner": "infra",
		"budget": 12.0, "ship_date": "2026-03-01", "notes": "First line\nsecond line", "approach": "Big bang",
		"retries": "Backoff", "next": "Changelog"}
	if diff := cmp.Diff(want, got.Responses); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
}

// TestFormAskCancelOnTerminal: Escape or Ctrl-C is no answer: the cancel
// JSON (as form open prints it), exit 3, the widget's line ended.
func TestFormAskCancelOnTerminal(t *testing.T) {
	dir, path := elicitOnPath(t)
	if err := os.WriteFile(filepath.Join(dir, "ten.json"), []byte(tenTypes), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"Escape", "C-c"} {
		term := tmuxtest.Start(t, dir, 100, 40, "elicit form ask ten.json > out.json", path)
		term.WaitFor("? Which release track?")
		term.Keys("Enter")
		term.WaitFor("? Which platforms ship?")
		term.Keys(key)
		code, screen := term.Exit()
		out, _ := os.ReadFile(filepath.Join(dir, "out.json"))
		if code != 3 || string(out) != "{\n  \"success\": false,\n  \"action\": \"cancel\"\n}\n" ||
			!strings.Contains(screen, "✘ Which platforms ship? (pick one or more)  not answered\n[exit 3]") {
			t.Errorf("%s: exit %d, output %q, screen:\n%s", key, code, out, screen)
		}
	}
}

// TestFormAskAllGuessedOnTerminal: a form whose every field is a guess is
// one Confirm of the guesses.
func TestFormAskAllGuessedOnTerminal(t *testing.T) {
	dir, path := elicitOnPath(t)
	guessed := `{"title": "Release", "fields": [
		{"id": "track", "text": "Which track?", "type": "single_select", "options": ["stable", "beta"], "default": "beta", "inferred_from": "the branch name"},
		{"id": "ok", "text": "Ship it?", "type": "boolean", "default": "Yes", "inferred_from": "you said so"}]}`
	if err := os.WriteFile(filepath.Join(dir, "guessed.json"), []byte(guessed), 0o644); err != nil {
		t.Fatal(err)
	}
	term := tmuxtest.Start(t, dir, 100, 30, "elicit form ask guessed.json > out.json", path)
	screen := term.WaitFor("? Use these guesses?")
	if !strings.Contains(screen, "Which track? beta (guessed from the branch name)") {
		t.Errorf("the guesses are not shown:\n%s", screen)
	}
	term.Keys("Enter")
	if code, screen := term.Exit(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, screen)
	}
	out, _ := os.ReadFile(filepath.Join(dir, "out.json"))
	if !strings.Contains(string(out), `"track": "beta"`) || !strings.Contains(string(out), `"ok": "Yes"`) {
		t.Errorf("output %s", out)
	}
}

// TestFormAskStderrRedirected: with standard error redirected the widgets
// still draw on the terminal.
func TestFormAskStderrRedirected(t *testing.T) {
	dir, path := elicitOnPath(t)
	term := tmuxtest.Start(t, dir, 100, 30, "elicit form ask --template session-contract --slot project=demo 2>/dev/null > out.json", path)
	term.WaitFor("? What kind of session is this for demo? (pick one)")
	term.Keys("Escape")
	if code, screen := term.Exit(); code != 3 {
		t.Errorf("exit %d:\n%s", code, screen)
	}
}

// TestFormAskConfirmOnTerminal: a confirm starts with nothing chosen, so a
// reflexive enter does not approve; enter alone says to choose.
func TestFormAskConfirmOnTerminal(t *testing.T) {
	dir, path := elicitOnPath(t)
	deploy := `{"title":"Deploy","fields":[{"id":"go","text":"Ship the fix to production?","type":"confirm",
		"consequences":[{"label":"Production restarts","severity":"high"}]}]}`
	if err := os.WriteFile(filepath.Join(dir, "deploy.json"), []byte(deploy), 0o644); err != nil {
		t.Fatal(err)
	}
	term := tmuxtest.Start(t, dir, 100, 30, "elicit form ask deploy.json > out.json", path)
	screen := term.WaitFor("? Ship the fix to production?")
	if strings.Contains(screen, "› 1. Approve") {
		t.Errorf("Approve is under the cursor before any key:\n%s", screen)
	}
	term.Keys("Enter")
	term.WaitFor("choose one")
	term.Keys("Down", "Down", "Enter") // Approve, then Abort
	if code, screen := term.Exit(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, screen)
	}
	out, _ := os.ReadFile(filepath.Join(dir, "out.json"))
	if !strings.Contains(string(out), `"go": "Abort"`) {
		t.Errorf("output %s", out)
	}
}

// TestFormAskPasteOnTerminal: a paste goes into the field it was pasted
// into: a one-line field gets its lines joined with spaces (not one Enter
// per line, answering the next questions), a textarea keeps them; the
// terminal's bracketed paste is off again afterwards.
func TestFormAskPasteOnTerminal(t *testing.T) {
	dir, path := elicitOnPath(t)
	paste := `{"title": "Paste", "fields": [
		{"id": "owner", "text": "Who owns it?", "type": "text_input"},
		{"id": "notes", "text": "Release notes?", "type": "textarea"},
		{"id": "ok", "text": "Ship it?", "type": "boolean"}]}`
	if err := os.WriteFile(filepath.Join(dir, "paste.json"), []byte(paste), 0o644); err != nil {
		t.Fatal(err)
	}
	term := tmuxtest.Start(t, dir, 100, 30, `elicit form ask paste.json > out.json; rc=$?; echo READY; IFS= read -r l; printf %s "$l" > after.txt; (exit $rc)`, path)
	term.WaitFor("? Who owns it?")
	term.Paste("platform\nteam\nleads")
	term.WaitFor("platform team leads")
	term.Keys("Enter")
	term.WaitFor("? Release notes?")
	term.Paste("first\nsecond")
	term.Keys("C-d")
	term.WaitFor("? Ship it?")
	term.Keys("y")
	term.WaitFor("READY")
	term.Paste("after\n")
	if code, screen := term.Exit(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, screen)
	}
	out, _ := os.ReadFile(filepath.Join(dir, "out.json"))
	var got struct{ Responses map[string]any }
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("output %s: %v", out, err)
	}
	want := map[string]any{"owner": "platform team leads", "notes": "first\nsecond", "ok": "Yes"}
	if diff := cmp.Diff(want, got.Responses); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "after.txt")); string(after) != "after" {
		t.Errorf("after elicit the shell read %q: bracketed paste is still on", after)
	}
}
