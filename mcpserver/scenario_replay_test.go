package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/txtar"
)

// words splits a testscript command line into its words: spaces separate
// them, single quotes group them (two single quotes inside them are one).
func words(line string) []string {
	var out []string
	var w strings.Builder
	quoted, any := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'' && quoted && i+1 < len(line) && line[i+1] == '\'':
			w.WriteByte('\'')
			i++
		case c == '\'':
			quoted, any = !quoted, true
		case c == ' ' && !quoted:
			if any || w.Len() > 0 {
				out = append(out, w.String())
			}
			w.Reset()
			any = false
		default:
			w.WriteByte(c)
		}
	}
	if any || w.Len() > 0 {
		out = append(out, w.String())
	}
	return out
}

// flagValue is the value of --name in args, and whether it is there.
func flagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1], true
		}
	}
	return "", false
}

func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == name {
			return true
		}
	}
	return false
}

// indentedJSON is a result's JSON text, in its order, as the CLI's --json
// prints it.
func indentedJSON(t *testing.T, text string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(text), "", "  "); err != nil {
		t.Fatal(err)
	}
	return buf.String() + "\n"
}

// callText calls a tool and returns its result decoded and its text.
func callText(t *testing.T, cs *mcp.ClientSession, name string, args any) (map[string]any, string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// The JSON text, in its order; the structured content when the text
	// is something else.
	text := ""
	if tc, ok := res.Content[0].(*mcp.TextContent); ok && json.Valid([]byte(tc.Text)) {
		text = tc.Text
	} else {
		raw, _ := json.Marshal(res.StructuredContent)
		text = string(raw)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return got, text, res.IsError
}

// TestScenariosReplayOverMCP replays the CLI's deliberation scenarios
// (internal/cli/testdata/script) through the MCP tools: every start,
// respond, evaluate and synthesize of a scenario becomes its tool call,
// and the scenario's stdout, stderr and cmp checks that follow hold for
// the tool's result printed as the CLI prints it (the next action and its
// prompt; the synthesis's markdown or JSON; the problems). The other
// commands are the CLI's own (status, list, recover, files) and are
// skipped with their checks.
func TestScenariosReplayOverMCP(t *testing.T) {
	for _, name := range []string{"deliberate_converge", "deliberate_cap", "deliberate_deadlock", "deliberate_exits"} {
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile("../internal/cli/testdata/script/" + name + ".txtar")
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{}
			for _, f := range ar.Files {
				files[f.Name] = string(f.Data)
			}
			cs := connectWith(t, &Options{Version: "test", DeliberationDir: t.TempDir()})
			ids := map[string]string{} // the scenario's $D, $D-2, ... (and their values) to the MCP ids
			d, stdin := "", ""
			starts := 0
			var out, errOut string
			skipped, checks := false, 0
			for n, line := range strings.Split(string(ar.Comment), "\n") {
				line = strings.TrimSpace(line)
				if line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				where := fmt.Sprintf("%s.txtar:%d: %s", name, n+1, line)
				w := words(line)
				neg := w[0] == "!"
				if neg {
					w = w[1:]
				}
				switch w[0] {
				case "stdout", "stderr":
					if skipped {
						continue
					}
					pattern := strings.ReplaceAll(w[len(w)-1], "--answer", "answer")
					if strings.Contains(pattern, `\.elicit/`) {
						continue // the CLI's home folder
					}
					for cli, id := range ids {
						if !strings.HasPrefix(cli, "$") {
							pattern = strings.ReplaceAll(pattern, cli, id)
						}
					}
					text := out
					if w[0] == "stderr" {
						text = errOut
					}
					if regexp.MustCompile("(?m)"+pattern).MatchString(text) == neg {
						t.Errorf("%s: not so over MCP; it printed:\n%s", where, text)
					}
					checks++
					continue
				case "cmp":
					if !skipped {
						if out != files[w[2]] {
							t.Errorf("%s: over MCP:\n%s", where, out)
						}
						checks++
					}
					continue
				}
				if w[0] == "env" && strings.HasPrefix(w[1], "ELICIT_NOW=") {
					// The CLI's first ID, which the scenario may write out.
					now, err := time.Parse(time.RFC3339, strings.TrimPrefix(w[1], "ELICIT_NOW="))
					if err != nil {
						t.Fatal(err)
					}
					d = now.UTC().Format("20060102-150405")
					continue
				}
				if w[0] == "stdin" {
					stdin = w[1]
					continue
				}
				exit := 0
				if w[0] == "exec" && w[1] == "elicit-exit" {
					fmt.Sscan(w[2], &exit)
					w = append([]string{"exec", "elicit"}, w[3:]...)
				}
				if w[0] != "exec" || w[1] != "elicit" || len(w) < 4 || w[2] != "deliberate" || exit == 2 {
					skipped = true
					continue
				}
				args := w[4:]
				for i := range args {
					if args[i] == "--file" && i+1 < len(args) && args[i+1] == "-" {
						args[i+1] = stdin
					}
				}
				id := func() string {
					if len(args) == 0 {
						return ""
					}
					return ids[args[0]]
				}
				var got map[string]any
				var text string
				var isErr bool
				skipped = false
				switch w[3] {
				case "start":
					q, _ := flagValue(args, "--question")
					a := map[string]any{"question": q}
					if hasFlag(args, "--quick") {
						a["quick"] = true
					}
					var facts []any
					for i, x := range args {
						if x == "--fact" {
							facts = append(facts, args[i+1])
						}
					}
					if facts != nil {
						a["facts"] = facts
					}
					got, text, isErr = callText(t, cs, "deliberation_start", a)
					starts++
					key, literal := "$D", d
					if starts > 1 {
						key, literal = fmt.Sprintf("$D-%d", starts), fmt.Sprintf("%s-%d", d, starts)
					}
					if !isErr {
						ids[key], ids[literal] = got["id"].(string), got["id"].(string)
						out = fmt.Sprintf("deliberation %s\n\n%s", got["id"], got["prompt"])
						if hasFlag(args, "--json") {
							out = indentedJSON(t, text)
						}
					}
				case "respond":
					f, _ := flagValue(args, "--file")
					got, _, isErr = callText(t, cs, "deliberation_respond", map[string]any{"id": id(), "response": files[f]})
					if !isErr {
						out = fmt.Sprintf("recorded the response to iteration %v (%v)\n", got["iteration"], got["action"])
					}
				case "evaluate":
					f, _ := flagValue(args, "--file")
					var ev any
					if err := json.Unmarshal([]byte(files[f]), &ev); err != nil {
						skipped = true // a document only the CLI's reader sees (bad JSON)
						continue
					}
					got, text, isErr = callText(t, cs, "deliberation_evaluate", map[string]any{"id": id(), "evaluation": ev})
					switch {
					case isErr:
					case hasFlag(args, "--json"):
						out = indentedJSON(t, text)
					default:
						out = fmt.Sprintf("next: %v (iteration %v)", got["action"], got["iteration"])
						if r, _ := got["reason"].(string); r != "" {
							out += ": " + r
						}
						out += "\n"
						if p, _ := got["prompt"].(string); p != "" {
							out += "\n" + p
						}
					}
				case "synthesize":
					a := map[string]any{"id": id()}
					if answer, ok := flagValue(args, "--answer"); ok {
						a["answer"] = answer
					}
					got, text, isErr = callText(t, cs, "deliberation_synthesize", a)
					switch {
					case isErr:
					case hasFlag(args, "--json"):
						out = indentedJSON(t, text)
					default:
						out = got["markdown"].(string)
					}
				default:
					skipped = true
					continue
				}
				if isErr != (exit == 1) {
					t.Fatalf("%s: over MCP the tool says %v (error %v)", where, got, isErr)
				}
				errOut = ""
				if isErr {
					probs := toStrings(got["problems"])
					out = ""
					if len(probs) == 1 {
						errOut = "elicit: " + probs[0] + "\n"
					} else {
						errOut = fmt.Sprintf("elicit: %d problems:\n%s\n", len(probs), strings.Join(probs, "\n"))
					}
				}
			}
			if checks == 0 {
				t.Error("no check of the scenario was replayed")
			}
			t.Logf("%d checks of %s hold over MCP", checks, name)
		})
	}
}
