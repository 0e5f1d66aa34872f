package mcpserver

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/relay"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sendServer serves with c as the codex consultant; copts configure the
// client.
func sendServer(t *testing.T, c consult.Consultant, copts *mcp.ClientOptions) (*mcp.ClientSession, *Options) {
	t.Helper()
	old := sendConsultant
	sendConsultant = func(_ func(string) string, name string, _ *consult.CodexOptions) (consult.Consultant, error) {
		if name != "codex" {
			return consult.New(name, nil)
		}
		return c, nil
	}
	t.Cleanup(func() { sendConsultant = old })
	opts := &Options{Version: "test", Project: t.TempDir(), DeliberationDir: t.TempDir(), Background: NewBackground()}
	t.Cleanup(func() { opts.Background.Stop(10 * time.Second) })
	return dial(t, New(opts), protocols[0], copts), opts
}

func sendSession(t *testing.T, c consult.Consultant) *mcp.ClientSession {
	t.Helper()
	cs, _ := sendServer(t, c, nil)
	return cs
}

// waitDone waits for the consultation of id to end and returns the wait's
// result.
func waitDone(t *testing.T, cs *mcp.ClientSession, id any) map[string]any {
	t.Helper()
	for range 20 {
		got, isErr := call(t, cs, "deliberation_wait", map[string]any{"id": id, "timeout_seconds": 5})
		if isErr {
			t.Fatalf("wait: %v", got)
		}
		if got["status"] != "running" {
			return got
		}
	}
	t.Fatal("the consultation did not end")
	return nil
}

func TestDeliberationSend(t *testing.T) {
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{
		{Reply: consult.Reply{SessionID: "t1", Text: "1. Honour Retry-After. EVIDENCE.", Usage: consult.Usage{InputTokens: 10, OutputTokens: 2}}},
	}}
	cs := sendSession(t, sc)
	started, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?"})
	id := started["id"].(string)

	got, isErr := call(t, cs, "deliberation_send", map[string]any{"id": id, "effort": "xhigh", "max_tokens": 100})
	if isErr || (got["status"] != "running" && got["status"] != "done") {
		t.Fatalf("send: %v", got)
	}
	got = waitDone(t, cs, id)
	r := got["result"].(map[string]any)
	if got["status"] != "done" || r["session_id"] != "t1" || r["answer"] != "1. Honour Retry-After. EVIDENCE." || got["next"].(map[string]any)["awaiting"] != "evaluation" {
		t.Fatalf("wait: %v", got)
	}
	if calls := sc.Calls(); len(calls) != 1 || calls[0].Request.Effort != "xhigh" || calls[0].Request.Prompt != started["prompt"] {
		t.Errorf("calls %+v", calls)
	}
	if totals := r["totals"].(map[string]any); totals["tokens"] != float64(12) || totals["budget"].(map[string]any)["max_tokens"] != float64(100) {
		t.Errorf("totals %v", totals)
	}

	got, isErr = call(t, cs, "deliberation_send", map[string]any{"id": id})
	if !isErr || !strings.Contains(got["problems"].([]any)[0].(string), "awaits your evaluation") {
		t.Errorf("second send: %v", got)
	}
	got, isErr = call(t, cs, "deliberation_send", map[string]any{"id": id, "structured": true, "consultant": "command:cat"})
	if !isErr || !strings.Contains(got["problems"].([]any)[0].(string), "consultant command:cat cannot be held to a response schema") {
		t.Errorf("structured with a command: %v", got)
	}
}

