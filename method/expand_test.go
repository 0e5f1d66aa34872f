package method

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExpandWorked reproduces the seed's three worked expansions exactly.
func TestExpandWorked(t *testing.T) {
	tests := map[string]string{
		"paths->evaluation->selection":  "1. Explore 3 distinct paths\n2. Evaluate each on feasibility/complexity\n3. Select strongest, explain elimination\n",
		"failure->causes->prevention":   "1. Declare the failure scenario\n2. Brainstorm 3-5 failure causes\n3. Design prevention measures\n",
		"defense->attack->hardening":    "1. Document existing defenses\n2. Identify attack vectors\n3. Recommend hardening\n",
		"failure → causes → prevention": "1. Declare the failure scenario\n2. Brainstorm 3-5 failure causes\n3. Design prevention measures\n",
	}
	for pattern, want := range tests {
		got, err := ExpandText(pattern)
		if err != nil || got != want {
			t.Errorf("ExpandText(%q) = %q, %v; want %q", pattern, got, err, want)
		}
	}
}

func TestExpand(t *testing.T) {
	tests := []struct {
		name, pattern string
		want          []string
		err           string
	}{
		{"ascii arrows", "alpha->beta->gamma", []string{"Alpha", "Beta", "Gamma"}, ""},
		{"spaces around arrows", "alpha -> beta-gamma ->delta", []string{"Alpha", "Beta-gamma", "Delta"}, ""},
		{"registry steps are worded", "options -> Trade-offs ->decision", []string{"List the options considered", "Weigh the trade-offs", "State the decision"}, ""},
		{"unicode arrows", "S→C→A", []string{"S", "C", "A"}, ""},
		{"slash kept", "pros/cons->next", []string{"Pros/cons", "Next"}, ""},
		{"plus and double arrow kept", "domain A + domain B → concrete ↔ abstract", []string{"Domain A + domain B", "Concrete ↔ abstract"}, ""},
		{"one step", "reflect", []string{"Reflect"}, ""},
		{"leading digit", "5 whys->fix", []string{"5 whys", "Fix"}, ""},
		{"empty", "", nil, "step 1 is empty"},
		{"trailing arrow", "a->", nil, "step 2 is empty"},
		{"backtick", "a->`rm`", nil, "step 2 contains '`'"},
		{"html", "<b>a</b>->b", nil, "step 1 contains '<'"},
		{"newline", "a\nb->c", nil, `step 1 contains '\n'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Expand(tt.pattern)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Errorf("Expand(%q) error = %v, want %q", tt.pattern, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Expand(%q) (-want +got):\n%s", tt.pattern, diff)
			}
		})
	}
}

// TestInjectGolden renders the prompt-modifier block of every embedded
// method into one golden file.
func TestInjectGolden(t *testing.T) {
	var b strings.Builder
	for _, m := range Default().Methods {
		block, err := Inject(m)
		if err != nil {
			t.Fatalf("Inject(%s): %v", m.Name, err)
		}
		if !strings.HasPrefix(block, "### Structured Reasoning: "+m.Name+"\n\nFor this section, apply "+m.Name+":\n\n1. ") {
			t.Errorf("Inject(%s) does not follow the template:\n%s", m.Name, block)
		}
		b.WriteString("<!-- method " + m.Slug() + " -->\n" + block + "\n")
	}
	golden(t, "inject.md", b.String())
}

func TestInjectRejects(t *testing.T) {
	tests := []struct {
		name string
		m    Method
		want error
	}{
		{"markdown name", Method{Name: "**x**", OutputPattern: "a->b"}, ErrUnsafeName},
		{"empty name", Method{OutputPattern: "a->b"}, ErrUnsafeName},
	}
	for _, tt := range tests {
		if _, err := Inject(tt.m); !errors.Is(err, tt.want) {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.want)
		}
	}
	if _, err := Inject(Method{Name: "Fine", OutputPattern: "a->->b"}); err == nil || !strings.Contains(err.Error(), "step 2 is empty") {
		t.Errorf("bad pattern: err = %v", err)
	}
}

// TestStepTextCoversDefault makes sure every step of the embedded registry
// is worded, and that the table holds no step nobody uses.
func TestStepTextCoversDefault(t *testing.T) {
	used := map[string]bool{}
	for _, m := range Default().Methods {
		steps, err := Steps(m.OutputPattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range steps {
			used[strings.ToLower(s)] = true
			if _, ok := stepText()[strings.ToLower(s)]; !ok {
				t.Errorf("method %d: step %q has no wording", m.Num, s)
			}
		}
	}
	for s := range stepText() {
		if !used[s] {
			t.Errorf("stepText has %q, which no embedded method uses", s)
		}
	}
}
