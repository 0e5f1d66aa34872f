package deliberation

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/problem"
)

func TestParseMemberSpecReadsAnOptionalStance(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want MemberSpec
		err  string
	}{
		{in: "codex", want: MemberSpec{Consultant: "codex"}},
		{in: "against=codex", want: MemberSpec{Consultant: "codex", Stance: "against"}},
		{in: "red_team=command:claude -p", want: MemberSpec{Consultant: "command:claude -p", Stance: "red_team"}},
		// An = inside a command's arguments is the command's.
		{in: "command:gemini --flag=x", want: MemberSpec{Consultant: "command:gemini --flag=x"}},
		{in: "sideways=codex", err: `"sideways" is not a stance (want one of for, against, neutral, red_team, failure, critic, then = and the consultant)`},
		{in: "critic=", err: "stance critic names no consultant"},
		// The member's own model and effort come first, each ended by a
		// comma, in either order.
		{in: "model=gpt-5,effort=xhigh,against=codex", want: MemberSpec{Consultant: "codex", Stance: "against", Model: "gpt-5", Effort: "xhigh"}},
		{in: "effort=high, model=o3, codex", want: MemberSpec{Consultant: "codex", Model: "o3", Effort: "high"}},
		{in: "model=m,command:jq -r .a,.b", want: MemberSpec{Consultant: "command:jq -r .a,.b", Model: "m"}},
		{in: "model=gpt-5", err: "model=gpt-5 names no consultant (want model=VALUE, a comma, then the consultant)"},
		{in: "effort=,codex", err: "effort= has no value"},
		{in: "model=a,model=b,codex", err: "model is given twice"},
	} {
		got, err := ParseMemberSpec(tt.in)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.in, err, tt.err)
			}
		case err != nil || got != tt.want:
			t.Errorf("%q: %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func TestStartCouncilNamesEveryProblemAtOnce(t *testing.T) {
	st, _ := newTestStore(t)
	_, _, err := st.StartCouncil(" ", nil, []MemberSpec{{Consultant: "codex", Stance: "sideways", Effort: "max", Model: "a,b"}}, false)
	var probs problem.List
	if !errors.As(err, &probs) {
		t.Fatalf("error %v, want problems", err)
	}
	got := probs.Strings()
	for _, want := range []string{"consultants: 1 given, want 2 to 5", `consultants[0]: "sideways" is not a stance`,
		`consultants[0]: effort "max" is not one of high, xhigh`, `consultants[0]: model "a,b" has a comma`, "question: is empty"} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("problems %q lack %q", got, want)
		}
	}
	if entries, _ := os.ReadDir(st.Dir()); len(entries) != 0 {
		t.Errorf("a refused council left %d files", len(entries))
	}
}

