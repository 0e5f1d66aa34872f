package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestDeliberationScenariosOverMCP replays issue 28's scenarios, written
// for the CLI (internal/cli/testdata/script), through the MCP tools: each
// command becomes its tool call, and each stdout or stderr assertion is
// checked against the same text the CLI prints (the next action and the
// prompt, the problems, the synthesis, the status lines), so both doors
// give the seed's outcome.
func TestDeliberationScenariosOverMCP(t *testing.T) {
	for _, name := range []string{
		"deliberate_decisive", "deliberate_coverage_new", "deliberate_told", "deliberate_revision_closes",
		"deliberate_illformed", "deliberate_quick_content", "deliberate_phase_mismatch",
	} {
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile("../internal/cli/testdata/script/" + name + ".txtar")
			if err != nil {
				t.Fatal(err)
			}
			replayOverMCP(t, ar)
		})
	}
}

// mcpScenario is the state of one replay: the files of the archive, the
// deliberations it started (the CLI's $D, $D-2, ... in order), and the
// output of the last command.
type mcpScenario struct {
	t              *testing.T
	cs             *mcp.ClientSession
	files          map[string]string
	vars           map[string]string
	ids            []string
	stdout, stderr string
}

func replayOverMCP(t *testing.T, ar *txtar.Archive) {
	dir := t.TempDir()
	sc := &mcpScenario{t: t, files: map[string]string{}, vars: map[string]string{}}
	for _, f := range ar.Files {
		sc.files[f.Name] = string(f.Data)
		// A state file the scenario starts from goes where the server
		// keeps its deliberations.
		if name, ok := strings.CutPrefix(f.Name, ".elicit/deliberations/"); ok {
			if err := os.WriteFile(filepath.Join(dir, name), f.Data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	sc.cs = connectWith(t, &Options{Version: "test", DeliberationDir: dir})
	for n, raw := range strings.Split(string(ar.Comment), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sc.run(fmt.Sprintf("line %d: %s", n+1, line), scriptWords(line))
	}
}

// scriptWords splits a testscript line into words: single quotes group,
// and two single quotes inside them are one.
func scriptWords(line string) []string {
	var words []string
	var cur strings.Builder
	inQuote, started := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inQuote && c == '\'' && i+1 < len(line) && line[i+1] == '\'':
			cur.WriteByte('\'')
			i++
		case c == '\'':
			inQuote, started = !inQuote, true
		case !inQuote && c == ' ':
			if started {
				words = append(words, cur.String())
				cur.Reset()
				started = false
			}
		default:
			cur.WriteByte(c)
			started = true
		}
	}
	if started {
		words = append(words, cur.String())
	}
	return words
}

// expand replaces $D, $D-2, ... with the IDs the server gave the
// deliberations the scenario started, in order.
func (sc *mcpScenario) expand(w string) string {
	for i := len(sc.ids); i >= 2; i-- {
		w = strings.ReplaceAll(w, fmt.Sprintf("$D-%d", i), sc.ids[i-1])
	}
	if len(sc.ids) > 0 {
		return strings.ReplaceAll(w, "$D", sc.ids[0])
	}
	return strings.ReplaceAll(w, "$D", sc.vars["D"])
}

func (sc *mcpScenario) run(where string, words []string) {
	t := sc.t
	switch words[0] {
	case "env":
		k, v, _ := strings.Cut(words[1], "=")
		sc.vars[k] = v
	case "exec":
		want := 0
		args := words[1:]
		if args[0] == "elicit-exit" {
			fmt.Sscan(args[1], &want)
			args = args[2:]
		} else {
			args = args[1:]
		}
		for i := range args {
			args[i] = sc.expand(args[i])
		}
		failed := sc.deliberate(where, args)
		if failed != (want != 0) {
			t.Fatalf("%s: failed %v, want exit %d\nstdout:\n%s\nstderr:\n%s", where, failed, want, sc.stdout, sc.stderr)
		}
	case "stdout", "stderr", "!":
		neg := words[0] == "!"
		if neg {
			words = words[1:]
		}
		text := sc.stdout
		if words[0] == "stderr" {
			text = sc.stderr
		}
		if regexp.MustCompile("(?m)"+words[1]).MatchString(text) == neg {
			t.Errorf("%s: over MCP the %s is:\n%s", where, words[0], text)
		}
	default:
		t.Fatalf("%s: the MCP replay does not know %q", where, words[0])
	}
}

// flag is the value of --name in args.
func flag(args []string, name string) (string, bool) {
	for i, a := range args {
		if a == name {
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
				return args[i+1], true
			}
			return "", true
		}
	}
	return "", false
}

