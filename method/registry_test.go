package method

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	goldenfile "github.com/elicit/elicit/internal/golden"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// golden compares got with testdata/golden/name, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, name, []byte(got))
}

var ignoreIndex = cmpopts.IgnoreUnexported(Method{})

// TestDefaultMatchesRune checks the embedded registry's structured columns
// against the table in rune.md §2, row by row, in file order.
func TestDefaultMatchesRune(t *testing.T) {
	r := Default()
	if len(r.Warnings) != 0 {
		t.Fatalf("embedded registry warnings: %v", r.Warnings)
	}
	want := runeTable(t)
	if diff := cmp.Diff(want, r.Methods, ignoreIndex, cmpopts.IgnoreFields(Method{}, "Description")); diff != "" {
		t.Errorf("embedded registry differs from rune.md §2 (-want +got):\n%s", diff)
	}
	for _, m := range r.Methods {
		if m.Description == "" {
			t.Errorf("method %d has no description", m.Num)
		}
	}
}

func runeTable(t *testing.T) []Method {
	data, err := os.ReadFile("testdata/rune-table.md")
	if err != nil {
		t.Fatal(err)
	}
	list := func(s string) []string {
		if s == "–" {
			return []string{}
		}
		return strings.Split(s, ",")
	}
	var out []Method
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		c := strings.Split(strings.Trim(line, "|"), "|")
		num, _ := strconv.Atoi(c[0])
		tier, _ := strconv.Atoi(c[3])
		codex := c[7]
		if codex == "–" {
			codex = ""
		}
		out = append(out, Method{Num: num, Category: c[1], Name: c[2], Tier: tier, Phases: list(c[4]),
			Agents: list(c[5]), Topics: list(c[6]), CodexRole: codex, OutputPattern: c[8], AutoSuggest: tier == 1})
	}
	return out
}

// TestDefaultCounts holds the seed's tier totals and per-category table and
// rune.md §4's per-phase counts.
func TestDefaultCounts(t *testing.T) {
	type pair struct{ T1, T2 int }
	byTier := map[int]int{}
	byCategory := map[string]pair{}
	byPhase := map[string]pair{}
	add := func(m map[string]pair, k string, tier int) {
		p := m[k]
		if tier == 1 {
			p.T1++
		} else {
			p.T2++
		}
		m[k] = p
	}
	for _, m := range Default().Methods {
		byTier[m.Tier]++
		add(byCategory, m.Category, m.Tier)
		for _, ph := range m.Phases {
			add(byPhase, ph, m.Tier)
		}
	}
	if diff := cmp.Diff(map[int]int{1: 16, 2: 8}, byTier); diff != "" {
		t.Errorf("tier counts (-want +got):\n%s", diff)
	}
	wantCategory := map[string]pair{
		"collaboration": {4, 2}, "advanced": {2, 0}, "competitive": {1, 1}, "technical": {2, 1},
		"research": {1, 0}, "risk": {3, 1}, "core": {3, 0}, "creative": {0, 2}, "philosophical": {0, 1},
	}
	if diff := cmp.Diff(wantCategory, byCategory); diff != "" {
		t.Errorf("category counts (-want +got):\n%s", diff)
	}
	wantPhase := map[string]pair{
		"plan:0": {5, 1}, "plan:1": {1, 0}, "plan:1.8": {4, 0}, "plan:2": {1, 1}, "plan:2.5": {1, 1},
		"plan:4": {5, 0}, "forge:3": {7, 2}, "work:5": {3, 0}, "arc:5.5": {1, 0}, "review:6": {3, 4},
		"arc:7": {1, 0}, "arc:7.5": {2, 0},
	}
	if diff := cmp.Diff(wantPhase, byPhase); diff != "" {
		t.Errorf("phase counts (-want +got):\n%s", diff)
	}
}

func TestDefaultHeader(t *testing.T) {
	first, _, _ := strings.Cut(string(defaultCSV()), "\n")
	if first != Header {
		t.Errorf("embedded header = %q, want %q", first, Header)
	}
}

func TestLookup(t *testing.T) {
	r := Default()
	tests := []struct {
		name, ref string
		want      int // num; 0 for not found
	}{
		{"num", "20", 20},
		{"num with blanks", " 47 ", 47},
		{"exact name", "Tree of Thoughts", 11},
		{"name any case", "tree OF thoughts", 11},
		{"slug", "occam-s-razor-application", 47},
		{"unknown num", "2", 0},
		{"a number is never a name", "-1", 0},
		{"unknown name", "Tree", 0},
		{"empty", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := r.Lookup(tt.ref)
			if ok != (tt.want != 0) || m.Num != tt.want {
				t.Errorf("Lookup(%q) = %d, %t; want %d", tt.ref, m.Num, ok, tt.want)
			}
		})
	}
}

func TestMerge(t *testing.T) {
	extra := Parse([]byte(Header + "\n" +
		`900,risk,tree of thoughts,Replaced,a->b,2,"plan:0","","alpha",false,` + "\n" +
		`3,risk,New One,First new,a->b,1,"plan:0","","beta",true,` + "\n" +
		`77,risk,New Two,Second new,a->b,1,"plan:0","","gamma",true,` + "\n"))
	got := Default().Merge(extra)
	// Every num that changes is named, with the new num and the slug.
	want := []string{
		"Extra method tree of thoughts: num 900 is renumbered 11 (it replaces the registry's Tree of Thoughts and keeps its num) — show it as 11 or 'tree-of-thoughts'",
		"Extra method New One: num 3 is renumbered 52 (extra methods take the next free nums after the registry's highest, 51) — show it as 52 or 'new-one'",
		"Extra method New Two: num 77 is renumbered 53 (extra methods take the next free nums after the registry's highest, 51) — show it as 53 or 'new-two'",
	}
	if diff := cmp.Diff(want, got.WarningTexts()); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if n := len(got.Methods); n != 26 {
		t.Fatalf("merged registry has %d methods, want 26", n)
	}
	tot, _ := got.Lookup("11")
	if tot.Name != "tree of thoughts" || tot.Description != "Replaced" || tot.Tier != 2 {
		t.Errorf("method 11 = %+v, want the replacement keeping num 11", tot)
	}
	for name, num := range map[string]int{"New One": 52, "New Two": 53} {
		if m, ok := got.Lookup(name); !ok || m.Num != num {
			t.Errorf("%s has num %d (found %t), want %d", name, m.Num, ok, num)
		}
	}
	if len(Default().Methods) != 24 {
		t.Error("Merge changed its receiver")
	}
}

