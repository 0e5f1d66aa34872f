package method

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/elicit/elicit/internal/infile"
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
// Unlike Num, it does not change when rows are renumbered. A registry's
// slugs are unique: a row whose slug an earlier row has is skipped.
func (m Method) Slug() string {
	return strings.Map(slugRune, m.Name)
}

// slugRune is the rune that r becomes in a slug.
func slugRune(r rune) rune {
	switch {
	case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
		return r
	case r >= 'A' && r <= 'Z':
		return r + 'a' - 'A'
	}
	return '-'
}

// Registry is a list of methods in file order and the warnings met while
// reading it. Each warning's Path is "row N" (N the file line the row starts
// on) or empty, and its Message is the text shown to users.
type Registry struct {
	Methods  []Method
	Warnings problem.List
}

// Default returns the embedded registry. Nothing is parsed: the registry is
// in the binary as data (default_table.go, methods.csv parsed, which a test
// keeps so). Each call returns its own copy, so the result is the caller's
// to change.
func Default() *Registry {
	methods := slices.Clone(defaultMethods)
	for i := range methods {
		m := &methods[i]
		m.Phases, m.Agents, m.Topics = slices.Clone(m.Phases), slices.Clone(m.Agents), slices.Clone(m.Topics)
	}
	return &Registry{Methods: methods}
}

// defaultCSV returns the embedded registry's CSV text.
func defaultCSV() []byte { return append([]byte(nil), embedded...) }

// maxRegistry is the largest registry file Load reads: 64 MiB, about 250,000
// methods.
const maxRegistry = 64 << 20

var registryInput = infile.Limit{Max: maxRegistry, What: "a method registry",
	Fix: "split it: one part as --registry, the rest as --extra, which is merged over it"}

// Load reads and parses the registry file at path. A file that cannot be
// read (missing, not a regular file, over MaxRegistry) gives an empty
// registry whose warnings say why.
func Load(path string) *Registry {
	data, err := infile.ReadFile(path, registryInput)
	if err != nil {
		r := &Registry{}
		r.Warnings.Add("", "Cannot read registry %s: %v", printable(path), err)
		r.Warnings.Add("", "%s", WarnUnavailable)
		return r
	}
	return parse(string(data))
}

// Parse reads a registry from CSV text. It never fails: every bad row is
// skipped with a warning, and a registry left without methods carries
// WarnUnavailable.
func Parse(data []byte) *Registry { return parse(string(data)) }

