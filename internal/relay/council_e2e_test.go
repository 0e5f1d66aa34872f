package relay

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/codexstub"
)

// TestE2ECouncilWithRealCodex runs a council whose member A is the real
// codex CLI against the stub model server, with a stance, beside a
// scripted member B that fails at iteration 2: both are consulted in
// parallel, codex is told its stance in the First Call and resumed at
// iteration 2 (the stub sees the earlier turns), and B's failure is
// recorded without stopping A.
func TestE2ECouncilWithRealCodex(t *testing.T) {
	path := codexstub.Require(t)
	stub, env := codexstub.Serve(t, t.TempDir(), func(r codexstub.Request) codexstub.Reply {
		if strings.Contains(r.LastUser(), "Open challenges") {
			return codexstub.Reply{Text: answer2}
		}
		return codexstub.Reply{Text: answer1}
	})
	codex := consult.NewCodex(&consult.CodexOptions{Path: path, Env: env, Dir: t.TempDir(), Timeout: 2 * time.Minute, IdleTimeout: time.Minute})
	scripted := &consult.Scripted{Replies: []consult.ScriptedReply{
		{Reply: consult.Reply{SessionID: "b1", Text: answer1}},
		{Err: &consult.Error{Kind: consult.KindAuth, Consultant: "scripted", Message: "401", ExitCode: 1}},
	}}
	st := deliberation.NewStore(t.TempDir(), nil)
	c, _, err := st.StartCouncil("Should the importer retry on HTTP 429?", nil,
		[]deliberation.MemberSpec{{Consultant: "codex", Stance: "red_team"}, {Consultant: "command:b"}}, false)
	if err != nil {
		t.Fatal(err)
	}
	members := func(m deliberation.Member) (consult.Consultant, error) {
		if m.Name == "A" {
			return codex, nil
		}
		return scripted, nil
	}
	ctx := context.Background()
	o, err := SendCouncil(ctx, st, c.ID, members, nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.Next.Action != deliberation.CouncilEvaluate || o.Consultees[0].Outcome.Result.Answer != answer1 {
		t.Fatalf("round 1: %+v", o.Next)
	}
	first := stub.Requests()[0]
	if !first.Said("user", "You are a RED TEAM security analyst.") {
		t.Errorf("codex was not told its stance: %+v", first.Messages)
	}
	if _, err := st.EvaluateCouncil(c.ID, []byte(`{"round": 1, "consultees": {"A": `+eval1+`, "B": `+eval1+`}}`)); err != nil {
		t.Fatal(err)
	}
	o, err = SendCouncil(ctx, st, c.ID, members, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := o.Consultees[0].Outcome, o.Consultees[1]
	if a.Status != StatusDone || !a.Result.Resumed || a.Result.Answer != answer2 || !b.Failed {
		t.Fatalf("round 2: A %+v, B failed %v", a, b.Failed)
	}
	reqs := stub.Requests()
	if last := reqs[len(reqs)-1]; !last.Said("assistant", strings.TrimSpace(answer1)) {
		t.Errorf("codex's resumed turn lacks the first: %+v", last.Messages)
	}
	if f := o.Next.Consultees[1].Failure; f == nil || f.Iteration != 2 || f.Kind != "auth" {
		t.Errorf("B's failure: %+v", f)
	}
}
