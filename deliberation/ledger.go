package deliberation

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Ledger tags.
const (
	tagUser       = "user"
	tagVerified   = "verified"
	tagUnverified = "codex-unverified"
	tagRevision   = "revision"
)

// fact is one parsed ledger entry.
type fact struct {
	ID         string // F1, F2, ...
	Supersedes string // the F# it replaces, or ""
	Tag        string // user, verified: REF, codex-unverified, revision
	Text       string
	Raw        string // the entry verbatim
}

// kind is the tag without its reference: user, verified, codex-unverified
// or revision ("" when the entry does not follow the seed's format).
func (f fact) kind() string {
	k, _, _ := strings.Cut(f.Tag, ":")
	return strings.TrimSpace(k)
}

// factEntry is compiled on first use, not at package initialisation.
var factEntry = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(F[1-9][0-9]*)(?: \(supersedes (F[1-9][0-9]*)\))? \[([^\]]+)\]: ?(.*)$`)
})

// parseFact parses "F5 (supersedes F1) [revision]: text". An entry in
// another shape keeps only its ID, if any, and its raw text.
func parseFact(raw string) fact {
	m := factEntry().FindStringSubmatch(raw)
	if m == nil {
		id, _, _ := strings.Cut(raw, " ")
		id = strings.TrimSuffix(id, ":")
		if !strings.HasPrefix(id, "F") || idNum(id) == 0 {
			id = ""
		}
		return fact{ID: id, Text: raw, Raw: raw}
	}
	return fact{ID: m[1], Supersedes: m[2], Tag: m[3], Text: m[4], Raw: raw}
}

// ledgerIndex is the parsed ledger: built once per step and extended as
// facts are added, so a step costs time linear in the ledger.
type ledgerIndex struct {
	facts []fact
	byID  map[string]int  // F# → index in facts
	gone  map[string]bool // F# superseded by a later entry
	max   int             // the highest F number in use
}

func (lx *ledgerIndex) add(f fact) {
	if f.ID != "" {
		lx.byID[f.ID] = len(lx.facts)
		lx.max = max(lx.max, idNum(f.ID))
	}
	if f.Supersedes != "" {
		lx.gone[f.Supersedes] = true
	}
	lx.facts = append(lx.facts, f)
}

// ledger returns the parsed ledger, parsing it when the index is missing or
// out of step with s.Ledger.
func (s *State) ledger() *ledgerIndex {
	if s.lx != nil && len(s.lx.facts) == len(s.Ledger) {
		return s.lx
	}
	lx := &ledgerIndex{byID: map[string]int{}, gone: map[string]bool{}}
	for _, e := range s.Ledger {
		lx.add(parseFact(e))
	}
	s.lx = lx
	return lx
}

// activeLedger is the current truth set, the only part a prompt shows:
// every entry not superseded by a later one, verbatim.
func (s *State) activeLedger() []string {
	var out []string
	for _, f := range s.activeFacts() {
		out = append(out, f.Raw)
	}
	return out
}

// activeFacts are the entries of the active ledger, parsed.
func (s *State) activeFacts() []fact {
	lx := s.ledger()
	var out []fact
	for _, f := range lx.facts {
		if f.ID == "" || !lx.gone[f.ID] {
			out = append(out, f)
		}
	}
	return out
}

func (s *State) fact(id string) (fact, bool) {
	lx := s.ledger()
	if i, ok := lx.byID[id]; ok {
		return lx.facts[i], true
	}
	return fact{}, false
}

// addFact appends an entry and returns its ID. ref goes after "verified: ".
func (s *State) addFact(kind, ref, text, supersedes string) string {
	lx := s.ledger()
	id := fmt.Sprintf("F%d", lx.max+1)
	tag := kind
	if kind == tagVerified {
		tag = kind + ": " + ref
	}
	entry := id
	if supersedes != "" {
		entry += fmt.Sprintf(" (supersedes %s)", supersedes)
	}
	text = line(text) // an entry is one line: its own line breaks are escaped
	raw := fmt.Sprintf("%s [%s]: %s", entry, line(tag), text)
	s.Ledger = append(s.Ledger, raw)
	lx.add(fact{ID: id, Supersedes: supersedes, Tag: tag, Text: text, Raw: raw})
	return id
}

// overCapacity is the seed's exit when the user constraints alone exceed
// the budget.
const overCapacity = "Input exceeds processing capacity. Reduce constraints or split into multiple sessions."

// userFactsSize is the size of the ledger entries facts would make
// (F# [user]: text), estimated with two-digit IDs.
func userFactsSize(facts []string) int {
	n := 0
	for _, f := range facts {
		n += len("F00 [user]: ") + len(strings.TrimSpace(f))
	}
	return n
}

// promptLedger is the active truth set a prompt shows, within the budget:
// every user entry and every entry an open dispute cites; the IDs left
// out are returned too.
func (s *State) promptLedger() (shown, omitted []string) {
	active := s.activeFacts()
	size := 0
	for _, f := range active {
		size += len(f.Raw)
	}
	if s.LedgerBudget <= 0 || size <= s.LedgerBudget {
		for _, f := range active {
			shown = append(shown, f.Raw)
		}
		return shown, nil
	}
	cited := factRefs(s.disputeText())
	for _, f := range active {
		if f.kind() == tagUser || (f.ID != "" && cited[f.ID]) {
			shown = append(shown, f.Raw)
		} else {
			omitted = append(omitted, orDefault(f.ID, "?"))
		}
	}
	return shown, omitted
}

// factRefs finds the ledger IDs (F1, F12, ...) text cites as whole words,
// in one pass.
func factRefs(text string) map[string]bool {
	refs := map[string]bool{}
	for i := 0; i < len(text); i++ {
		if text[i] != 'F' || (i > 0 && isWordByte(text[i-1])) {
			continue
		}
		j := i + 1
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		if j > i+1 && text[i+1] != '0' && (j == len(text) || !isWordByte(text[j])) {
			refs[text[i:j]] = true
		}
		i = j - 1
	}
	return refs
}

// isWordByte is regexp's \w: an ASCII letter, digit or underscore.
func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// disputeText is the text of the open disputes and pending points.
func (s *State) disputeText() string {
	var b strings.Builder
	for _, id := range s.Disputed {
		c := s.Challenges[id]
		b.WriteString(c.Point + " " + c.Objection + " " + c.Narrowed + "\n")
	}
	for _, id := range s.Pending {
		b.WriteString(s.pointText(id) + "\n")
	}
	return b.String()
}

// addFacts appends validated facts from an evaluation.
func (s *State) addFacts(facts []FactEval) {
	for i, f := range facts {
		id := s.addFact(f.Tag, f.Ref, strings.TrimSpace(f.Text), f.Supersedes)
		s.assigned.fact(fmt.Sprintf("facts[%d]", i), id)
	}
}
