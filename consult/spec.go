package consult

import (
	"errors"
	"fmt"
	"slices"
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

// Allowed is the set of consultants a server may run, fixed by whoever
// started it (its operator), never by a caller.
type Allowed struct {
	rules []allowRule
	names []string
}

// allowRule is one allowed consultant: codex, or a command given word for
// word, or (rest) a command's first words followed by any others.
type allowRule struct {
	kind string
	argv []string
	rest bool
}

// AllowConsultants parses the consultants an operator allows: "codex",
// "command:PROGRAM ARGS..." (that command exactly, its words split as a
// consultant name's are), or a command whose last word is * ("command:claude
// -p *": claude -p followed by any arguments; "command:*": any command).
// Every name that is none of these is reported.
func AllowConsultants(names []string) (*Allowed, error) {
	a := &Allowed{}
	var bad []string
	for _, name := range names {
		kind, argv, err := parseName(name)
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		r := allowRule{kind: kind, argv: argv}
		if n := len(argv); n > 0 && argv[n-1] == "*" {
			r.argv, r.rest = argv[:n-1], true
		}
		a.rules = append(a.rules, r)
		a.names = append(a.names, strings.TrimSpace(name))
	}
	if len(bad) > 0 {
		return nil, errors.New(strings.Join(bad, "; "))
	}
	return a, nil
}

// Allows reports whether the consultant name is one of the allowed ones.
// A name that does not parse is not (New reports why).
func (a *Allowed) Allows(name string) bool {
	kind, argv, err := parseName(name)
	if err != nil {
		return false
	}
	for _, r := range a.rules {
		switch {
		case r.kind != kind:
		case kind == "codex":
			return true
		case r.rest && len(argv) >= len(r.argv) && slices.Equal(argv[:len(r.argv)], r.argv):
			return true
		case !r.rest && slices.Equal(argv, r.argv):
			return true
		}
	}
	return false
}

// Names are the allowed consultants as the operator named them.
func (a *Allowed) Names() []string { return slices.Clone(a.names) }