// parse reads the registry in text. The first record is the header. A row
// whose num or slug a method kept before it has is skipped, with a warning
// after the row's own ones: two names with one slug would share the files
// and the lookups a slug names.
func parse(text string) *Registry {
	r := &Registry{Methods: []Method{}}
	var expected string
	header := true
	nums := map[int]int{}     // num -> position in r.Methods
	slugs := map[string]int{} // slug -> position in r.Methods
	var lines []int           // the row each kept method was read from
	for rec := range records(text) {
		if header {
			expected, header = checkHeader(rec, &r.Warnings), false
			continue
		}
		m, ok := readRow(rec, expected, &r.Warnings)
		if !ok {
			continue
		}
		if at, dup := nums[m.Num]; dup {
			r.Warnings.Add(rowPath(rec.line), "Duplicate num %d for method %s (already used by %s) — skipping row", m.Num, m.Name, r.Methods[at].Name)
			ok = false
		}
		slug := m.Slug()
		if at, dup := slugs[slug]; dup {
			if other := r.Methods[at].Name; !strings.EqualFold(other, m.Name) {
				r.Warnings.Add(rowPath(rec.line), "Duplicate method slug '%s' for method %s (first on row %d, for %s) — skipping row", slug, m.Name, lines[at], other)
			} else {
				r.Warnings.Add(rowPath(rec.line), "Duplicate method_name '%s' (first on row %d) — skipping row", m.Name, lines[at])
			}
			ok = false
		}
		if ok {
			m.index()
			nums[m.Num], slugs[slug] = len(r.Methods), len(r.Methods)
			lines = append(lines, rec.line)
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

// checkHeader warns about a header that is not the 11- or 10-column one and
// returns the column count a row's warning expects: the header's, or "10 or
// 11" for another header.
func checkHeader(rec record, w *problem.List) (expected string) {
	fields := make([]string, len(rec.fields))
	for i, f := range rec.fields {
		fields[i] = strings.TrimSpace(f)
	}
	got := strings.Join(fields, ",")
	if got == Header || got == strings.TrimSuffix(Header, ",codex_role") {
		return strconv.Itoa(len(fields))
	}
	w.Add(rowPath(rec.line), "Row %d is not the expected header, skipping it and reading columns by position: %s",
		rec.line, first80(rec.raw))
	return "10 or 11"
}

// Lookup finds a method by num ("20"), by name ("architecture decision
// records", any case) or by slug. A number is a num: no valid name is one.
func (r *Registry) Lookup(ref string) (Method, bool) {
	ref = strings.TrimSpace(ref)
	if n, err := strconv.Atoi(ref); err == nil {
		for _, m := range r.Methods {
			if m.Num == n {
				return m, true
			}
		}
	}
	for _, m := range r.Methods {
		if strings.EqualFold(m.Name, ref) || m.Slug() == ref {
			return m, true
		}
	}
	return Method{}, false
}

// Merge returns r overlaid with extra: a method of extra whose name matches
// one of r (any case) replaces it and keeps its num; one whose slug only
// matches is skipped with a warning; the others are appended with the next
// free nums, in extra's order (over an empty r, extra keeps its nums).
// Warnings of both are kept, and a method whose num changes is warned about
// (its slug does not change).
func (r *Registry) Merge(extra *Registry) *Registry {
	out := &Registry{Methods: append([]Method(nil), r.Methods...)}
	at := make(map[string]int, len(out.Methods))
	slugs := make(map[string]int, len(out.Methods))
	next := 1
	for i, m := range out.Methods {
		at[strings.ToLower(m.Name)] = i
		slugs[m.Slug()] = i
		next = max(next, m.Num+1)
	}
	highest := next - 1
	var clashes problem.List
	for _, m := range extra.Methods {
		if i, ok := at[strings.ToLower(m.Name)]; ok {
			if num := out.Methods[i].Num; m.Num != num {
				clashes.Add("", "Extra method %s: num %d is renumbered %d (it replaces the registry's %s and keeps its num) — show it as %d or '%s'", m.Name, m.Num, num, out.Methods[i].Name, num, m.Slug())
				m.Num = num
			}
			out.Methods[i] = m
			continue
		}
		if i, ok := slugs[m.Slug()]; ok {
			clashes.Add("", "Duplicate method slug '%s' for extra method %s (already used by %s) — skipping it", m.Slug(), m.Name, out.Methods[i].Name)
			continue
		}
		switch {
		case len(r.Methods) == 0:
			// Over an empty registry extra is the registry: its nums
			// (unique within it) are all free and kept.
		case m.Num != next:
			clashes.Add("", "Extra method %s: num %d is renumbered %d (extra methods take the next free nums after the registry's highest, %d) — show it as %d or '%s'", m.Name, m.Num, next, highest, next, m.Slug())
			fallthrough
		default:
			m.Num = next
			next++
		}
		at[strings.ToLower(m.Name)] = len(out.Methods)
		slugs[m.Slug()] = len(out.Methods)
		out.Methods = append(out.Methods, m)
	}
	for _, p := range slices.Concat(r.Warnings, extra.Warnings, clashes) {
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
		if (phase == "" || m.hasPhase(phase)) && (tier == 0 || m.Tier == tier) {
			out = append(out, m)
		}
	}
	return out
}

// hasPhase reports whether the method lists phase.
func (m Method) hasPhase(phase string) bool {
	for _, p := range m.Phases {
		if p == phase {
			return true
		}
	}
	return false
}

// WarningTexts returns the warnings' messages as they are shown, never
// nil: one per warning up to problem.Max, then "… and N more warnings" (a
// registry of 64 MiB can have a warning every few bytes), and
// WarnUnavailable last if the registry has it.
func (r *Registry) WarningTexts() []string {
	var rest problem.List
	unavailable := false
	for _, p := range r.Warnings {
		if p.Message == WarnUnavailable {
			unavailable = true
			continue
		}
		rest = append(rest, p)
	}
	rest = rest.Capped()
	out := make([]string, 0, len(rest)+1)
	for _, p := range rest {
		if p.More > 0 {
			out = append(out, fmt.Sprintf("… and %d more warnings (fix the rows above and check again)", p.More))
			continue
		}
		out = append(out, p.Message)
	}
	if unavailable {
		out = append(out, WarnUnavailable)
	}
	return out
}

func rowPath(line int) string { return fmt.Sprintf("row %d", line) }