func TestDeliberationSendFailures(t *testing.T) {
	sc := &consult.Scripted{Replies: []consult.ScriptedReply{{Err: &consult.Error{Kind: consult.KindAuth, Consultant: "codex", Message: "401", ExitCode: 1}}}}
	cs := sendSession(t, sc)
	started, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?"})
	call(t, cs, "deliberation_send", map[string]any{"id": started["id"]})
	got := waitDone(t, cs, started["id"])
	if got["status"] != "failed" || got["failure"].(map[string]any)["kind"] != "auth" {
		t.Errorf("failure: %v", got)
	}
	got, isErr := call(t, cs, "deliberation_send", map[string]any{"id": started["id"], "effort": "max", "consultant": "gemini"})
	want := []any{`effort: must be high or xhigh (got "max")`, `consultant: unknown consultant "gemini" (want codex or command:PROGRAM [ARGS...])`}
	if !isErr || len(got["problems"].([]any)) != 2 || got["problems"].([]any)[0] != want[0] || got["problems"].([]any)[1] != want[1] {
		t.Errorf("bad arguments: %v", got)
	}
	got, isErr = call(t, cs, "deliberation_wait", map[string]any{"id": started["id"], "timeout_seconds": 51})
	if !isErr || !strings.Contains(got["problems"].([]any)[0].(string), "timeout_seconds: is 51, want a whole number of seconds, 1 to 50") {
		t.Errorf("a wait over 50 s: %v", got)
	}
	// Each wrong timeout is one problem, saying what it is and what is
	// wanted.
	for _, tt := range []struct {
		timeout any
		want    string
	}{
		{-5, "timeout_seconds: is -5, want a whole number of seconds, 1 to 50 (default 50; call again"},
		{1.5, "timeout_seconds: is 1.5, want a whole number of seconds, 1 to 50"},
		{0, "timeout_seconds: is 0, want a whole number of seconds, 1 to 50"},
		{51, "timeout_seconds: is 51, want a whole number of seconds, 1 to 50"},
		{1e300, "timeout_seconds: is 1e+300, want a whole number of seconds, 1 to 50"},
		{"5", "timeout_seconds: must be a whole number of seconds, 1 to 50"},
	} {
		got, isErr = call(t, cs, "deliberation_wait", map[string]any{"id": started["id"], "timeout_seconds": tt.timeout})
		probs, _ := got["problems"].([]any)
		if !isErr || len(probs) != 1 || !strings.HasPrefix(probs[0].(string), tt.want) {
			t.Errorf("timeout_seconds %v: %v, want the one problem %q", tt.timeout, got, tt.want)
		}
	}
}

// blocking is a consultant that works until released or canceled,
// reporting an event every 20 ms.
type blocking struct {
	release chan struct{}
	mu      sync.Mutex
	calls   []consult.Call
}

func newBlocking() *blocking { return &blocking{release: make(chan struct{})} }

func (b *blocking) Name() string { return "codex" }
func (b *blocking) Start(ctx context.Context, req consult.Request) (*consult.Reply, error) {
	return b.run(ctx, "", req)
}
func (b *blocking) Resume(ctx context.Context, id string, req consult.Request) (*consult.Reply, error) {
	return b.run(ctx, id, req)
}

func (b *blocking) Calls() []consult.Call {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]consult.Call(nil), b.calls...)
}

func (b *blocking) run(ctx context.Context, id string, req consult.Request) (*consult.Reply, error) {
	b.mu.Lock()
	b.calls = append(b.calls, consult.Call{SessionID: id, Request: req})
	n := len(b.calls)
	b.mu.Unlock()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for events := 1; ; events++ {
		select {
		case <-b.release:
			return &consult.Reply{SessionID: "s" + string(rune('0'+n)), Text: "1. an answer"}, nil
		case <-ctx.Done():
			return nil, &consult.Error{Kind: consult.KindCanceled, Consultant: "codex", Message: "the process group was killed", ExitCode: -1}
		case <-tick.C:
			if req.Progress != nil {
				req.Progress(consult.Progress{Events: events, Last: "item.completed"})
			}
		}
	}
}

