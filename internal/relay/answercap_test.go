package relay

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
)

// TestLargeAnswerIsRefused: an answer over the cap is refused with the cap
// named; the state stays small and the next send works (no state file
// grows past what the next send can read back).
func TestLargeAnswerIsRefused(t *testing.T) {
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{
		reply("t1", strings.Repeat("x", deliberation.MaxResponse+1), 1, 1),
		reply("t1", answer1, 1, 1),
	}}
	st := deliberation.NewStore(t.TempDir(), nil)
	id, _, err := st.Start("Should the importer retry on HTTP 429?", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Send(context.Background(), st, id, sc, nil)
	if err == nil || !strings.Contains(err.Error(), "over the cap of 1 MiB") {
		t.Fatalf("error %v", err)
	}
	if info, _ := os.Stat(st.StatePath(id)); info.Size() > 64<<10 {
		t.Errorf("the state file grew to %d bytes", info.Size())
	}
	if s := load(t, st, id); s.Consultation != nil || len(s.Responses) != 0 {
		t.Errorf("state after the refused answer: consultation %+v, %d responses", s.Consultation, len(s.Responses))
	}
	if r, err := Send(context.Background(), st, id, sc, nil); err != nil || r.Answer != answer1 {
		t.Errorf("the next send: %v", err)
	}
}
