package deliberation

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/elicit/elicit/problem"
)

// Synthesis is the final output: the top-line answer, then every point in
// exactly one bucket, with the exit reason and the rule that permits it.
type Synthesis struct {
	// Answer is the top-line answer to the question, as the orchestrator
	// states it at Synthesize (Exit Validation: the output answers the
	// anchor); after an early exit (trivial), the direct answer by default.
	Answer        string `json:"answer"`
	Question      string `json:"question"`
	Mode          Mode   `json:"mode"`
	Iterations    int    `json:"iterations"`
	MaxIterations int    `json:"max_iterations"`
	ExitReason    string `json:"exit_reason"`
	// Message is the exit's message for the user, when it has one
	// ("Question may need narrowing or decomposition.").
	Message string `json:"message,omitempty"`
	// PermittedBy cites the protocol text that permits Synthesize here
	// (the exit validation).
	PermittedBy string `json:"permitted_by"`
	// Inconclusive: Agreed and Dismissed are both empty; not a success.
	Inconclusive        bool              `json:"inconclusive"`
	Ledger              []string          `json:"ledger"`
	Agreed              []AgreedEntry     `json:"agreed"`
	Dismissed           []DismissedEntry  `json:"dismissed"`
	Unresolved          []UnresolvedEntry `json:"unresolved"`
	SurfacedQuestions   []string          `json:"surfaced_questions"`
	NotEvaluated        []NotEvaluated    `json:"not_evaluated"`
	ArbitrationConcerns []Concern         `json:"arbitration_concerns"`
	Warnings            []string          `json:"warnings"`
}

// AgreedEntry, DismissedEntry and UnresolvedEntry are a bucket's points as
// the synthesis shows them: where an arbiter flagged one,
// ArbitrationConcern is the arbiter's reason (the point is presented as
// flagged, not normally).
type (
	AgreedEntry struct {
		Agreed
		ArbitrationConcern string `json:"arbitration_concern,omitempty"`
	}
	DismissedEntry struct {
		Dismissed
		ArbitrationConcern string `json:"arbitration_concern,omitempty"`
	}
	UnresolvedEntry struct {
		Unresolved
		ArbitrationConcern string `json:"arbitration_concern,omitempty"`
	}
)

// MaxAnswer is the most characters a top-line answer may have: a sentence
// or two; the buckets carry the detail.
const MaxAnswer = 2000

// checkAnswer returns the top-line answer of s's synthesis: answer, or the
// direct answer of an early exit (trivial) when answer is empty.
func checkAnswer(s *State, answer string) (string, problem.List) {
	answer = strings.TrimSpace(answer)
	switch n := utf8.RuneCountInString(answer); {
	case answer == "" && s.ExitReason == ExitTrivial && s.Answer != "":
		return s.Answer, nil
	case answer == "":
		return "", problem.List{{Path: "answer", Message: fmt.Sprintf("is required: the top-line answer to the question (%q) in a sentence or two, as you would tell the user; the synthesis opens with it (Exit Validation: confirm the output answers the question)", s.QuestionExcerpt)}}
	case n > MaxAnswer:
		return "", problem.List{{Path: "answer", Message: fmt.Sprintf("is %d characters, over %d: a top-line answer is a sentence or two (the buckets carry the detail)", n, MaxAnswer)}}
	}
	return answer, nil
}

// permit is the protocol text that permits Synthesize after an exit for
// reason ("" when none does).
func permit(reason string) string {
	switch reason {
	case ExitConverged:
		return "Stop: no open challenges AND scope stable → proceed to Synthesize."
	case ExitCap:
		return "If N=8: write remaining to Unresolved, proceed to Synthesize."
	case ExitTrivial:
		return "Early exit (trivial): if by iteration 2 the question turns out to be factual or trivial, answer directly."
	case ExitQuality:
		return "Iterations: N/8 (converged | cap reached | early exit: trivial | early exit: quality)"
	case ExitAnchorShift:
		return "2+ anchor shifts in same session → exit: \"Question may need narrowing or decomposition.\" Surface shift proposals as suggested reframings in output, not pending decisions."
	}
	return ""
}

const quickPermit = "At most 2 iterations: Ask → Evaluate → Done. Still unresolved → state both positions; the user decides."