// TestSendRunsInTheBackground: deliberation_send returns at once; status shows the
// running consultation; wait returns when it ends or its time runs out,
// sending progress notifications to a client that asked for them.
func TestSendRunsInTheBackground(t *testing.T) {
	b := newBlocking()
	var mu sync.Mutex
	var notes []*mcp.ProgressNotificationParams
	cs, _ := sendServer(t, b, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		notes = append(notes, r.Params)
		mu.Unlock()
	}})
	started, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?"})
	id := started["id"]
	began := time.Now()
	got, isErr := call(t, cs, "deliberation_send", map[string]any{"id": id})
	if isErr || got["status"] != "running" || time.Since(began) > 5*time.Second {
		t.Fatalf("send: %v after %s", got, time.Since(began))
	}
	if c := got["consultation"].(map[string]any); c["consultant"] != "codex" || c["iteration"] != 1.0 || c["status"] != "running" {
		t.Errorf("consultation %v", c)
	}
	// The consultant reports an event every 20 ms: poll until status
	// shows one (however loaded the machine), then check it.
	var c map[string]any
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		got, _ = call(t, cs, "deliberation_status", map[string]any{"id": id})
		c = got["consultation"].(map[string]any)
		if p, _ := c["progress"].(map[string]any); (p != nil && p["events"].(float64) >= 1) || time.Now().After(deadline) {
			break
		}
	}
	if c["status"] != "running" || c["progress"].(map[string]any)["events"].(float64) < 1 || c["progress"].(map[string]any)["last_event"] != "item.completed" {
		t.Errorf("status consultation %v", c)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "deliberation_wait", Arguments: map[string]any{"id": id, "timeout_seconds": 1},
		Meta: mcp.Meta{"progressToken": "w1"}})
	if err != nil {
		t.Fatal(err)
	}
	if s := resultJSON(t, "deliberation_wait", res); s["status"] != "running" {
		t.Errorf("a wait that runs out: %v", s)
	}
	mu.Lock()
	n := len(notes)
	ok := n > 0 && notes[0].ProgressToken == "w1" && strings.Contains(notes[0].Message, "codex consulted on iteration 1")
	mu.Unlock()
	if !ok {
		t.Errorf("%d progress notifications: %+v", n, notes)
	}
	close(b.release)
	got = waitDone(t, cs, id)
	if got["status"] != "done" || got["result"].(map[string]any)["answer"] != "1. an answer" {
		t.Errorf("done: %v", got)
	}
	got, _ = call(t, cs, "deliberation_status", map[string]any{"id": id})
	if got["consultation"] != nil || got["next"].(map[string]any)["awaiting"] != "evaluation" {
		t.Errorf("status after: %v", got)
	}
}

// deliberation_cancel kills the consultation; the prompt stays pending and
// the next send opens a fresh session with the Recovery prompt.
func TestCancelStopsTheConsultation(t *testing.T) {
	b := newBlocking()
	cs, opts := sendServer(t, b, nil)
	id := startAndAnswer(t, cs, opts)
	call(t, cs, "deliberation_send", map[string]any{"id": id})
	got, _ := call(t, cs, "deliberation_cancel", map[string]any{"id": id})
	if got["status"] != "canceled" || got["failure"].(map[string]any)["kind"] != "canceled" {
		t.Fatalf("cancel: %v", got)
	}
	s, err := deliberation.NewStore(opts.DeliberationDir, nil).Load(id)
	if err != nil || s.Consultation != nil || !s.FreshSession || s.Next.Awaiting != deliberation.AwaitResponse {
		t.Fatalf("state after cancel: %+v, %v", s, err)
	}
	close(b.release)
	call(t, cs, "deliberation_send", map[string]any{"id": id})
	got = waitDone(t, cs, id)
	calls := b.Calls()
	if last := calls[len(calls)-1]; last.SessionID != "" || !strings.Contains(last.Request.Prompt, "SESSION RECOVERY") || got["result"].(map[string]any)["recovery"] == nil {
		t.Errorf("after a cancel, send resumed %q: %v", last.SessionID, got)
	}
}