func TestWithStanceStatesItAfterTheQuestion(t *testing.T) {
	s, err := New("Q?", nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	got := WithStance(s.Next.Prompt, "failure")
	want := "</user_question>\n\nYou are a pessimistic analyst conducting a PRE-MORTEM. Explain WHY the project failed. The rules above still apply.\n\nIteration 1/8."
	if !strings.Contains(got, want) {
		t.Errorf("prompt with stance:\n%s", got)
	}
	for _, stance := range []string{"", "sideways"} {
		if WithStance(s.Next.Prompt, stance) != s.Next.Prompt {
			t.Errorf("stance %q changed the prompt", stance)
		}
	}
}

// answered starts a council of n members and records each one's answer.
func answered(t *testing.T, n int) (*Store, *Council) {
	t.Helper()
	st, clock := newTestStore(t)
	specs := make([]MemberSpec, n)
	for i := range specs {
		specs[i] = MemberSpec{Consultant: "codex"}
	}
	c, _, err := st.StartCouncil("Should the importer retry on HTTP 429?", nil, specs, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range c.Members {
		clock.advance(time.Second)
		if _, err := st.Respond(m.ID, "1. Honour Retry-After (client.py:88). EVIDENCE."); err != nil {
			t.Fatal(err)
		}
	}
	return st, c
}

const agreeP1 = `{"iteration": 1, "response": "valid", "points": [{"text": "honour Retry-After", "triage": "in-scope", "classification": "AGREE", "claim_type": "empirical", "evidence_type": "textual"}]}`

func TestEvaluateCouncilAppliesNothingUnlessEveryDocumentIsRight(t *testing.T) {
	for _, tt := range []struct {
		name string
		doc  string
		want []string
	}{
		{"a member's problem", `{"round": 1, "consultees": {"A": ` + agreeP1 + `, "B": {"iteration": 1, "response": "valid", "points": [{"text": "x", "triage": "in-scope", "classification": "SKEPTICAL"}]}}}`,
			[]string{"consultees.B.points[0].flaw: is required for SKEPTICAL"}},
		{"a member left out", `{"round": 1, "consultees": {"A": ` + agreeP1 + `}}`,
			[]string{"consultees.B: missing: B's answer to iteration 1 awaits your evaluation"}},
		{"no round", `{"consultees": {"A": ` + agreeP1 + `, "B": ` + agreeP1 + `}}`, []string{"round: is required"}},
		{"a stale round", `{"round": 3, "consultees": {"A": ` + agreeP1 + `, "B": ` + agreeP1 + `}}`, []string{"round: is 3, want 1"}},
		{"merges", `{"round": 1, "consultees": {"A": ` + agreeP1 + `, "B": ` + agreeP1 + `}, "same": [["A:points[0]"], ["A:points[0]", "A:P9"], ["B:points[4]", "Q:P1"]]}`,
			[]string{"same[0]: has 1 point, want 2 or more", "same[1][1]: is a second point of A", `same[1][1]: "A:P9": A has no point P9`,
				`same[2][0]: "B:points[4]": B's document this round has no such point`, `same[2][1]: "Q:P1" is not MEMBER:P#`}},
		{"a review with none out", `{"round": 1, "consultees": {"A": ` + agreeP1 + `, "B": ` + agreeP1 + `}, "review": [{"by": "A", "point": "R1", "verdict": "agree"}]}`,
			[]string{"review: no cross-review is awaiting judgment"}},
		{"not JSON", `{"round": `, []string{"council evaluation is not valid"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st, c := answered(t, 2)
			_, err := st.EvaluateCouncil(c.ID, []byte(tt.doc))
			var probs problem.List
			if !errors.As(err, &probs) {
				t.Fatalf("error %v, want problems", err)
			}
			got := strings.Join(probs.Strings(), "\n")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("problems:\n%s\nlack %q", got, w)
				}
			}
			for _, m := range c.Members {
				s, _ := st.Load(m.ID)
				if s.Next.Awaiting != AwaitEvaluation || len(s.Points) != 0 {
					t.Errorf("%s was changed by a refused evaluation: %+v", m.Name, s.Next)
				}
			}
		})
	}
}

func TestEvaluateCouncilMergesPointsMadeIndependently(t *testing.T) {
	st, c := answered(t, 2)
	step, err := st.EvaluateCouncil(c.ID, []byte(`{"round": 1, "consultees": {"A": `+agreeP1+`, "B": `+agreeP1+`}, "same": [["A:points[0]", "B:points[0]"]]}`))
	if err != nil {
		t.Fatal(err)
	}
	if step.Round != 2 {
		t.Errorf("round %d, want 2", step.Round)
	}
	c, _ = st.Council(c.ID)
	if len(c.Same) != 1 || strings.Join(c.Same[0], " ") != "A:P1 B:P1" {
		t.Errorf("same %v, want [[A:P1 B:P1]]", c.Same)
	}
}

