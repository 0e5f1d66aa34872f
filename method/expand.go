package method

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// worked holds the step texts the Rune skill writes out for three patterns;
// Expand reproduces them exactly. Other patterns expand mechanically.
var worked = map[string][]string{
	"paths->evaluation->selection": {
		"Explore 3 distinct paths",
		"Evaluate each on feasibility/complexity",
		"Select strongest, explain elimination",
	},
	"failure->causes->prevention": {
		"Declare the failure scenario",
		"Brainstorm 3-5 failure causes",
		"Design prevention measures",
	},
	"defense->attack->hardening": {
		"Document existing defenses",
		"Identify attack vectors",
		"Recommend hardening",
	},
}

// Steps splits an output pattern into its steps: steps are separated by "->"
// or "→", with or without spaces around them; everything else, such as "/",
// "+" or "↔", stays inside a step. A step may not be empty or hold a control
// character, a backtick, "<" or ">".
func Steps(pattern string) ([]string, error) {
	if err := checkSteps(pattern); err != nil {
		return nil, err
	}
	parts := strings.Split(strings.ReplaceAll(pattern, "→", "->"), "->")
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
	}
	return parts, nil
}

// checkSteps is Steps' validation, without allocating.
func checkSteps(pattern string) error {
	i := 0
	for rest := pattern; ; i++ {
		step, after, arrow := cutArrow(rest)
		if step = strings.TrimSpace(step); step == "" {
			return fmt.Errorf("step %d is empty", i+1)
		}
		if j := strings.IndexFunc(step, unsafeInStep); j >= 0 {
			r, _ := utf8.DecodeRuneInString(step[j:])
			return fmt.Errorf("step %d contains %s", i+1, strconv.QuoteRune(r))
		}
		if !arrow {
			return nil
		}
		rest = after
	}
}

// cutArrow cuts s around its first "->" or "→".
func cutArrow(s string) (before, after string, found bool) {
	a, b := strings.Index(s, "->"), strings.Index(s, "→")
	switch {
	case a >= 0 && (b < 0 || a < b):
		return s[:a], s[a+2:], true
	case b >= 0:
		return s[:b], s[b+len("→"):], true
	}
	return s, "", false
}

func unsafeInStep(r rune) bool {
	return unicode.IsControl(r) || r == '`' || r == '<' || r == '>' || r == utf8.RuneError
}

// Expand turns an output pattern into the text of its numbered steps. The
// three patterns the Rune skill spells out give its wording; any other step
// is the step itself with its first letter in upper case.
func Expand(pattern string) ([]string, error) {
	steps, err := Steps(pattern)
	if err != nil {
		return nil, err
	}
	if text, ok := worked[strings.ToLower(strings.Join(steps, "->"))]; ok {
		return append([]string(nil), text...), nil
	}
	for i, s := range steps {
		r, n := utf8.DecodeRuneInString(s)
		steps[i] = string(unicode.ToUpper(r)) + s[n:]
	}
	return steps, nil
}

// ExpandText is Expand as numbered lines: "1. ...\n2. ...\n".
func ExpandText(pattern string) (string, error) {
	steps, err := Expand(pattern)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, s := range steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, s)
	}
	return b.String(), nil
}

// ErrUnsafeName is returned by Inject for a method name that fails the
// registry's sanitizing rule.
var ErrUnsafeName = errors.New("method name has characters other than letters, digits, spaces, apostrophes and hyphens")

// Inject renders the prompt-modifier block for a method:
//
//	### Structured Reasoning: {method_name}
//
//	For this section, apply {method_name}:
//
//	1. ...
func Inject(m Method) (string, error) {
	if m.Name == "" || strings.IndexFunc(m.Name, badNameRune) >= 0 {
		return "", fmt.Errorf("inject %q: %w", m.Name, ErrUnsafeName)
	}
	steps, err := ExpandText(m.OutputPattern)
	if err != nil {
		return "", fmt.Errorf("inject %s: output_pattern: %w", m.Name, err)
	}
	return fmt.Sprintf("### Structured Reasoning: %s\n\nFor this section, apply %s:\n\n%s", m.Name, m.Name, steps), nil
}

func badNameRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == ' ' || r == '\'' || r == '-')
}
