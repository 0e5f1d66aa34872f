package method

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/problem"
	"github.com/google/go-cmp/cmp"
)

// TestSelectGolden runs the pipeline on named sections and compares the
// selection JSON with testdata/golden/select/NAME.json. Each case states
// what it shows; want is the method order, checked here as well so a
// careless -update cannot hide a change.
func TestSelectGolden(t *testing.T) {
	def := Default()
	onlyTier2 := Parse([]byte(Header + "\n" + `60,risk,Only Two,d,a->b,2,"plan:0","","alpha",false,` + "\n"))
	tests := []struct {
		name, reason string
		reg          *Registry
		q            Query
		want         []int
	}{
		{"worked-example", "the seed's keywords for '## Architecture Design': no +0.3 for ADR (the rule wants the full name), so ToT and ADR tie at 0.2 and the lower num goes first",
			def, Query{Phase: "forge:3", Title: "Architecture Design", Keywords: []string{"architecture", "layers", "boundaries", "patterns"}}, []int{11, 20}},
		{"worked-example-extracted", "the same title with keywords extracted: architecture and design, a tie at 0.4",
			def, Query{Phase: "forge:3", Title: "Architecture Design"}, []int{11, 20}},
		{"title-bonus", "the full method name in the title adds 0.3",
			def, Query{Phase: "forge:3", Title: "Architecture Decision Records for storage"}, []int{20, 11}},
		{"title-partial-word", "'Architectural' is not 'Architecture': no bonus, and no keyword either",
			def, Query{Phase: "forge:3", Title: "Architectural decision records", Text: "We weigh the design."}, []int{11, 20}},
		{"title-bonus-only", "no topic overlap (no stemming: stakeholder is not stakeholders), the bonus alone selects it",
			def, Query{Phase: "plan:0", Title: "Stakeholder Round Table"}, []int{1}},
		{"name-in-text-no-bonus", "the bonus looks at the title only",
			def, Query{Phase: "forge:3", Title: "Design", Text: "Use a Tree of Thoughts here."}, []int{11, 20}},
		{"tie-by-num", "equal scores sort by num ascending",
			def, Query{Phase: "forge:3", Keywords: []string{"comparison", "decisions"}}, []int{3, 11, 20, 33}},
		{"hyphen-topic-spelled-out", "'trade offs' matches the topic trade-offs; a hyphenated keyword would match only itself",
			def, Query{Phase: "forge:3", Text: "the trade offs"}, []int{3, 20}},
		{"hyphenated-keyword-exact", "'security-critical' does not match the topic security",
			def, Query{Phase: "review:6", Text: "security-critical trade-offs"}, nil},
		{"uppercase-topic", "topics match case-insensitively: ADR",
			def, Query{Phase: "plan:2", Text: "write an adr"}, []int{20}},
		{"no-match-phase", "no method lists plan:9",
			def, Query{Phase: "plan:9", Title: "Architecture"}, nil},
		{"no-match-scores", "every score is 0",
			def, Query{Phase: "forge:3", Title: "Bananas and apples"}, nil},
		{"zero-keywords", "only stopwords: the section is skipped",
			def, Query{Phase: "forge:3", Title: "The and of", Text: "to be or"}, nil},
		{"agent-filter", "agent horizon-sage keeps methods for any agent and its own, so ToT and ADR (design) drop out",
			def, Query{Phase: "forge:3", Agent: "horizon-sage", Text: "root-cause, design or comparison"}, []int{3, 33, 51}},
		{"agent-filter-empty", "review:6's tier-1 methods all name other agents; its only any-agent method is tier 2",
			def, Query{Phase: "review:6", Agent: "nobody", Text: "security"}, nil},
		{"auto-mode-tier-1-only", "Occam's Razor is tier 2: auto mode never offers it",
			def, Query{Phase: "forge:3", Text: "simplicity over-engineering yagni"}, nil},
		{"manual-mode-tier-2", "manual mode adds tier 2",
			def, Query{Phase: "forge:3", Manual: true, Text: "simplicity over-engineering yagni"}, []int{47}},
		{"tier-filter-empty", "the phase has only tier-2 methods",
			onlyTier2, Query{Phase: "plan:0", Text: "alpha"}, nil},
		{"top-5-default", "many matches: five by default; Good Cop's design-decisions matches design and decisions spelled out",
			def, Query{Phase: "forge:3", Manual: true, Keywords: []string{"design", "decisions", "comparison", "root-cause", "future", "assumptions", "controversy"}}, []int{8, 11, 20, 3, 39}},
		{"top-2", "an explicit top",
			def, Query{Phase: "forge:3", Top: 2, Keywords: []string{"design", "decisions", "comparison"}}, []int{11, 20}},
		{"per-section-cap", "forge enrichment caps at MAX_METHODS_PER_SECTION = 2 even when top is higher",
			def, Query{Phase: "forge:3", Top: 5, PerSection: true, Keywords: []string{"design", "decisions", "comparison"}}, []int{11, 20}},
		{"registry-unavailable", "an empty registry: no phase match and the unavailable warning",
			Parse(nil), Query{Phase: "forge:3", Title: "Architecture"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := tt.reg.Select(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, c := range sel.Methods {
				got = append(got, c.Method.Num)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s: methods (-want +got):\n%s", tt.reason, diff)
			}
			if (sel.Status == StatusOK) != (len(tt.want) > 0) || (sel.Reason == "") != (sel.Status == StatusOK) {
				t.Errorf("status %s with reason %q and %d methods", sel.Status, sel.Reason, len(sel.Methods))
			}
			out, err := json.MarshalIndent(sel, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, "select/"+tt.name+".json", string(out)+"\n")
		})
	}
}

func TestSelectReasons(t *testing.T) {
	def := Default()
	tests := []struct {
		name string
		q    Query
		want string
	}{
		{"phase", Query{Phase: "plan:9", Title: "x"}, "No methods match phase plan:9"},
		{"scores", Query{Phase: "forge:3", Text: "bananas, apples"}, "No methods scored above 0.0 for topics [bananas, apples]"},
		{"zero keywords", Query{Phase: "forge:3"}, "No keywords in the section title or text — section skipped, no methods scored"},
		{"zero given keywords", Query{Phase: "forge:3", Title: "design", Keywords: []string{" ", ""}}, "No keywords in the section title or text — section skipped, no methods scored"},
		{"agent", Query{Phase: "arc:7", Agent: "x", Title: "security"}, "No methods match phase arc:7 for agent x"},
		{"tier", Query{Phase: "review:6", Agent: "x", Title: "security"}, "No tier-1 methods match phase review:6 (manual mode adds tier 2)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := def.Select(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if sel.Status != StatusNoMatch || sel.Reason != tt.want {
				t.Errorf("got %s %q, want NO_MATCH %q", sel.Status, sel.Reason, tt.want)
			}
		})
	}
}