// deliberate runs "deliberate CMD ..." as its tool and keeps the text the
// CLI would print; it reports whether the call failed.
func (sc *mcpScenario) deliberate(where string, args []string) bool {
	t := sc.t
	if args[0] != "deliberate" {
		t.Fatalf("%s: not a deliberate command", where)
	}
	cmd, rest := args[1], args[2:]
	sc.stdout, sc.stderr = "", ""
	file := func() string {
		name, _ := flag(rest, "--file")
		data, ok := sc.files[name]
		if !ok {
			t.Fatalf("%s: no file %s in the scenario", where, name)
		}
		return data
	}
	var got map[string]any
	var text string
	var isErr bool
	switch cmd {
	case "start":
		q, _ := flag(rest, "--question")
		a := map[string]any{"question": q}
		if _, ok := flag(rest, "--quick"); ok {
			a["quick"] = true
		}
		got, text, isErr = callRaw(t, sc.cs, "deliberation_start", a)
		if !isErr {
			sc.ids = append(sc.ids, got["id"].(string))
			sc.stdout = got["prompt"].(string)
		}
	case "respond":
		got, text, isErr = callRaw(t, sc.cs, "deliberation_respond", map[string]any{"id": rest[0], "response": file()})
	case "evaluate":
		var doc map[string]any
		if err := json.Unmarshal([]byte(file()), &doc); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		got, text, isErr = callRaw(t, sc.cs, "deliberation_evaluate", map[string]any{"id": rest[0], "evaluation": doc})
		if !isErr {
			sc.stdout = sc.nextText(rest[0], got)
		}
	case "status":
		got, text, isErr = callRaw(t, sc.cs, "deliberation_status", map[string]any{"id": rest[0]})
		if _, asJSON := flag(rest, "--json"); asJSON {
			sc.stdout = text
		} else if !isErr {
			sc.stdout = statusText(got)
		}
	case "synthesize":
		args := map[string]any{"id": rest[0]}
		if answer, ok := flag(rest, "--answer"); ok {
			args["answer"] = answer
		}
		got, text, isErr = callRaw(t, sc.cs, "deliberation_synthesize", args)
		if !isErr {
			sc.stdout = got["markdown"].(string)
		}
	case "recover":
		got, text, isErr = callRaw(t, sc.cs, "deliberation_recover", map[string]any{"id": rest[0]})
		if !isErr {
			sc.stdout = got["prompt"].(string)
		}
	default:
		t.Fatalf("%s: the MCP replay does not know deliberate %s", where, cmd)
	}
	if isErr {
		if probs, ok := got["problems"].([]any); ok {
			sc.stderr = strings.Join(toStrings(probs), "\n")
		} else {
			sc.stderr = text
		}
	}
	return isErr
}

// callRaw calls a tool and returns its structured result, its text (the
// JSON as the server wrote it, keys in its order) and whether it failed.
func callRaw(t *testing.T, cs *mcp.ClientSession, name string, args any) (map[string]any, string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return resultJSON(t, name, res), res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// nextText is what the CLI's evaluate prints: the next action, the
// coverage check's findings and the prompt (taken from the state when the
// result does not carry it).
func (sc *mcpScenario) nextText(id string, next map[string]any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "next: %v (iteration %v)", next["action"], next["iteration"])
	if r, ok := next["reason"].(string); ok && r != "" {
		fmt.Fprintf(&b, ": %s", r)
	}
	b.WriteString("\n")
	if c, ok := next["coverage"].(map[string]any); ok {
		for _, n := range c["new"].([]any) {
			fmt.Fprintf(&b, "coverage: NEW: %s\n", n)
		}
		for _, e := range c["cited"].([]any) {
			e := e.(map[string]any)
			fmt.Fprintf(&b, "coverage: cited before: %s (as %s, %s)\n", e["artifact"], e["earlier"], e["where"])
		}
	}
	prompt, ok := next["prompt"].(string)
	if !ok {
		st, _, _ := callRaw(sc.t, sc.cs, "deliberation_status", map[string]any{"id": id})
		if n, _ := st["next"].(map[string]any); n != nil {
			prompt, _ = n["prompt"].(string)
		}
	}
	if prompt != "" {
		b.WriteString("\n" + prompt)
	}
	return b.String()
}

// statusText is the part of the CLI's status the scenarios read: the
// iteration and phase, the notes and the warnings.
func statusText(doc map[string]any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "iteration: %v, phase: %v\n", doc["iteration"], doc["phase"])
	for _, key := range []string{"notes", "warnings"} {
		list, _ := doc[key].([]any)
		for _, v := range list {
			fmt.Fprintf(&b, "%s: %v\n", strings.TrimSuffix(key, "s"), v)
		}
	}
	return b.String()
}