// startAndAnswer starts a deliberation, records an answer to the First
// Call with session s1 and evaluates it, so a resume would be next.
func startAndAnswer(t *testing.T, cs *mcp.ClientSession, opts *Options) string {
	t.Helper()
	started, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?"})
	id := started["id"].(string)
	st := deliberation.NewStore(opts.DeliberationDir, nil)
	if _, err := st.RecordAnswer(id, started["prompt"].(string), "1. a", deliberation.AnswerInfo{Consultant: "codex", SessionID: "s1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Evaluate(id, []byte(`{"iteration":1,"response":"valid","points":[{"text":"a","triage":"in-scope","classification":"SKEPTICAL","flaw":"f"}]}`)); err != nil {
		t.Fatal(err)
	}
	return id
}

// A server restart (its process gone) while a consultation runs leaves a
// state that says so, and the next send recovers it in a fresh session.
func TestRestartLeavesARecoverableState(t *testing.T) {
	b := newBlocking()
	close(b.release)
	cs, opts := sendServer(t, b, nil)
	id := startAndAnswer(t, cs, opts)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	st := deliberation.NewStore(opts.DeliberationDir, nil)
	c := deliberation.NewConsultation("codex", true)
	c.PID, c.ProcStart = dead.Process.Pid, "1"
	if _, err := st.BeginConsultation(id, c, false); err != nil {
		t.Fatal(err)
	}
	got, _ := call(t, cs, "deliberation_status", map[string]any{"id": id})
	if v := got["consultation"].(map[string]any); v["status"] != "interrupted" {
		t.Errorf("status: %v", v)
	}
	got, _ = call(t, cs, "deliberation_wait", map[string]any{"id": id, "timeout_seconds": 1})
	if got["status"] != "interrupted" {
		t.Errorf("wait: %v", got)
	}
	call(t, cs, "deliberation_send", map[string]any{"id": id})
	got = waitDone(t, cs, id)
	r := got["result"].(map[string]any)
	if calls := b.Calls(); len(calls) != 1 || calls[0].SessionID != "" || !strings.Contains(r["recovery"].(string), "was interrupted") {
		t.Errorf("the send after a restart: calls %+v, result %v", calls, r)
	}
}

// Stopping the server cancels its background consultations and leaves
// each deliberation recoverable.
func TestStopCancelsBackgroundConsultations(t *testing.T) {
	b := newBlocking()
	cs, opts := sendServer(t, b, nil)
	id := startAndAnswer(t, cs, opts)
	call(t, cs, "deliberation_send", map[string]any{"id": id})
	if !opts.Background.Stop(10 * time.Second) {
		t.Fatal("the consultation did not stop")
	}
	s, err := deliberation.NewStore(opts.DeliberationDir, nil).Load(id)
	if err != nil || s.Consultation != nil || !s.FreshSession || s.Next.Awaiting != deliberation.AwaitResponse {
		t.Errorf("state after the stop: %+v, %v", s, err)
	}
	got, isErr := call(t, cs, "deliberation_send", map[string]any{"id": id})
	if !isErr || !strings.Contains(got["problems"].([]any)[0].(string), "the server is stopping") {
		t.Errorf("send after the stop: %v", got)
	}
}

// TestStatePathOutsideTheFolderIsRefused: a state file's path outside the server's folder is
// refused, never taken for the same ID in the folder.
func TestStatePathOutsideTheFolderIsRefused(t *testing.T) {
	cs, opts := sendServer(t, newBlocking(), nil)
	started, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Retry?"})
	id := started["id"].(string)
	got, isErr := call(t, cs, "deliberation_status", map[string]any{"id": "/elsewhere/codex-ask-state-" + id + ".json"})
	if !isErr || !strings.Contains(got["problems"].([]any)[0].(string), "not in this server's deliberations folder") {
		t.Errorf("a path elsewhere: %v", got)
	}
	got, isErr = call(t, cs, "deliberation_status", map[string]any{"id": opts.DeliberationDir + "/codex-ask-state-" + id + ".json"})
	if isErr || got["question"] != "Retry?" {
		t.Errorf("the path of the file itself: %v", got)
	}
}

// TestDeliberationMessagesNameTools: over MCP the messages name the tools
// and their arguments, not the CLI's commands and flags.
func TestDeliberationMessagesNameTools(t *testing.T) {
	b := newBlocking()
	cs := sendSession(t, b)
	started, _ := call(t, cs, "deliberation_start", map[string]any{"question": "Should the importer retry on HTTP 429?"})
	id := started["id"]
	problemOf := func(got map[string]any) string {
		probs, _ := got["problems"].([]any)
		if len(probs) != 1 {
			t.Fatalf("problems %v, want one", got)
		}
		return probs[0].(string)
	}
	checkNames := func(what, text string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %q does not name %s", what, text, w)
			}
		}
		if strings.Contains(text, "--") || strings.Contains(text, "CLI") || strings.Contains(text, "deliberate ") {
			t.Errorf("%s: %q names the CLI", what, text)
		}
	}
	notes, _ := started["notes"].([]any)
	if len(notes) != 1 {
		t.Fatalf("start notes %v", started)
	}
	checkNames("start note", notes[0].(string), "deliberation_start's shape, tangents and drift_signals")
	status, _ := call(t, cs, "deliberation_status", map[string]any{"id": id})
	checkNames("status note", status["notes"].([]any)[0].(string), "deliberation_start's shape")

	if got, isErr := call(t, cs, "deliberation_send", map[string]any{"id": id}); isErr {
		t.Fatalf("send: %v", got)
	}
	got, _ := call(t, cs, "deliberation_send", map[string]any{"id": id})
	checkNames("send while running", problemOf(got), "wait for it (deliberation_wait) or cancel it (deliberation_cancel)")
	close(b.release)
	waitDone(t, cs, id)
	got, _ = call(t, cs, "deliberation_send", map[string]any{"id": id})
	checkNames("send awaiting evaluation", problemOf(got), "awaits your evaluation of the last answer (deliberation_evaluate)")
}