// TestMergeSlugClash: an extra method whose slug, not its name, is taken
// would share the files the slug names; it is skipped with a warning.
func TestMergeSlugClash(t *testing.T) {
	extra := Parse([]byte(Header + "\n" +
		`900,risk,Tree-of Thoughts,Clash,a->b,2,"plan:0","","alpha",false,` + "\n" +
		`901,risk,New-One,First new,a->b,1,"plan:0","","beta",true,` + "\n" +
		`902,risk,New One,Second new,a->b,1,"plan:0","","gamma",true,` + "\n"))
	got := Default().Merge(extra)
	want := []string{
		"Duplicate method slug 'new-one' for method New One (first on row 3, for New-One) — skipping row",
		"Duplicate method slug 'tree-of-thoughts' for extra method Tree-of Thoughts (already used by Tree of Thoughts) — skipping it",
		"Extra method New-One: num 901 is renumbered 52 (extra methods take the next free nums after the registry's highest, 51) — show it as 52 or 'new-one'",
	}
	if diff := cmp.Diff(want, got.WarningTexts()); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if m, _ := got.Lookup("tree-of-thoughts"); m.Num != 11 || m.Description == "Clash" {
		t.Errorf("tree-of-thoughts = %d %q, want the embedded method 11", m.Num, m.Description)
	}
	if n := len(got.Methods); n != 25 {
		t.Errorf("merged registry has %d methods, want 25", n)
	}
}

func TestMergeUnavailable(t *testing.T) {
	tests := []struct {
		name        string
		base, extra *Registry
		want        []string
	}{
		{"empty extra keeps base quiet", Default(), Parse(nil), []string{}},
		{"both empty", Parse(nil), Parse([]byte(Header)), []string{WarnUnavailable}},
		{"empty base, extra methods keep their nums", Parse(nil), Default(), []string{}},
		{"a free num is still the next one", Default(), Parse([]byte(Header + "\n" + `52,risk,Next,d,a->b,1,"plan:0","","alpha",true,` + "\n")), []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.base.Merge(tt.extra).WarningTexts()); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	huge := write("huge.csv", nil)
	if err := os.Truncate(huge, maxRegistry+1); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		methods int
		warning string // the first warning's start; "" for none
	}{
		{"copy of the default", write("methods.csv", defaultCSV()), 24, ""},
		{"a generated registry", write("long.csv", generated(300)), 300, ""},
		{"missing", filepath.Join(dir, "missing.csv"), 0, "Cannot read registry " + filepath.Join(dir, "missing.csv") + ": "},
		{"a directory", dir, 0, "Cannot read registry " + dir + ": " + dir + ": a directory, not a regular file"},
		{"over the cap", huge, 0, "Cannot read registry " + huge + ": " + huge + ": more than 64 MiB, the cap for a method registry (split it: one part as --registry, the rest as --extra, which is merged over it)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Load(tt.path)
			w := r.WarningTexts()
			if len(r.Methods) != tt.methods {
				t.Errorf("%d methods, want %d", len(r.Methods), tt.methods)
			}
			switch {
			case tt.warning == "" && len(w) != 0:
				t.Errorf("warnings %q, want none", w)
			case tt.warning != "" && (len(w) != 2 || !strings.HasPrefix(w[0], tt.warning) || w[1] != WarnUnavailable):
				t.Errorf("warnings %q, want %q... and the unavailable warning", w, tt.warning)
			}
		})
	}
}

// TestLoadIsParse checks that reading a file gives what parsing its text
// gives, warnings and all.
func TestLoadIsParse(t *testing.T) {
	data := append(generated(2000), "x,\"broken\n"...)
	path := filepath.Join(t.TempDir(), "methods.csv")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Parse(data), Load(path), cmp.AllowUnexported(Method{})); diff != "" {
		t.Errorf("Load differs from Parse (-Parse +Load):\n%s", diff)
	}
}

// TestDefaultIsTheCallers checks that Default, parsed once, still gives
// every caller a registry of its own.
func TestDefaultIsTheCallers(t *testing.T) {
	a := Default()
	a.Methods[0].Name = "Changed"
	a.Methods[0].Topics[0] = "changed"
	a.Methods[1].Phases = append(a.Methods[1].Phases[:0], "plan:9")
	a.Methods = a.Methods[:1]
	b := Default()
	if diff := cmp.Diff(Parse(embedded), b, cmp.AllowUnexported(Method{})); diff != "" {
		t.Errorf("a changed Default changed the next (-fresh +next):\n%s", diff)
	}
}

func TestSlug(t *testing.T) {
	for name, want := range map[string]string{
		"Occam's Razor Application": "occam-s-razor-application",
		"5 Whys Deep Dive":          "5-whys-deep-dive",
		"Pre-mortem Analysis":       "pre-mortem-analysis",
	} {
		if got := (Method{Name: name}).Slug(); got != want {
			t.Errorf("Slug(%q) = %q, want %q", name, got, want)
		}
	}
}
