package config

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/elicit/elicit/internal/jsonnode"
)

// CodexKey is the key of the codex section of the settings file.
const CodexKey = "codex"

// Defaults and allowlists of the codex section (seed: Cross-Model Routing).
const (
	DefaultCodexModel     = "gpt-5.3-codex"
	DefaultCodexReasoning = "xhigh"
	// Cross-model timeouts are clamped to MinElicitTimeout..MaxElicitTimeout
	// seconds.
	DefaultElicitTimeout = 300
	MinElicitTimeout     = 300
	MaxElicitTimeout     = 900
)

// CodexModelAllowlist is the pattern a configured model must match;
// ValidCodexModel checks it.
const CodexModelAllowlist = `^gpt-5(\.\d+)?-codex(-spark)?$`

// ValidCodexModel reports whether m matches CodexModelAllowlist. It is plain
// code so that nothing is compiled at package initialisation.
func ValidCodexModel(m string) bool {
	rest, ok := strings.CutPrefix(m, "gpt-5")
	if !ok {
		return false
	}
	if frac, ok := strings.CutPrefix(rest, "."); ok {
		n := 0
		for n < len(frac) && frac[n] >= '0' && frac[n] <= '9' {
			n++
		}
		if n == 0 {
			return false
		}
		rest = frac[n:]
	}
	rest, ok = strings.CutPrefix(rest, "-codex")
	return ok && (rest == "" || rest == "-spark")
}

// CodexReasoningAllowlist lists the accepted reasoning efforts.
var CodexReasoningAllowlist = []string{"xhigh", "high", "medium", "low"}

// Codex is the codex section of elicit.config.json with every value valid.
type Codex struct {
	// Model for cross-model runs; default DefaultCodexModel.
	Model string `json:"model"`
	// Reasoning is model_reasoning_effort for cross-model runs; default
	// DefaultCodexReasoning.
	Reasoning string `json:"reasoning"`
	// Disabled turns every codex use off; default false.
	Disabled    bool             `json:"disabled"`
	Elicitation CodexElicitation `json:"elicitation"`
}

// CodexElicitation is codex.elicitation: cross-model routing for methods.
type CodexElicitation struct {
	// Enabled gates cross-model routing; default true.
	Enabled bool `json:"enabled"`
	// Methods, when not empty, lists the only methods (names or slugs) that
	// may be routed; empty means every method with a codex_role.
	Methods []string `json:"methods"`
	// Timeout in seconds, clamped to 300..900; default 300.
	Timeout float64 `json:"timeout"`
}

// CodexSettings is the resolved codex section and the problems found in
// it: each wrong value was replaced by its default, with a warning.
type CodexSettings struct {
	Codex
	Warnings []string `json:"warnings,omitempty"`
}

// codexParser resolves a codex section; locate, when not nil, gives a
// setting's place in the file ("PATH:LINE:COLUMN:") for its warnings.
type codexParser struct {
	CodexSettings
	locate func(path string) string
}

// DefaultCodex returns the codex section's defaults.
func DefaultCodex() Codex {
	return Codex{Model: DefaultCodexModel, Reasoning: DefaultCodexReasoning,
		Elicitation: CodexElicitation{Enabled: true, Methods: []string{}, Timeout: DefaultElicitTimeout}}
}

// CodexFor reads the codex section of a project's settings file. A missing
// file or section gives the defaults; a wrong value gives its default and a
// warning naming it; only a file that is not a JSON object is an error.
func CodexFor(dir string) (CodexSettings, error) {
	f, err := load(dir)
	if err != nil {
		return CodexSettings{Codex: DefaultCodex()}, err
	}
	raw, _, _ := f.get(CodexKey)
	s := parseCodex(raw, f.locate)
	s.Warnings = f.warnings(nil, s.Warnings...)
	return s, nil
}

// ParseCodex resolves a codex section (nil: absent).
func ParseCodex(raw json.RawMessage) CodexSettings { return parseCodex(raw, nil) }

// parseCodex is ParseCodex with each warning placed by locate (given the
// setting's dotted path, it returns "PATH:LINE:COLUMN:"), when not nil.
func parseCodex(raw json.RawMessage, locate func(path string) string) CodexSettings {
	s := &codexParser{CodexSettings: CodexSettings{Codex: DefaultCodex()}, locate: locate}
	section := s.object(CodexKey, raw)
	for _, k := range keysInOrder(raw, section) {
		v := section[k]
		switch k {
		case "model":
			s.model(v)
		case "reasoning":
			s.reasoning(v)
		case "disabled":
			s.boolean("codex.disabled", v, &s.Disabled)
		case "elicitation":
			s.elicitation(v)
		default:
			s.warnf("codex."+k, "codex.%s: unknown setting, ignored (settings: model, reasoning, disabled, elicitation)", k)
		}
	}
	return s.CodexSettings
}