func TestSelectScores(t *testing.T) {
	sel, err := Default().Select(Query{Phase: "forge:3", Title: "Architecture Decision Records", Text: "trade-offs"})
	if err != nil {
		t.Fatal(err)
	}
	// ADR: architecture, decision is not decisions, trade-offs: 2/5 + 0.3.
	if c := sel.Methods[0]; c.Method.Num != 20 || c.Score != 0.7 {
		t.Errorf("first = %d with %v, want 20 with 0.7", c.Method.Num, c.Score)
	}
}

func TestSelectInvalidQuery(t *testing.T) {
	_, err := Default().Select(Query{Phase: "forge", Top: -1})
	var p problem.List
	if !errors.As(err, &p) || len(p) != 2 || p[0].Path != "phase" || p[1].Path != "top" {
		t.Fatalf("err = %v, want phase and top problems", err)
	}
}

// TestSelectHugeTop: a top larger than the registry selects what a top of
// the registry's size selects; the largest counts once sized a slice by the
// count asked for (out of memory, or a makeslice panic).
func TestSelectHugeTop(t *testing.T) {
	def := Default()
	q := Query{Phase: "forge:3", Manual: true, Title: "Architecture design", Text: "security threat model trade-offs"}
	q.Top = len(def.Methods)
	want, err := def.Select(q)
	if err != nil || len(want.Methods) == 0 {
		t.Fatalf("top %d: %v, %v", q.Top, want, err)
	}
	for _, top := range []int{len(def.Methods) + 1, 100000000000, 9007199254740993, math.MaxInt} {
		q.Top = top
		got, err := def.Select(q)
		if err != nil {
			t.Fatalf("top %d: %v", top, err)
		}
		if len(got.Methods) != len(want.Methods) {
			t.Errorf("top %d: %d methods, want %d", top, len(got.Methods), len(want.Methods))
		}
	}
}

