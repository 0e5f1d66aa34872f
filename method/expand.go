package method

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// worked holds the step texts the Rune skill writes out for three patterns;
// Expand reproduces them exactly. Other patterns expand mechanically. It and
// stepText are built on first use, not at package initialisation.
var worked = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
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
})

// stepText words the steps of the embedded registry's patterns as
// instructions. Expand uses it for any pattern that is not one of the worked
// three; a step it does not know is shown as written.
var stepText = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"adaptations":          "Propose adaptations that keep the plan viable",
		"alignment":            "Align on one shared set of requirements",
		"antithesis":           "Argue the strongest opposing case",
		"approaches":           "Work the problem by independent approaches",
		"assumptions":          "List the assumptions the plan rests on",
		"attack":               "Identify attack vectors",
		"audit":                "Audit what was found and what is still exposed",
		"balanced-assessment":  "Settle on a balanced assessment",
		"causes":               "Brainstorm 3-5 failure causes",
		"challenges":           "Challenge each assumption as a devil's advocate",
		"clarifications":       "Clarify what the answers changed",
		"comparison":           "Compare the results side by side",
		"complexity":           "Name the complexity the design carries",
		"consensus":            "Keep what the approaches agree on, explain any disagreement",
		"constraints":          "State the constraints each side brings",
		"contingencies":        "Plan a contingency for each scenario",
		"criteria":             "Define weighted evaluation criteria",
		"critique":             "Critique it sharply",
		"decision":             "State the decision",
		"defend":               "Defend against each attack",
		"defense":              "Document existing defenses",
		"evaluation":           "Evaluate each on feasibility/complexity",
		"failure":              "Declare the failure scenario",
		"failures":             "Inject plausible failures",
		"findings":             "Collect the findings of each reviewer",
		"hardening":            "Recommend hardening",
		"impacts":              "Assess the impact of each",
		"improvements":         "Propose concrete improvements",
		"insights":             "Record the insights the questions surface",
		"investigation":        "Investigate beneath the symptoms",
		"minimal":              "Describe the minimal design that still works",
		"needs":                "Voice each persona's needs",
		"new-approach":         "Rebuild an approach from those truths",
		"options":              "List the options considered",
		"outcome":              "Describe the desired outcome",
		"paths":                "Explore 3 distinct paths",
		"personas":             "Introduce the user personas",
		"perspectives":         "Gather each perspective in turn",
		"praise":               "Praise what is strong",
		"prevention":           "Design prevention measures",
		"questions":            "Ask the naive questions a newcomer would",
		"rationale":            "Explain the rationale",
		"recommendation":       "Recommend the best-scoring option",
		"recommendations":      "Turn the findings into recommendations",
		"refined":              "Present the refined version",
		"requirements":         "Derive the requirements",
		"resilience":           "Judge the resilience and how to improve it",
		"root-cause":           "Name the root cause",
		"scenarios":            "Sketch alternative scenarios",
		"scores":               "Score each option against the criteria",
		"selection":            "Select strongest, explain elimination",
		"simplification":       "Simplify away what the problem does not need",
		"solution":             "Fix the root cause",
		"steps":                "Work backwards to the steps that reach it",
		"strengthening":        "Strengthen what survives the challenge",
		"strengths/weaknesses": "Name the strengths and weaknesses",
		"symptom":              "Describe the symptom",
		"synthesis":            "Synthesize the strongest points into one view",
		"thesis":               "State the thesis",
		"trade-offs":           "Weigh the trade-offs",
		"trends":               "Scan the relevant future trends",
		"truths":               "Keep only what is known to be true",
		"verification":         "Verify the cause explains every symptom",
		"why-chain":            "Ask why, repeatedly, until the answers stop changing",
	}
})

// Steps splits an output pattern into its steps: steps are separated by "->"
// or "→", with or without spaces around them; everything else, such as "/",
// "+" or "↔", stays inside a step. A step may not be empty or hold a control
// character, a backtick, "<" or ">".
func Steps(pattern string) ([]string, error) {
	steps := strings.Split(strings.ReplaceAll(pattern, "→", "->"), "->")
	for i, s := range steps {
		s = strings.TrimSpace(s)
		if s == "" {
			return nil, fmt.Errorf("step %d is empty", i+1)
		}
		if j := strings.IndexFunc(s, unsafeInStep); j >= 0 {
			r, _ := utf8.DecodeRuneInString(s[j:])
			return nil, fmt.Errorf("step %d contains %s", i+1, strconv.QuoteRune(r))
		}
		steps[i] = s
	}
	return steps, nil
}

func unsafeInStep(r rune) bool {
	return unicode.IsControl(r) || r == '`' || r == '<' || r == '>' || r == utf8.RuneError
}

// Expand turns an output pattern into the text of its numbered steps. The
// three patterns the Rune skill spells out give its wording; other steps are
// worded from a table of the embedded registry's steps, and a step not in
// it is the step itself with its first letter in upper case.
func Expand(pattern string) ([]string, error) {
	steps, err := Steps(pattern)
	if err != nil {
		return nil, err
	}
	if text, ok := worked()[strings.ToLower(strings.Join(steps, "->"))]; ok {
		return append([]string(nil), text...), nil
	}
	for i, s := range steps {
		if text, ok := stepText()[strings.ToLower(s)]; ok {
			steps[i] = text
			continue
		}
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
	if m.Name == "" || !validName(m.Name) {
		return "", fmt.Errorf("inject %q: %w", m.Name, ErrUnsafeName)
	}
	steps, err := ExpandText(m.OutputPattern)
	if err != nil {
		return "", fmt.Errorf("inject %s: output_pattern: %w", m.Name, err)
	}
	return fmt.Sprintf("### Structured Reasoning: %s\n\nFor this section, apply %s:\n\n%s", m.Name, m.Name, steps), nil
}

// validName reports whether a method name has only the characters
// badNameRune allows.
func validName(s string) bool { return strings.IndexFunc(s, badNameRune) < 0 }

func badNameRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == ' ' || r == '\'' || r == '-')
}