// warnf records a warning about the setting at path.
func (s *codexParser) warnf(path, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if s.locate != nil {
		msg = s.locate(path) + " " + msg
	}
	s.Warnings = append(s.Warnings, msg)
}

// object decodes a section that must be an object; anything else warns.
func (s *codexParser) object(path string, raw json.RawMessage) map[string]json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		s.warnf(path, "%s must be an object (got %s); using the defaults", path, raw)
		return nil
	}
	return m
}

func (s *codexParser) model(v json.RawMessage) {
	var m string
	switch {
	case json.Unmarshal(v, &m) != nil:
		s.warnf("codex.model", "codex.model must be a string (got %s); using %s", v, DefaultCodexModel)
	case !ValidCodexModel(m):
		s.warnf("codex.model", "codex.model %q does not match %s; using %s", m, CodexModelAllowlist, DefaultCodexModel)
	default:
		s.Model = m
	}
}

func (s *codexParser) reasoning(v json.RawMessage) {
	var r string
	switch {
	case json.Unmarshal(v, &r) != nil:
		s.warnf("codex.reasoning", "codex.reasoning must be a string (got %s); using %s", v, DefaultCodexReasoning)
	case !slices.Contains(CodexReasoningAllowlist, r):
		s.warnf("codex.reasoning", "codex.reasoning %q is not one of %s; using %s", r, strings.Join(CodexReasoningAllowlist, ", "), DefaultCodexReasoning)
	default:
		s.Reasoning = r
	}
}

func (s *codexParser) boolean(path string, v json.RawMessage, dst *bool) {
	if json.Unmarshal(v, dst) != nil {
		s.warnf(path, "%s must be true or false (got %s); using %v", path, v, *dst)
	}
}

func (s *codexParser) elicitation(raw json.RawMessage) {
	section := s.object("codex.elicitation", raw)
	for _, k := range keysInOrder(raw, section) {
		v := section[k]
		switch k {
		case "enabled":
			s.boolean("codex.elicitation.enabled", v, &s.Elicitation.Enabled)
		case "methods":
			var ms []string
			if json.Unmarshal(v, &ms) != nil {
				s.warnf("codex.elicitation.methods", "codex.elicitation.methods must be a list of method names (got %s); using [] (every method with a codex_role)", v)
			} else if ms != nil {
				s.Elicitation.Methods = ms
			}
		case "timeout":
			s.timeout(v)
		default:
			s.warnf("codex.elicitation."+k, "codex.elicitation.%s: unknown setting, ignored (settings: enabled, methods, timeout)", k)
		}
	}
}

// timeout clamps a number of seconds to 300..900, as the seed does.
func (s *codexParser) timeout(v json.RawMessage) {
	var t float64
	if json.Unmarshal(v, &t) != nil || math.IsNaN(t) || math.IsInf(t, 0) {
		s.warnf("codex.elicitation.timeout", "codex.elicitation.timeout must be a number of seconds (got %s); using %d", v, DefaultElicitTimeout)
		return
	}
	clamped := math.Max(MinElicitTimeout, math.Min(MaxElicitTimeout, t))
	if clamped != t {
		s.warnf("codex.elicitation.timeout", "codex.elicitation.timeout %g is outside %d..%d seconds; using %g", t, MinElicitTimeout, MaxElicitTimeout, clamped)
	}
	s.Elicitation.Timeout = clamped
}

// keysInOrder returns the keys of m, the object raw decoded, in the order
// raw has them (each once), so that warnings come in file order.
func keysInOrder(raw json.RawMessage, m map[string]json.RawMessage) []string {
	if len(m) == 0 {
		return nil
	}
	keys := make([]string, 0, len(m))
	if root, err := jsonnode.Parse(raw); err == nil {
		for _, mem := range root.Members {
			if _, ok := m[mem.Key]; ok && !slices.Contains(keys, mem.Key) {
				keys = append(keys, mem.Key)
			}
		}
	}
	if len(keys) != len(m) { // not expected: raw decoded to m
		keys = keys[:0]
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
	}
	return keys
}