// TestAgreementGivesConsensusOnlyWithEvidence: every consultee agreeing
// is consensus only when the orchestrator agreed the point on execution
// or textual evidence; otherwise it stays weak.
func TestAgreementGivesConsensusOnlyWithEvidence(t *testing.T) {
	members := []Member{{Name: "A"}, {Name: "B"}, {Name: "C"}}
	for _, tt := range []struct {
		name    string
		where   map[string]placed
		group   []string
		verdict []ReviewVerdict
		want    string
	}{
		{"all three, textual", map[string]placed{"A:P1": {bucket: placeAgreed, evidence: "textual"}, "B:P1": {bucket: placeAgreed, evidence: "n/a"}, "C:P2": {bucket: placeAgreed, evidence: "n/a"}},
			[]string{"A:P1", "B:P1", "C:P2"}, nil, ConfidenceConsensus},
		{"all three, no evidence", map[string]placed{"A:P1": {bucket: placeAgreed, evidence: "n/a"}, "B:P1": {bucket: placeAgreed, evidence: "n/a"}, "C:P2": {bucket: placeAgreed, evidence: "n/a"}},
			[]string{"A:P1", "B:P1", "C:P2"}, nil, ConfidenceWeak},
		{"all three, one by review", map[string]placed{"A:P1": {bucket: placeAgreed, evidence: "execution"}, "B:P1": {bucket: placeAgreed, evidence: "textual"}},
			[]string{"A:P1", "B:P1"}, []ReviewVerdict{{By: "C", Point: "A:P1", Verdict: "agree"}}, ConfidenceConsensus},
		{"all three, but the orchestrator did not agree", map[string]placed{"A:P1": {bucket: placeUnresolved}, "B:P1": {bucket: placeUnresolved}, "C:P1": {bucket: placeUnresolved}},
			[]string{"A:P1", "B:P1", "C:P1"}, nil, ConfidenceWeak},
		{"one silent", map[string]placed{"A:P1": {bucket: placeAgreed, evidence: "textual"}, "B:P1": {bucket: placeAgreed, evidence: "textual"}},
			[]string{"A:P1", "B:P1"}, nil, ConfidencePartial},
		{"one conceded its own", map[string]placed{"A:P1": {bucket: placeAgreed, evidence: "textual"}, "B:P1": {bucket: placeDismissed, tag: "CONCEDED"}, "C:P1": {bucket: placeAgreed, evidence: "textual"}},
			[]string{"A:P1", "B:P1", "C:P1"}, nil, ConfidenceSplit},
		{"one challenged it", map[string]placed{"A:P1": {bucket: placeAgreed, evidence: "textual"}, "B:P1": {bucket: placeAgreed, evidence: "textual"}},
			[]string{"A:P1", "B:P1"}, []ReviewVerdict{{By: "C", Point: "B:P1", Verdict: "challenge", Flaw: "no", EvidenceType: "claim"}}, ConfidenceSplit},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := &Council{Members: members, Review: &Review{Status: ReviewDone, Verdicts: tt.verdict}}
			if got := c.entry(tt.group, tt.where); got.Confidence != tt.want {
				t.Errorf("confidence %q, want %q (%+v)", got.Confidence, tt.want, got)
			}
		})
	}
}

