package deliberation

import (
	"strings"
	"testing"
)

// TestAnchorShiftKeepsTheWork: two anchor shifts end the deliberation, but
// the agreed points and the suggested reframings are still synthesized.
func TestAnchorShiftKeepsTheWork(t *testing.T) {
	s := start(t, nil)
	next := step(t, s, "1. a 2. b 3. c", points(agree("honour Retry-After"),
		`{"text":"ask whether to import at all","triage":"anchor-shift"}`,
		`{"text":"reframe as a queue design","triage":"anchor-shift"}`))
	if next.Action != ActionSynthesize || s.ExitReason != ExitAnchorShift || next.Reason != exitMsgAnchorShift {
		t.Fatalf("two anchor shifts: action %s, exit %q, reason %q", next.Action, s.ExitReason, next.Reason)
	}
	y, err := synthesize(s)
	if err != nil {
		t.Fatalf("synthesize refused: %v", err)
	}
	md := y.Markdown()
	for _, want := range []string{"| P1 | honour Retry-After | n/a |", "Suggested reframings", "P2: ask whether to import at all", "P3: reframe as a queue design", exitMsgAnchorShift} {
		if !strings.Contains(md, want) {
			t.Errorf("synthesis lacks %q:\n%s", want, md)
		}
	}
	if y.PermittedBy == "" || y.Inconclusive {
		t.Errorf("permitted by %q, inconclusive %v", y.PermittedBy, y.Inconclusive)
	}
}