// TestInputEndStopsWaits: when the input ends while a deliberation_wait is
// in flight, the consultation is canceled and recorded at once and the
// wait answers with it; the server exits without waiting out the wait's
// timeout (it took the full 20 s).
func TestInputEndStopsWaits(t *testing.T) {
	b := newBlocking()
	old := sendConsultant
	sendConsultant = func(func(string) string, string, *consult.CodexOptions) (consult.Consultant, error) { return b, nil }
	t.Cleanup(func() { sendConsultant = old })
	dir := t.TempDir()
	st := deliberation.NewStore(dir, nil)
	id, _, err := st.Start("Should the importer retry on HTTP 429?", nil)
	if err != nil {
		t.Fatal(err)
	}
	bg := NewBackground()
	s := New(&Options{Version: "test", DeliberationDir: dir, Background: bg})
	inR, inW := io.Pipe()
	var out syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- s.Run(context.Background(), &stdioTransport{in: inR, out: &out, ended: func() { bg.Stop(stopWait) }})
	}()
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	until := func(what string) {
		for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), what); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("no %s in:\n%s", what, out.String())
			}
		}
	}
	send(fmt.Sprintf(initLine, `{}`))
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deliberation_send","arguments":{"id":"` + id + `"}}}`)
	until(`"id":2,`)
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"deliberation_wait","arguments":{"id":"` + id + `","timeout_seconds":20}}}`)
	time.Sleep(200 * time.Millisecond) // the wait is in flight
	ended := time.Now()
	inW.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("the server did not exit within 10 s of its input ending; it wrote:\n%s", out.String())
	}
	if took := time.Since(ended); took > 5*time.Second {
		t.Errorf("the server took %s to exit", took)
	}
	until(`"id":3,`)
	if !strings.Contains(out.String(), `\"status\":\"canceled\"`) {
		t.Errorf("the wait did not answer canceled:\n%s", out.String())
	}
	o, err := relay.Status(st, id)
	if err != nil || o.Status != relay.StatusCanceled {
		t.Errorf("recorded status %+v, %v; want canceled", o, err)
	}
}
