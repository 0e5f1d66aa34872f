package consult

import (
	"fmt"
	"strings"
)

// Spec names like "codex" or "command:claude -p" choose a consultant on the
// command line.

// parseName splits a consultant name: "codex" gives ("codex", nil);
// "command:PROG ARGS..." gives ("command", [PROG ARGS...]), the arguments
// split on spaces with single and double quotes grouping (no shell runs).
func parseName(name string) (kind string, argv []string, err error) {
	name = strings.TrimSpace(name)
	if name == "codex" {
		return "codex", nil, nil
	}
	rest, ok := strings.CutPrefix(name, "command:")
	if !ok {
		return "", nil, fmt.Errorf("unknown consultant %q (want codex or command:PROGRAM [ARGS...])", name)
	}
	argv, err = splitWords(rest)
	if err != nil {
		return "", nil, fmt.Errorf("consultant %q: %w", name, err)
	}
	if len(argv) == 0 {
		return "", nil, fmt.Errorf("consultant %q names no program (want command:PROGRAM [ARGS...])", name)
	}
	return "command", argv, nil
}

// splitWords splits s on unquoted spaces; quotes group and are removed.
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unclosed %c quote", quote)
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// joinWords is the inverse of splitWords: words with a space, a tab, a
// newline or a quote are quoted (single quotes, or double quotes when the
// word holds a single quote).
func joinWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		switch {
		case w != "" && !strings.ContainsAny(w, " \t\n'\""):
			out[i] = w
		case !strings.Contains(w, "'"):
			out[i] = "'" + w + "'"
		default:
			out[i] = `"` + w + `"`
		}
	}
	return strings.Join(out, " ")
}

// New builds the consultant a name chooses: "codex" gives a Codex with
// opts; "command:PROG ARGS..." a Command with opts' timeout, environment,
// folder, runner and clock.
func New(name string, opts *CodexOptions) (Consultant, error) {
	kind, argv, err := parseName(name)
	if err != nil {
		return nil, err
	}
	o := CodexOptions{}
	if opts != nil {
		o = *opts
	}
	if kind == "codex" {
		return NewCodex(&o), nil
	}
	return newCommand(commandOptions{Path: argv[0], Args: argv[1:], Timeout: o.Timeout, Env: o.Env, Dir: o.Dir, Runner: o.Runner, Clock: o.Clock}), nil
}

// Program is the program a consultant runs, for an availability check.
func Program(c Consultant) string {
	switch c := c.(type) {
	case *Codex:
		return c.o.Path
	case *Command:
		return c.o.Path
	}
	return ""
}
