package relay

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
)

// Which session each send uses: the deliberation's own, resumed, or a
// fresh one.

// stressPending drives a deliberation to a pending stress test: two points
// agreed, nothing disputed, a stress test required.
func stressPending(t *testing.T, sc *consult.Scripted) (*deliberation.Store, string) {
	t.Helper()
	st := deliberation.NewStore(t.TempDir(), nil)
	id, _, err := st.Start("Should the importer retry on HTTP 429?", nil)
	if err != nil {
		t.Fatal(err)
	}
	evals := []string{
		`{"iteration":1,"response":"valid","points":[{"text":"retry on 429","triage":"in-scope","classification":"AGREE","claim_type":"value"}]}`,
		`{"iteration":2,"response":"valid","require_stress_test":true,"points":[{"text":"honour Retry-After","triage":"in-scope","classification":"AGREE","claim_type":"value"}]}`,
		`{"iteration":2,"response":"valid","coverage":{}}`,
	}
	sendAndEvaluate(t, st, id, sc, evals, deliberation.ActionStress)
	return st, id
}

// sendAndEvaluate sends each pending prompt to c and applies the next
// evaluation, then checks the pending action.
func sendAndEvaluate(t *testing.T, st *deliberation.Store, id string, c consult.Consultant, evals []string, want string) {
	t.Helper()
	for _, ev := range evals {
		if _, err := Send(context.Background(), st, id, c, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Evaluate(id, []byte(ev)); err != nil {
			t.Fatal(err)
		}
	}
	if s := load(t, st, id); s.Next.Action != want {
		t.Fatalf("pending %s, want %s", s.Next.Action, want)
	}
}

// TestStressTestInAFreshSession: the stress test and arbitration are asked
// in a fresh session, and the deliberation's own session is kept for the
// next iteration.
func TestStressTestInAFreshSession(t *testing.T) {
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{
		reply("t1", "1. retry on 429", 1, 1), reply("", "1. honour Retry-After", 1, 1), reply("", "nothing new", 1, 1),
		reply("side", "Objection: retries amplify outages. mitigable. Impact P1.", 1, 1)}}
	st, id := stressPending(t, sc)
	r, err := Send(context.Background(), st, id, sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	call := sc.Calls()[3]
	if call.SessionID != "" || r.Resumed || !strings.Contains(call.Request.Prompt, "Steelman strongest objection") || !strings.Contains(call.Request.Prompt, "- P1: retry on 429") {
		t.Errorf("the stress test must start a fresh session with its own context: session %q, resumed %v\n%s", call.SessionID, r.Resumed, call.Request.Prompt)
	}
	if s := load(t, st, id); s.SessionID == nil || *s.SessionID != "t1" {
		t.Errorf("the deliberation's session became %v", s.SessionID)
	}
}

func TestArbitrationInAFreshSession(t *testing.T) {
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{reply("t1", "1. a", 1, 1), reply("", "1. b", 1, 1), reply("", "nothing new", 1, 1), reply("arbiter", "P1 weak", 1, 1)}}
	st := deliberation.NewStore(t.TempDir(), nil)
	id, _, _ := st.Start("Should the importer retry on HTTP 429?", nil)
	evals := []string{
		`{"iteration":1,"response":"valid","request_arbitration":true,"points":[{"text":"a","triage":"in-scope","classification":"AGREE","claim_type":"value"}]}`,
		`{"iteration":2,"response":"valid","points":[{"text":"b","triage":"in-scope","classification":"AGREE","claim_type":"value"}]}`,
		`{"iteration":2,"response":"valid","coverage":{}}`,
	}
	sendAndEvaluate(t, st, id, sc, evals, deliberation.ActionArbitrate)
	r, err := Send(context.Background(), st, id, sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	call := sc.Calls()[3]
	if call.SessionID != "" || r.Resumed || !strings.Contains(call.Request.Prompt, "Are agreed points well-supported?") {
		t.Errorf("arbitration must start a fresh session: session %q, resumed %v", call.SessionID, r.Resumed)
	}
	if strings.Contains(call.Request.Prompt, "You argued") || strings.Contains(call.Request.Prompt, "Codex") {
		t.Errorf("arbitration prompt attributes the points:\n%s", call.Request.Prompt)
	}
	if s := load(t, st, id); *s.SessionID != "t1" {
		t.Errorf("the deliberation's session became %s", *s.SessionID)
	}
}

// named gives a scripted consultant another name.
type named struct {
	*consult.Scripted
	name string
}

func (n named) Name() string { return n.name }

// TestConsultantSwitchOpensAFreshSession: another consultant never
// resumes the first one's session: it gets a fresh session with the
// Recovery prompt, and its name is recorded with its arguments.
func TestConsultantSwitchOpensAFreshSession(t *testing.T) {
	a := named{&consult.Scripted{Replies: []consult.ScriptedReply{reply("codex-thread", answer1, 1, 1)}}, "codex"}
	b := named{&consult.Scripted{Replies: []consult.ScriptedReply{reply("claude-1", answer2, 1, 1)}}, "command:claude -p"}
	st2, id2 := startedWith(t, a)
	r, err := Send(context.Background(), st2, id2, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	call := b.Calls()[0]
	if call.SessionID != "" || !strings.Contains(call.Request.Prompt, "SESSION RECOVERY at iteration 2/8") || !strings.Contains(call.Request.Prompt, "Rules (apply for the entire session)") {
		t.Errorf("the switch must open a fresh session with the Recovery prompt: session %q\n%s", call.SessionID, call.Request.Prompt)
	}
	if !strings.Contains(r.Recovery, "consultant switched from codex to command:claude -p") || r.Consultant != "command:claude -p" {
		t.Errorf("result %+v", r)
	}
	s := load(t, st2, id2)
	if s.Consultant != "command:claude -p" || *s.SessionID != "claude-1" {
		t.Errorf("state: consultant %q, session %s", s.Consultant, *s.SessionID)
	}
}

// startedWith starts a deliberation, sends the First Call to c and
// evaluates the answer (answer1), so the Subsequent Call is pending.
func startedWith(t *testing.T, c consult.Consultant) (*deliberation.Store, string) {
	t.Helper()
	st := deliberation.NewStore(t.TempDir(), nil)
	id, _, err := st.Start("Should the importer retry on HTTP 429?", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Send(context.Background(), st, id, c, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Evaluate(id, []byte(eval1)); err != nil {
		t.Fatal(err)
	}
	return st, id
}

// TestFreshSessionAfterRecover: after recover, a degraded context or
// --fresh, send opens a fresh session instead of resuming the degraded
// thread.
func TestFreshSessionAfterRecover(t *testing.T) {
	cases := []struct {
		name    string
		prepare func(t *testing.T, st *deliberation.Store, id string) *Options
		reason  string
	}{
		{"recover", func(t *testing.T, st *deliberation.Store, id string) *Options {
			if _, err := st.Recover(id); err != nil {
				t.Fatal(err)
			}
			return nil
		}, "the state asks for a fresh session (after recover, a degraded context or a consultation cut off)"},
		{"--fresh", func(*testing.T, *deliberation.Store, string) *Options { return &Options{Fresh: true} }, "a fresh session was asked for"},
		{"degraded context", func(t *testing.T, st *deliberation.Store, id string) *Options {
			if _, err := Send(context.Background(), st, id, consultantFor(t, st), nil); err != nil {
				t.Fatal(err)
			}
			if _, err := st.Evaluate(id, []byte(`{"iteration":2,"response":"degraded_context","degraded":["asks_settled"]}`)); err != nil {
				t.Fatal(err)
			}
			return nil
		}, "the state asks for a fresh session (after recover, a degraded context or a consultation cut off)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			replies := []consult.ScriptedReply{reply("t1", answer1, 1, 1), reply("t2", answer2, 1, 1)}
			if c.name == "degraded context" {
				replies = slices.Insert(replies, 1, reply("", "what was the question?", 1, 1))
			}
			sc := &consult.Scripted{Replies: replies}
			st, id := started(t, sc, nil)
			current = sc
			opts := c.prepare(t, st, id)
			r, err := Send(context.Background(), st, id, sc, opts)
			if err != nil {
				t.Fatal(err)
			}
			calls := sc.Calls()
			call := calls[len(calls)-1]
			if call.SessionID != "" || r.Resumed || !strings.Contains(call.Request.Prompt, "SESSION RECOVERY") {
				t.Errorf("send resumed %q:\n%s", call.SessionID, call.Request.Prompt)
			}
			s := load(t, st, id)
			if *s.SessionID != "t2" || s.FreshSession {
				t.Errorf("state: session %s, fresh %v", *s.SessionID, s.FreshSession)
			}
			if r.Recovery != c.reason {
				t.Errorf("recovery reason %q, want %q", r.Recovery, c.reason)
			}
		})
	}
}

// current is the scripted consultant of the running case.
var current *consult.Scripted

func consultantFor(*testing.T, *deliberation.Store) consult.Consultant { return current }
