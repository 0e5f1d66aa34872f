package method

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/elicit/elicit/problem"
)

//go:embed methods.csv
var embedded []byte

// Header is the registry's CSV header. Files may leave out the last column,
// codex_role.
const Header = "num,category,method_name,description,output_pattern,tier,phases,agents,topics,auto_suggest,codex_role"

// WarnUnavailable is added to a registry that has no methods, and so to every
// selection made from it, so that callers in auto mode know no method was
// injected.
const WarnUnavailable = "⚠️ Elicitation registry unavailable — proceeding without method injection."

// Method is one reasoning method, as read from a valid registry row.
type Method struct {
	Num           int      `json:"num"`
	Category      string   `json:"category"`
	Name          string   `json:"method_name"`
	Description   string   `json:"description"`
	OutputPattern string   `json:"output_pattern"`
	Tier          int      `json:"tier"`
	Phases        []string `json:"phases"`
	Agents        []string `json:"agents"` // empty: any agent
	Topics        []string `json:"topics"`
	AutoSuggest   bool     `json:"auto_suggest"`
	CodexRole     string   `json:"codex_role"` // "", "red_team", "failure" or "critic"

	keys      []string // Topics lowercased, for scoring
	nameWords string   // phrase(Name), for the title bonus
}

// Slug is the method's name in lowercase with every character other than a
// letter, digit or hyphen replaced by a hyphen: "occam-s-razor-application".
// Unlike Num, it does not change when rows are renumbered.
func (m Method) Slug() string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, m.Name)
}

// Registry is a list of methods in file order and the warnings met while
// reading it. Each warning's Path is "row N" (N the file line the row starts
// on) or empty, and its Message is the text shown to users.
type Registry struct {
	Methods  []Method
	Warnings problem.List
}

// Default returns the embedded registry. Each call parses it afresh, so the
// result is the caller's to change.
func Default() *Registry { return Parse(embedded) }

// DefaultCSV returns the embedded registry's CSV text.
func DefaultCSV() []byte { return append([]byte(nil), embedded...) }

// Load reads and parses the registry file at path. A file that cannot be
// read gives an empty registry whose warnings say why.
func Load(path string) *Registry {
	data, err := os.ReadFile(path)
	if err != nil {
		r := &Registry{}
		r.Warnings.Add("", "Cannot read registry %s: %v", printable(path), err)
		r.Warnings.Add("", "%s", WarnUnavailable)
		return r
	}
	return Parse(data)
}

// Parse reads a registry from CSV text. It never fails: every bad row is
// skipped with a warning, and a registry left without methods carries
// WarnUnavailable.
func Parse(data []byte) *Registry {
	r := &Registry{}
	recs := splitRecords(string(data))
	if len(recs) > 0 {
		checkHeader(recs[0], &r.Warnings)
		recs = recs[1:]
	}
	r.Methods = make([]Method, 0, len(recs))
	seen := newIndex(len(recs))
	lists := make([]string, 0, min(bytes.Count(data, []byte(","))+len(recs), 1<<16))
	for _, rec := range recs {
		m, ok := parseRow(rec, &r.Warnings, &lists)
		if ok && seen.admit(m, rec.line, &r.Warnings) {
			r.Methods = append(r.Methods, m)
		}
	}
	r.finish()
	return r
}

// finish adds WarnUnavailable when the registry has no methods.
func (r *Registry) finish() {
	if len(r.Methods) == 0 {
		r.Warnings.Add("", "%s", WarnUnavailable)
	}
}

func checkHeader(rec record, w *problem.List) {
	got := strings.Join(trimAll(rec.fields), ",")
	if got == Header || got == strings.TrimSuffix(Header, ",codex_role") {
		return
	}
	w.Add(rowPath(rec.line), "Row %d is not the expected header, skipping it and reading columns by position: %s",
		rec.line, first80(rec.raw))
}

// index enforces unique nums and (case-insensitively) unique names.
type index struct {
	nums  map[int]string
	names map[string]int
}

func newIndex(n int) index {
	return index{nums: make(map[int]string, n), names: make(map[string]int, n)}
}

func (x index) admit(m Method, line int, w *problem.List) bool {
	ok := true
	if other, dup := x.nums[m.Num]; dup {
		w.Add(rowPath(line), "Duplicate num %d for method %s (already used by %s) — skipping row", m.Num, m.Name, other)
		ok = false
	}
	key := strings.ToLower(m.Name)
	if first, dup := x.names[key]; dup {
		w.Add(rowPath(line), "Duplicate method_name '%s' (first on row %d) — skipping row", m.Name, first)
		ok = false
	}
	if ok {
		x.nums[m.Num] = m.Name
		x.names[key] = line
	}
	return ok
}

// Lookup finds a method by num ("20"), by name ("architecture decision
// records", any case) or by slug.
func (r *Registry) Lookup(ref string) (Method, bool) {
	ref = strings.TrimSpace(ref)
	if n, err := strconv.Atoi(ref); err == nil {
		for _, m := range r.Methods {
			if m.Num == n {
				return m, true
			}
		}
		return Method{}, false
	}
	for _, m := range r.Methods {
		if strings.EqualFold(m.Name, ref) || m.Slug() == ref {
			return m, true
		}
	}
	return Method{}, false
}

// Merge returns r overlaid with extra: a method of extra whose name matches
// one of r (any case) replaces it and keeps its num; the others are appended
// with the next free nums, in extra's order. Warnings of both are kept.
func (r *Registry) Merge(extra *Registry) *Registry {
	out := &Registry{Methods: append([]Method(nil), r.Methods...)}
	at := make(map[string]int, len(out.Methods))
	next := 1
	for i, m := range out.Methods {
		at[strings.ToLower(m.Name)] = i
		next = max(next, m.Num+1)
	}
	for _, m := range extra.Methods {
		if i, ok := at[strings.ToLower(m.Name)]; ok {
			m.Num = out.Methods[i].Num
			out.Methods[i] = m
			continue
		}
		m.Num = next
		next++
		at[strings.ToLower(m.Name)] = len(out.Methods)
		out.Methods = append(out.Methods, m)
	}
	for _, p := range append(append(problem.List(nil), r.Warnings...), extra.Warnings...) {
		if p.Message != WarnUnavailable {
			out.Warnings = append(out.Warnings, p)
		}
	}
	out.finish()
	return out
}

// Filter returns the methods that list phase (any phase when empty) and have
// tier (any tier when 0), in registry order.
func (r *Registry) Filter(phase string, tier int) []Method {
	out := []Method{}
	for _, m := range r.Methods {
		if (phase == "" || m.HasPhase(phase)) && (tier == 0 || m.Tier == tier) {
			out = append(out, m)
		}
	}
	return out
}

// HasPhase reports whether the method lists phase.
func (m Method) HasPhase(phase string) bool {
	for _, p := range m.Phases {
		if p == phase {
			return true
		}
	}
	return false
}

// WarningTexts returns the warnings' messages, one per warning, never nil.
func (r *Registry) WarningTexts() []string {
	out := make([]string, len(r.Warnings))
	for i, p := range r.Warnings {
		out[i] = p.Message
	}
	return out
}

func rowPath(line int) string { return fmt.Sprintf("row %d", line) }
