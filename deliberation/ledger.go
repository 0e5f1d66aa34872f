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

// Fact is one parsed ledger entry.
type Fact struct {
	ID         string // F1, F2, ...
	Supersedes string // the F# it replaces, or ""
	Tag        string // user, verified: REF, codex-unverified, revision
	Text       string
	Raw        string // the entry verbatim
}

// Kind is the tag without its reference: user, verified, codex-unverified
// or revision ("" when the entry does not follow the seed's format).
func (f Fact) Kind() string {
	k, _, _ := strings.Cut(f.Tag, ":")
	return strings.TrimSpace(k)
}

// factEntry is compiled on first use, not at package initialisation.
var factEntry = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(F[1-9][0-9]*)(?: \(supersedes (F[1-9][0-9]*)\))? \[([^\]]+)\]: ?(.*)$`)
})

// parseFact parses "F5 (supersedes F1) [revision]: text". An entry in
// another shape keeps only its ID, if any, and its raw text.
func parseFact(raw string) Fact {
	m := factEntry().FindStringSubmatch(raw)
	if m == nil {
		id, _, _ := strings.Cut(raw, " ")
		id = strings.TrimSuffix(id, ":")
		if !strings.HasPrefix(id, "F") || idNum(id) == 0 {
			id = ""
		}
		return Fact{ID: id, Text: raw, Raw: raw}
	}
	return Fact{ID: m[1], Supersedes: m[2], Tag: m[3], Text: m[4], Raw: raw}
}

// Facts parses the whole ledger (the append-only record).
func (s *State) Facts() []Fact {
	out := make([]Fact, len(s.Ledger))
	for i, e := range s.Ledger {
		out[i] = parseFact(e)
	}
	return out
}

// ActiveLedger is the current truth set, the only part a prompt shows:
// every entry not superseded by a later one, verbatim.
func (s *State) ActiveLedger() []string {
	facts := s.Facts()
	gone := map[string]bool{}
	for _, f := range facts {
		if f.Supersedes != "" {
			gone[f.Supersedes] = true
		}
	}
	var out []string
	for _, f := range facts {
		if f.ID == "" || !gone[f.ID] {
			out = append(out, f.Raw)
		}
	}
	return out
}

func (s *State) fact(id string) (Fact, bool) {
	for _, f := range s.Facts() {
		if f.ID == id {
			return f, true
		}
	}
	return Fact{}, false
}

// addFact appends an entry and returns its ID. ref goes after "verified: ".
func (s *State) addFact(kind, ref, text, supersedes string) string {
	var ids []string
	for _, f := range s.Facts() {
		ids = append(ids, f.ID)
	}
	id := nextID("F", ids)
	tag := kind
	if kind == tagVerified {
		tag = kind + ": " + ref
	}
	entry := id
	if supersedes != "" {
		entry += fmt.Sprintf(" (supersedes %s)", supersedes)
	}
	s.Ledger = append(s.Ledger, fmt.Sprintf("%s [%s]: %s", entry, tag, text))
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
	active := s.ActiveLedger()
	size := 0
	for _, e := range active {
		size += len(e)
	}
	if s.LedgerBudget <= 0 || size <= s.LedgerBudget {
		return active, nil
	}
	cited := s.disputeText()
	for _, e := range active {
		f := parseFact(e)
		if f.Kind() == tagUser || (f.ID != "" && regexp.MustCompile(`\b`+f.ID+`\b`).MatchString(cited)) {
			shown = append(shown, e)
		} else {
			omitted = append(omitted, orDefault(f.ID, "?"))
		}
	}
	return shown, omitted
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
	for _, f := range facts {
		s.addFact(f.Tag, f.Ref, strings.TrimSpace(f.Text), f.Supersedes)
	}
}
