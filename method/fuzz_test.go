package method

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse feeds arbitrary text to the CSV parser: it must not panic, must
// return only methods that pass its own rules, with unique nums and slugs,
// and every warning must be one line.
func FuzzParse(f *testing.F) {
	f.Add(string(defaultCSV()))
	f.Add(Header + "\n" + good + "\n")
	f.Add("\ufeff" + Header + "\r\n" + `1,a,B,"c ""d"" e",f->g,1,"plan:0","x","y",true,critic` + "\r\n")
	f.Add(`"unterminated,` + "\n" + `a,"b"c,d`)
	f.Add(",,,,,,,,,,\n\"\"\"\n")
	f.Fuzz(func(t *testing.T, in string) {
		r := Parse([]byte(in))
		nums, slugs := map[int]bool{}, map[string]bool{}
		for _, m := range r.Methods {
			if nums[m.Num] || slugs[m.Slug()] || m.Num < 1 || m.Tier < 1 || m.Tier > 2 || m.AutoSuggest != (m.Tier == 1) ||
				len(m.Phases) == 0 || len(m.Topics) == 0 {
				t.Fatalf("invalid method accepted: %+v", m)
			}
			nums[m.Num], slugs[m.Slug()] = true, true
			if _, err := Inject(m); err != nil {
				t.Fatalf("accepted method cannot be injected: %v", err)
			}
		}
		for _, w := range r.WarningTexts() {
			if strings.ContainsAny(w, "\n\r") || !utf8.ValidString(w) && utf8.ValidString(in) {
				t.Fatalf("warning not one clean line: %q", w)
			}
		}
		if len(r.Methods) == 0 && (len(r.Warnings) == 0 || r.Warnings[len(r.Warnings)-1].Message != WarnUnavailable) {
			t.Fatalf("empty registry without the unavailable warning: %v", r.Warnings)
		}
	})
}

// FuzzSelect checks that scoring any text never panics and stays sorted.
func FuzzSelect(f *testing.F) {
	f.Add("Architecture Design", "trade offs and root-cause", 0)
	f.Add("", "—-- ''", 3)
	f.Add("Architecture design", "security", math.MaxInt)
	def := Default()
	f.Fuzz(func(t *testing.T, title, text string, top int) {
		sel, err := def.Select(Query{Phase: "forge:3", Manual: true, Title: title, Text: text, Top: top})
		if top < 0 {
			if err == nil {
				t.Fatalf("top %d accepted", top)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if top > 0 && len(sel.Methods) > top {
			t.Fatalf("%d methods for top %d", len(sel.Methods), top)
		}
		for i := 1; i < len(sel.Methods); i++ {
			a, b := sel.Methods[i-1], sel.Methods[i]
			if a.Score < b.Score || a.Score == b.Score && a.Method.Num > b.Method.Num {
				t.Fatalf("not sorted: %v before %v", a, b)
			}
		}
	})
}

// FuzzSteps checks that a pattern Steps accepts has only non-empty, safe
// steps, and that joining them back gives the same steps.
func FuzzSteps(f *testing.F) {
	for _, p := range []string{"a->b", "a → b", "a-->b", "->", "a–>b", "x→→y", "s/t + u ↔ v -> w"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		steps, err := Steps(p)
		if err != nil {
			return
		}
		for _, s := range steps {
			if s == "" || strings.IndexFunc(s, unsafeInStep) >= 0 || strings.Contains(s, "->") || strings.Contains(s, "→") {
				t.Fatalf("Steps(%q) = %q", p, steps)
			}
		}
		again, err := Steps(strings.Join(steps, " -> "))
		if err != nil || len(again) != len(steps) {
			t.Fatalf("rejoined %q: %q, %v", steps, again, err)
		}
	})
}