func TestSelectHandBuilt(t *testing.T) {
	r := &Registry{Methods: []Method{{Num: 1, Name: "Hand Made", Tier: 1, AutoSuggest: true, Phases: []string{"plan:0"}, Topics: []string{"Alpha"}}}}
	sel, _ := r.Select(Query{Phase: "plan:0", Text: "alpha"})
	if len(sel.Methods) != 1 || sel.Methods[0].Score != 1 {
		t.Errorf("hand-built method not scored: %+v", sel)
	}
}

func TestKeywords(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"lowercase and stopwords", "The Architecture of THE system", []string{"architecture", "system"}},
		{"punctuation splits", "auth/api: tokens, (secrets)!", []string{"auth", "api", "tokens", "secrets"}},
		{"inner hyphens kept", "trade-offs and what-if", []string{"trade-offs", "what-if"}},
		{"outer hyphens dropped", "-lead trail- a--b", []string{"lead", "trail", "b"}},
		{"apostrophes split", "devil's advocate", []string{"devil", "s", "advocate"}},
		{"repeats dropped", "risk Risk RISK", []string{"risk"}},
		{"markdown", "## Risk: *migration* `code`", []string{"risk", "migration", "code"}},
		{"unicode letters", "Überprüfung café—naïve", []string{"überprüfung", "café", "naïve"}},
		{"digits", "5 whys, phase 2.5", []string{"5", "whys", "phase", "2"}},
		{"empty", "", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Keywords(tt.in)); diff != "" {
				t.Errorf("Keywords(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestMatches(t *testing.T) {
	kw := map[string]bool{"trade": true, "offs": true, "root-cause": true, "security-critical": true, "scope": true, "out": true}
	tests := []struct {
		topic string
		want  bool
	}{
		{"trade-offs", true},           // spelled out
		{"root-cause", true},           // exact
		{"root", false},                // no part matching of keywords
		{"security", false},            // hyphenated keyword matches only itself
		{"out-of-scope", true},         // stopword parts are ignored
		{"multiple-approaches", false}, // no part present
		{"tra", false},                 // no prefix matching
	}
	for _, tt := range tests {
		if got := matches(tt.topic, kw); got != tt.want {
			t.Errorf("matches(%q) = %t, want %t", tt.topic, got, tt.want)
		}
	}
}

func TestSelectionJSONKeys(t *testing.T) {
	sel, _ := Default().Select(Query{Phase: "review:6", Text: "security"})
	out, _ := json.Marshal(sel)
	want := `{"status":"OK","reason":"","keywords":["security"],"methods":[{"num":17,"method_name":"Red Team vs Blue Team","category":"competitive","tier":1,"score":0.1667,"codex_role":"red_team"}],"warnings":[]}`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(out), `"score":0.1667`) {
		t.Error("score not rounded to 4 decimals")
	}
}

// TestSelectEmptyRegistryWarns: a registry without methods, even one built
// in code (the zero value), gives WarnUnavailable among the warnings, once.
func TestSelectEmptyRegistryWarns(t *testing.T) {
	for name, r := range map[string]*Registry{"zero value": {}, "parsed empty": Parse(nil)} {
		s, err := r.Select(Query{Phase: "forge:3"})
		if err != nil {
			t.Fatal(err)
		}
		if n := slices.Index(s.Warnings, WarnUnavailable); n < 0 || slices.Index(s.Warnings[n+1:], WarnUnavailable) >= 0 {
			t.Errorf("%s: warnings %q, want WarnUnavailable once", name, s.Warnings)
		}
	}
}