func TestPruneTakesTheCouncilWithItsFirstMember(t *testing.T) {
	st, clock := newTestStore(t)
	c, _, err := st.StartCouncil("Q?", nil, []MemberSpec{{Consultant: "codex"}, {Consultant: "codex"}}, false)
	if err != nil {
		t.Fatal(err)
	}
	clock.advance(48 * time.Hour)
	if _, err := st.Prune(24 * time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(st.CouncilPath(c.ID)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the council file outlived its members: %v", err)
	}
}

func TestCouncilFileIsReadStrictly(t *testing.T) {
	st, _ := newTestStore(t)
	c, _, err := st.StartCouncil("Q?", nil, []MemberSpec{{Consultant: "codex"}, {Consultant: "codex"}}, false)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(st.CouncilPath(c.ID))
	os.WriteFile(st.CouncilPath(c.ID), []byte(strings.Replace(string(data), `"round"`, `"rounds"`, 1)), 0o600)
	if _, err := st.Council(c.ID); err == nil || !strings.Contains(err.Error(), "rounds: unknown key") {
		t.Errorf("a council file with an unknown key: %v", err)
	}
	if got, err := st.Council("20990101-000000"); got != nil || err != nil {
		t.Errorf("a deliberation that is no council: %v, %v", got, err)
	}
}

// TestDocsCouncilExample: the council evaluation of docs/deliberation.md
// is accepted for a council in the situation it shows, and merges A:P1
// with B:P1.
func TestDocsCouncilExample(t *testing.T) {
	page, err := os.ReadFile("../docs/deliberation.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- council example -->\n```json\n(.*?)```").FindSubmatch(page)
	if m == nil {
		t.Fatal("docs/deliberation.md has no council example")
	}
	st, c := answered(t, 2)
	step, err := st.EvaluateCouncil(c.ID, m[1])
	if err != nil {
		t.Fatal(err)
	}
	if b := step.Consultees[1]; b.Challenges.Issued != 1 || step.Consultees[0].Challenges.Issued != 0 {
		t.Errorf("the challenge is not B's alone: %+v", step.Consultees)
	}
	if c, _ = st.Council(c.ID); len(c.Same) != 1 || strings.Join(c.Same[0], " ") != "A:P1 B:P1" {
		t.Errorf("same %v", c.Same)
	}
}

// TestReviewChallengeEntersTheOwnersLedger: a cross-review's challenge of
// a point whose consultee is still deliberating becomes a challenge in
// that consultee's ledger (its pending prompt names it); one whose
// consultee finished stays the reviewer's recorded disagreement.
func TestReviewChallengeEntersTheOwnersLedger(t *testing.T) {
	st, clock := newTestStore(t)
	c, _, err := st.StartCouncil("Should the importer retry on HTTP 429?", nil, []MemberSpec{{Consultant: "codex"}, {Consultant: "codex"}}, true)
	if err != nil {
		t.Fatal(err)
	}
	a, b := c.Members[0].ID, c.Members[1].ID
	rounds := []struct{ a, b, doc string }{
		{"1. Honour Retry-After. EVIDENCE.\n2. Retry 5 times. GUESS.", "1. Add jitter. INFERENCE.", `{"round": 1, "consultees": {
		  "A": {"iteration": 1, "response": "valid", "points": [
		    {"text": "honour Retry-After", "triage": "in-scope", "classification": "AGREE", "claim_type": "empirical", "evidence_type": "textual"},
		    {"text": "retry 5 times", "triage": "in-scope", "classification": "SKEPTICAL", "flaw": "5 is arbitrary"}]},
		  "B": {"iteration": 1, "response": "valid", "points": [
		    {"text": "add jitter", "triage": "in-scope", "classification": "AGREE", "claim_type": "value", "evidence_type": "n/a"}]}}}`},
		{"Re C1: the SLA says 5.", "Nothing to add.", `{"round": 2, "consultees": {
		  "A": {"iteration": 2, "response": "valid", "challenges": [{"id": "C1", "outcome": "evaluating"}]},
		  "B": {"iteration": 2, "response": "valid"}}}`},
		{"Re C1: still the SLA.", "Nothing is missing.", `{"round": 3, "consultees": {
		  "A": {"iteration": 3, "response": "valid", "challenges": [{"id": "C1", "outcome": "evaluating"}]},
		  "B": {"iteration": 2, "response": "valid", "coverage": {"artifacts": [], "attack": false}}}}`},
	}
	for _, r := range rounds {
		clock.advance(time.Second)
		for id, text := range map[string]string{a: r.a, b: r.b} {
			if _, err := st.Respond(id, text); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := st.EvaluateCouncil(c.ID, []byte(r.doc)); err != nil {
			t.Fatal(err)
		}
	}
	c, err = st.BeginReview(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Review.Labels["B"]; got["R1"] != "A:P1" || got["R2"] != "A:P2" || c.Review.Labels["A"]["R1"] != "B:P1" {
		t.Fatalf("labels %v", c.Review.Labels)
	}
	st.RecordReview(c.ID, "A", "R1: CHALLENGE: jitter unmeasured.")
	st.RecordReview(c.ID, "B", "R1: CHALLENGE: ignored on 503.")
	step, err := st.EvaluateCouncil(c.ID, []byte(`{"round": 4, "review": [
	  {"by": "B", "point": "R1", "verdict": "challenge", "flaw": "the header is ignored on 503", "evidence_type": "textual"},
	  {"by": "A", "point": "R1", "verdict": "challenge", "flaw": "no thundering herd measured"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := step.Consultees[0].Challenges; got.Issued != 2 || got.Open != 2 {
		t.Errorf("A's challenges %+v, want C2 issued beside C1", got)
	}
	s, _ := st.Load(a)
	if !strings.Contains(s.Next.Prompt, "- C2: honour Retry-After — a peer consultee's review: the header is ignored on 503") {
		t.Errorf("A's pending prompt:\n%s", s.Next.Prompt)
	}
	c, _ = st.Council(c.ID)
	v := c.Review.Verdicts
	if v[0].Issued != "C2" || v[1].Issued != "" || !strings.Contains(v[1].NotIssued, "only while a full deliberation awaits") {
		t.Errorf("verdicts %+v", v)
	}
}

func TestCouncilRecordsEachMembersModelAndEffort(t *testing.T) {
	st, _ := newTestStore(t)
	c, _, err := st.StartCouncil("Q?", nil, []MemberSpec{{Consultant: "codex", Model: "gpt-5", Effort: "xhigh"}, {Consultant: "codex"}}, false)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(st.CouncilPath(c.ID))
	if err != nil || !strings.Contains(string(data), `"model": "gpt-5",`+"\n"+`      "effort": "xhigh",`) {
		t.Fatalf("council file (%v):\n%s", err, data)
	}
	step, err := st.CouncilStep(c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := step.Consultees[0], step.Consultees[1]; a.Model != "gpt-5" || a.Effort != "xhigh" || b.Model != "" || b.Effort != "" {
		t.Errorf("step shows A %+v, B %+v", a, b)
	}
	for _, tt := range []struct {
		model, effort, wantModel, wantEffort string
	}{
		{"", "", "gpt-5", "xhigh"},
		{"o3", "", "o3", "xhigh"},
		{"", "high", "gpt-5", "high"},
		{"o3", "high", "o3", "high"},
	} {
		if m, e := c.Member("A").Settings(tt.model, tt.effort); m != tt.wantModel || e != tt.wantEffort {
			t.Errorf("send with %q, %q: %q, %q; want %q, %q", tt.model, tt.effort, m, e, tt.wantModel, tt.wantEffort)
		}
	}
}

// TestNoteReviewerTracksAReviewsProcess: a review consulted by a process
// of its own is noted (once while that process runs; again once it is
// gone) and forgotten when its answer or failure is recorded.
func TestNoteReviewerTracksAReviewsProcess(t *testing.T) {
	st, c := answered(t, 2)
	if _, err := st.UpdateCouncil(c.ID, func(c *Council) error {
		c.Review = &Review{Status: ReviewSent, Prompts: map[string]string{"A": "review A", "B": "review B"}}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	here, gone := NewConsultation("codex", true), Consultation{Consultant: "codex", PID: 1 << 30}
	for _, tt := range []struct {
		name string
		c    Consultation
		err  string
	}{
		{"C", here, "C was sent no review prompt"},
		{"A", here, ""},
		{"A", here, "A's review has been consulted since 2026-01-31T17:15:02Z by process"},
		{"B", gone, ""},
		{"B", here, ""}, // the process noted before is gone
	} {
		_, err := st.NoteReviewer(c.ID, tt.name, tt.c)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("note %s (process %d): %v, want %q", tt.name, tt.c.PID, err, tt.err)
		}
	}
	got, _ := st.Council(c.ID)
	if !got.Review.Running("A") || !got.Review.Running("B") || got.Review.Running("C") {
		t.Fatalf("reviewing %+v", got.Review.Reviewing)
	}
	st.RecordReview(c.ID, "A", "R1: AGREE")
	st.FailReview(c.ID, "B", "canceled")
	if got, _ = st.Council(c.ID); got.Review.Reviewing != nil {
		t.Errorf("recorded reviews are still noted: %+v", got.Review.Reviewing)
	}
	if _, err := st.NoteReviewer(c.ID, "A", here); err == nil || !strings.Contains(err.Error(), "A has answered its review") {
		t.Errorf("note an answered review: %v", err)
	}
}

func TestForRoleIsTheMemberOfThatStance(t *testing.T) {
	failed := &MemberFailure{Iteration: 2, Kind: "auth"}
	c := &Council{ID: "X", Members: []Member{
		{Name: "A", Stance: "against"},
		{Name: "B", Stance: "failure"},
		{Name: "C", Stance: "red_team", Failure: failed},
		{Name: "D"},
	}}
	lone := &Council{ID: "Y", Members: []Member{{Name: "A", Stance: "red_team", Failure: failed}, {Name: "B", Stance: "for"}}}
	for _, tt := range []struct {
		c          *Council
		role, want string
		err        string
	}{
		{c: c, role: "failure", want: "B"},
		{c: c, role: "critic", want: "D"},   // none has it: the first without a stance
		{c: c, role: "red_team", want: "D"}, // its member failed
		{c: lone, role: "critic", err: "council Y has no member to take the critic role: none has that stance, and every other has a stance of its own or failed"},
		{c: lone, role: "red_team", err: "council Y has no member to take the red_team role: A, whose stance it is, failed at iteration 2 (auth), and every other"},
	} {
		m, err := tt.c.ForRole(tt.role)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s of %s: %v, %v; want %q", tt.role, tt.c.ID, m, err, tt.err)
			}
		case err != nil || m.Name != tt.want:
			t.Errorf("%s of %s: %v, %v; want %s", tt.role, tt.c.ID, m, err, tt.want)
		}
	}
}