// synthesize returns the synthesis of s opening with answer, or a
// problem.List saying why the state does not permit it (still active, or
// ended by an exit that has nothing to synthesize) and what is wrong with
// the answer.
func synthesize(s *State, answer string) (*Synthesis, error) {
	probs := synthesisPermitted(s)
	top, bad := checkAnswer(s, answer)
	if probs = append(probs, bad...); len(probs) > 0 {
		return nil, probs
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	permittedBy := permit(s.ExitReason)
	if s.quick() && s.ExitReason != ExitTrivial {
		permittedBy = quickPermit
	}
	flags := map[string]string{}
	for _, c := range s.ArbitrationConcerns {
		flags[c.ID] = c.Reason
	}
	y := &Synthesis{
		Answer:   top,
		Question: s.questionText(), Mode: orFull(s.Mode), Iterations: s.Iteration, MaxIterations: s.limit(),
		ExitReason: s.ExitReason, PermittedBy: permittedBy,
		Ledger:            nonNil(s.activeLedger()),
		Agreed:            entries(s.Buckets.Agreed, func(a Agreed) AgreedEntry { return AgreedEntry{a, flags[a.ID]} }),
		Dismissed:         entries(s.Buckets.Dismissed, func(d Dismissed) DismissedEntry { return DismissedEntry{d, flags[d.ID]} }),
		Unresolved:        entries(s.Buckets.Unresolved, func(u Unresolved) UnresolvedEntry { return UnresolvedEntry{u, flags[u.ID]} }),
		SurfacedQuestions: nonNil(s.SurfacedQuestions), NotEvaluated: nonNil(s.NotEvaluated),
		ArbitrationConcerns: nonNil(s.ArbitrationConcerns), Warnings: nonNil(s.Warnings),
	}
	y.Inconclusive = s.ExitReason != ExitTrivial && len(y.Agreed) == 0 && len(y.Dismissed) == 0
	if s.ExitReason == ExitAnchorShift {
		y.Message = exitMsgAnchorShift
	}
	return y, nil
}

// entries are a bucket's points as the synthesis shows them.
func entries[T, E any](bucket []T, entry func(T) E) []E {
	out := make([]E, len(bucket))
	for i, v := range bucket {
		out[i] = entry(v)
	}
	return out
}

func synthesisPermitted(s *State) problem.List {
	switch {
	case s.Active():
		what := "no pending action"
		if s.Next != nil {
			what = "next action: " + s.Next.Action
		}
		if len(s.Disputed) > 0 {
			what += "; open challenges: " + strings.Join(s.Disputed, ", ")
		}
		return problem.List{{Path: "status", Message: fmt.Sprintf("the deliberation is still active (%s): Synthesize is permitted only after convergence, the cap or an early exit", what)}}
	case !synthesizable(s.ExitReason):
		msg := s.ExitReason
		if s.Next != nil && s.Next.Reason != "" {
			msg = s.Next.Reason
		}
		return problem.List{{Path: "status", Message: fmt.Sprintf("the deliberation is %s (%s): %s; there is nothing to synthesize", s.Status, s.ExitReason, strings.TrimSuffix(msg, "."))}}
	}
	return nil
}

func orFull(m Mode) Mode {
	if m == "" {
		return ModeFull
	}
	return m
}

func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

// enumerate renders a count with its members: "P1, P3 = 2".
func enumerate(ids []string) string {
	if len(ids) == 0 {
		return "0"
	}
	return fmt.Sprintf("%s = %d", strings.Join(ids, ", "), len(ids))
}

// rowID is the entry's ID, or its position when the state came from the
// original skill (no IDs).
func rowID(id string, i int) string {
	if id != "" {
		return id
	}
	return fmt.Sprintf("#%d", i+1)
}

// rowIDs are the row IDs of a bucket's entries.
func rowIDs[T any](entries []T, id func(T) string) []string {
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = rowID(id(e), i)
	}
	return ids
}

// section writes a bucket's heading and, when it has entries, the head of
// its table (reporting true); an empty bucket says so.
func section(b *strings.Builder, title string, ids []string, columns ...string) bool {
	fmt.Fprintf(b, "\n## %s (%s)\n\n", title, enumerate(ids))
	if len(ids) == 0 {
		b.WriteString("— none —\n")
		return false
	}
	b.WriteString("| # | " + strings.Join(columns, " | ") + " |\n|---" + strings.Repeat("|---", len(columns)) + "|\n")
	return true
}

func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\r\n", " ", "\n", " ").Replace(s)
}

// Markdown renders the synthesis in the output format of the original
// (OUTPUT-FORMAT.md), opening with the top-line answer: a header, then AGREED, DISMISSED, UNRESOLVED,
// SURFACED QUESTIONS, NOT EVALUATED and ARBITRATION CONCERNS, each with its
// count enumerated; empty sections show "— none —".
func (y *Synthesis) Markdown() string {
	var b strings.Builder
	y.header(&b)
	y.agreed(&b)
	y.dismissed(&b)
	y.unresolved(&b)
	fmt.Fprintf(&b, "\n## SURFACED QUESTIONS (%d)\n\n", len(y.SurfacedQuestions))
	list(&b, y.SurfacedQuestions)
	y.notEvaluated(&b)
	if len(y.ArbitrationConcerns) > 0 {
		var ids []string
		for _, c := range y.ArbitrationConcerns {
			ids = append(ids, c.ID)
		}
		fmt.Fprintf(&b, "\n## ARBITRATION CONCERNS (%s)\n\n| # | Reason |\n|---|---|\n", enumerate(ids))
		for _, c := range y.ArbitrationConcerns {
			fmt.Fprintf(&b, "| %s | %s |\n", c.ID, cell(c.Reason))
		}
	}
	return b.String()
}

