package relay

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
)

const (
	answer1 = "1. Honour Retry-After (client.py:88 parses it). EVIDENCE.\n2. Retry 5 times with exponential backoff. GUESS.\n"
	eval1   = `{"iteration": 1, "response": "valid", "points": [
  {"text": "honour Retry-After", "triage": "in-scope", "classification": "AGREE", "claim_type": "empirical", "evidence_type": "textual", "reason": "client.py:88 parses the header"},
  {"text": "retry 5 times", "triage": "in-scope", "classification": "SKEPTICAL", "flaw": "5 is arbitrary"}]}`
	answer2 = "Re C1: I concede C1; the cap is arbitrary.\n"
)

func reply(session, text string, in, out int64) consult.ScriptedReply {
	return consult.ScriptedReply{Reply: consult.Reply{SessionID: session, Text: text, Usage: consult.Usage{InputTokens: in, OutputTokens: out}}}
}

func failed(kind consult.Kind) consult.ScriptedReply {
	return consult.ScriptedReply{Err: &consult.Error{Kind: kind, Consultant: "scripted", Message: string(kind) + " happened", ExitCode: 1}}
}

// started starts a deliberation and sends its first prompt, then
// evaluates the answer so the second prompt is pending.
func started(t *testing.T, sc *consult.Scripted, opts *Options) (*deliberation.Store, string) {
	t.Helper()
	st := deliberation.NewStore(t.TempDir(), nil)
	id, s, err := st.Start("Should the importer retry on HTTP 429?", nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Send(context.Background(), st, id, sc, opts)
	if err != nil {
		t.Fatal(err)
	}
	if call := sc.Calls()[0]; call.SessionID != "" || call.Request.Prompt != s.Next.Prompt {
		t.Errorf("the first iteration must start a session with the First Call prompt: %+v", call)
	}
	if r.SessionID != "t1" || r.Resumed || r.Next.Awaiting != deliberation.AwaitEvaluation || r.Answer != answer1 {
		t.Errorf("first send: %+v", r)
	}
	if _, err := st.Evaluate(id, []byte(eval1)); err != nil {
		t.Fatal(err)
	}
	return st, id
}

func load(t *testing.T, st *deliberation.Store, id string) *deliberation.State {
	t.Helper()
	s, err := st.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSendResumes(t *testing.T) {
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{reply("t1", answer1, 100, 10), reply("", answer2, 200, 20)}}
	st, id := started(t, sc, nil)
	r, err := Send(context.Background(), st, id, sc, &Options{Effort: "xhigh"})
	if err != nil {
		t.Fatal(err)
	}
	call := sc.Calls()[1]
	if call.SessionID != "t1" || call.Request.Effort != "xhigh" || !strings.Contains(call.Request.Prompt, "C1") {
		t.Errorf("the second iteration must resume t1 with the Subsequent Call: %+v", call)
	}
	if !r.Resumed || r.Iteration != 2 || r.Totals != (Totals{Calls: 2, Tokens: 330}) {
		t.Errorf("result %+v", r)
	}
	s := load(t, st, id)
	if s.SessionID == nil || *s.SessionID != "t1" || len(s.Responses) != 2 || s.Responses[1].Text != answer2 {
		t.Errorf("state: session %v, responses %+v", s.SessionID, s.Responses)
	}
	if got, _ := Spent(st, id); got.Calls != 2 || got.Tokens != 330 {
		t.Errorf("Spent = %+v", got)
	}
}

func TestSendCountsThreadTotalsOnce(t *testing.T) {
	second := reply("", answer2, 300, 30) // the thread's total: 100+200 in, 10+20 out
	second.Reply.UsageIsThreadTotal = true
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{reply("t1", answer1, 100, 10), second}}
	st, id := started(t, sc, nil)
	r, err := Send(context.Background(), st, id, sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Usage != (consult.Usage{InputTokens: 200, OutputTokens: 20}) || r.Totals.Tokens != 330 {
		t.Errorf("usage %+v, totals %+v", r.Usage, r.Totals)
	}
	if got, _ := Spent(st, id); got.Tokens != 330 {
		t.Errorf("Spent = %+v", got)
	}
}

// TestSendOnlyWhenAResponseIsAwaited: a send while the last answer awaits
// its evaluation is refused, naming the next step in the caller's words:
// without Words, this package's API, never a door's command.
func TestSendOnlyWhenAResponseIsAwaited(t *testing.T) {
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{reply("t1", answer1, 1, 1)}}
	st := deliberation.NewStore(t.TempDir(), nil)
	id, _, _ := st.Start("Should the importer retry on HTTP 429?", nil)
	if _, err := Send(context.Background(), st, id, sc, nil); err != nil {
		t.Fatal(err)
	}
	_, err := Send(context.Background(), st, id, sc, nil)
	if err == nil || !strings.Contains(err.Error(), "awaits your evaluation of the last answer (deliberation.Store.Evaluate)") || len(sc.Calls()) != 1 {
		t.Errorf("err = %v, calls %d", err, len(sc.Calls()))
	}
	words := &Words{Evaluate: "DOOR-EVALUATE"}
	if _, err := Send(context.Background(), st, id, sc, &Options{Words: words}); err == nil || !strings.Contains(err.Error(), "(DOOR-EVALUATE)") {
		t.Errorf("with the caller's words: %v", err)
	}
}