func (y *Synthesis) header(b *strings.Builder) {
	fmt.Fprintf(b, "**Answer:** %s\n\n", oneParagraph(y.Answer))
	fmt.Fprintf(b, "> **Question:** %s\n>\n", cell(y.Question))
	fmt.Fprintf(b, "> **Iterations:** %d/%d (%s)\n>\n", y.Iterations, y.MaxIterations, y.ExitReason)
	var ids []string
	for _, e := range y.Ledger {
		if id := parseFact(e).ID; id != "" {
			ids = append(ids, id)
		}
	}
	fmt.Fprintf(b, "> **Ledger:** %s\n", orDefault(strings.Join(ids, ", "), "none"))
	if y.Message != "" {
		fmt.Fprintf(b, "\n**%s**\n", y.Message)
	}
	if y.Inconclusive {
		b.WriteString("\n**Deliberation inconclusive:** nothing was agreed or dismissed. Each point's blocker (the crux, and what would unblock it) is under UNRESOLVED; decide whether to continue.\n")
	}
	for _, w := range y.Warnings {
		fmt.Fprintf(b, "\n**Warning:** %s\n", w)
	}
}

// oneParagraph keeps text one markdown paragraph: blank lines would end it.
func oneParagraph(s string) string {
	lines := strings.Fields(strings.ReplaceAll(s, "\r", ""))
	return strings.Join(lines, " ")
}

// flagged marks a point an arbiter flagged where it stands; the reason is
// under ARBITRATION CONCERNS.
func flagged(point, concern string) string {
	if concern != "" {
		return point + " (arbitration concern)"
	}
	return point
}

func (y *Synthesis) agreed(b *strings.Builder) {
	ids := rowIDs(y.Agreed, func(a AgreedEntry) string { return a.ID })
	if !section(b, "AGREED", ids, "Point", "Evidence", "Reason") {
		return
	}
	for i, a := range y.Agreed {
		point := a.Point
		if a.Mitigation != "" {
			point += " (conditional)"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", ids[i], cell(flagged(point, a.ArbitrationConcern)), a.EvidenceType, orDefault(cell(a.Reason), "—"))
	}
	for i, a := range y.Agreed {
		if a.Mitigation != "" {
			fmt.Fprintf(b, "\n**%s (conditional):** %s\n**Mitigation:** %s\n", ids[i], a.Point, a.Mitigation)
		}
	}
}

func (y *Synthesis) dismissed(b *strings.Builder) {
	ids := rowIDs(y.Dismissed, func(d DismissedEntry) string { return d.ID })
	if !section(b, "DISMISSED", ids, "Point", "Tag", "Reason") {
		return
	}
	for i, d := range y.Dismissed {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", ids[i], cell(flagged(d.Point, d.ArbitrationConcern)), d.Tag, cell(d.Reason))
	}
}

func (y *Synthesis) unresolved(b *strings.Builder) {
	ids := rowIDs(y.Unresolved, func(u UnresolvedEntry) string { return u.ID })
	if !section(b, "UNRESOLVED", ids, "Point", "Status", "Crux") {
		return
	}
	var reframings []string
	for i, u := range y.Unresolved {
		fmt.Fprintf(b, "| %s | %s | %s | %s |\n", ids[i], cell(flagged(u.Point, u.ArbitrationConcern)), u.Status, cell(u.Crux))
		if u.Status == UnresolvedAnchorShift {
			reframings = append(reframings, fmt.Sprintf("%s: %s", ids[i], u.Point))
		}
	}
	if len(reframings) > 0 {
		b.WriteString("\nSuggested reframings (the question stays as asked unless you choose one):\n\n")
		list(b, reframings)
	}
}

func (y *Synthesis) notEvaluated(b *strings.Builder) {
	ids := rowIDs(y.NotEvaluated, func(n NotEvaluated) string { return n.ID })
	if !section(b, "NOT EVALUATED", ids, "Point", "Reason") {
		return
	}
	for i, n := range y.NotEvaluated {
		reason := n.Reason
		if n.Blocking {
			reason += " (blocking)"
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", ids[i], cell(n.Point), cell(reason))
	}
}

func list(b *strings.Builder, items []string) {
	if len(items) == 0 {
		b.WriteString("— none —\n")
		return
	}
	for _, q := range items {
		fmt.Fprintf(b, "- %s\n", q)
	}
}