func TestSendRecovers(t *testing.T) {
	for _, kind := range []consult.Kind{consult.KindThreadNotFound, consult.KindTimeout, consult.KindExit} {
		t.Run(string(kind), func(t *testing.T) {
			sc := &consult.Scripted{Replies: []consult.ScriptedReply{reply("t1", answer1, 1, 1), failed(kind), reply("t2", answer2, 1, 1)}}
			st, id := started(t, sc, nil)
			r, err := Send(context.Background(), st, id, sc, nil)
			if err != nil {
				t.Fatal(err)
			}
			calls := sc.Calls()
			if len(calls) != 3 || calls[1].SessionID != "t1" || calls[2].SessionID != "" || !strings.Contains(calls[2].Request.Prompt, "SESSION RECOVERY at iteration 2/8") {
				t.Fatalf("calls %+v", calls)
			}
			if r.Recovery == "" || r.SessionID != "t2" || r.Resumed {
				t.Errorf("result %+v", r)
			}
			s := load(t, st, id)
			if *s.SessionID != "t2" || !strings.Contains(strings.Join(s.Warnings, "\n"), "Recovered from session failure at iter 2 ("+string(kind)) {
				t.Errorf("state: session %s, warnings %q", *s.SessionID, s.Warnings)
			}
			transcript, _ := os.ReadFile(st.TranscriptPath(id))
			for _, kind := range []string{`"kind":"recovery"`, `"kind":"consult_failure"`, `"recovery":"`} {
				if !strings.Contains(string(transcript), kind) {
					t.Errorf("transcript lacks %s", kind)
				}
			}
		})
	}
}

func TestSendDoesNotRecoverFromAuth(t *testing.T) {
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{reply("t1", answer1, 1, 1), failed(consult.KindAuth)}}
	st, id := started(t, sc, nil)
	_, err := Send(context.Background(), st, id, sc, nil)
	var ce *consult.Error
	if !errors.As(err, &ce) || ce.Kind != consult.KindAuth || len(sc.Calls()) != 2 {
		t.Fatalf("err = %v, calls %d", err, len(sc.Calls()))
	}
	if s := load(t, st, id); s.Next.Awaiting != deliberation.AwaitResponse || len(s.Responses) != 1 {
		t.Errorf("a failed send changed the state: %+v", s.Next)
	}
}

func TestBudget(t *testing.T) {
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{reply("t1", answer1, 100, 10), reply("", answer2, 1, 1)}}
	st, id := started(t, sc, &Options{Budget: Budget{MaxTokens: 50}})
	_, err := Send(context.Background(), st, id, sc, nil)
	want := "budget.max_tokens: 110 of 50 tokens spent in 1 calls: budget spent"
	if err == nil || !strings.Contains(err.Error(), want) || len(sc.Calls()) != 1 {
		t.Fatalf("err = %v, calls %d; want the recorded budget enforced", err, len(sc.Calls()))
	}
	r, err := Send(context.Background(), st, id, sc, &Options{Budget: Budget{MaxTokens: 1000}})
	if err != nil || r.Totals.Budget.MaxTokens != 1000 || r.Totals.Tokens != 112 {
		t.Errorf("a raised budget: %+v, %v", r, err)
	}
}
