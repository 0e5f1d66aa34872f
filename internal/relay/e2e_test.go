package relay

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/codexstub"
)

// TestE2EDeliberation runs a whole deliberation through the real codex CLI
// against the stub model server: start, send, evaluate, send again through
// resume (the stub sees the earlier turns), then, with codex's session store
// gone, a send that recovers with the Recovery prompt in a fresh session.
func TestE2EDeliberation(t *testing.T) {
	path := codexstub.Require(t)
	home := t.TempDir()
	stub, env := codexstub.Serve(t, home, func(r codexstub.Request) codexstub.Reply {
		last := r.LastUser()
		switch {
		case strings.Contains(last, "SESSION RECOVERY"):
			return codexstub.Reply{Text: "Nothing beyond client.py:88.", InputTokens: 50, OutputTokens: 5}
		case strings.Contains(last, "Open challenges"):
			return codexstub.Reply{Text: answer2, InputTokens: 40, OutputTokens: 4}
		}
		return codexstub.Reply{Text: answer1, InputTokens: 30, OutputTokens: 3}
	})
	c := consult.NewCodex(&consult.CodexOptions{Path: path, Env: env, Dir: t.TempDir(),
		Timeout: 2 * time.Minute, IdleTimeout: time.Minute})
	st := deliberation.NewStore(t.TempDir(), nil)
	id, _, err := st.Start("Should the importer retry on HTTP 429?", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	r1, err := Send(ctx, st, id, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r1.Answer != answer1 || r1.Resumed || r1.SessionID == "" || r1.Usage.InputTokens != 30 {
		t.Fatalf("iteration 1: %+v", r1)
	}
	if _, err := st.Evaluate(id, []byte(eval1)); err != nil {
		t.Fatal(err)
	}

	r2, err := Send(ctx, st, id, c, &Options{Effort: "xhigh"})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Answer != answer2 || !r2.Resumed || r2.SessionID != r1.SessionID || r2.Totals.Tokens != 77 {
		t.Fatalf("iteration 2: %+v", r2)
	}
	reqs := stub.Requests()
	if last := reqs[len(reqs)-1]; !last.Said("user", "<user_question>") || !last.Said("assistant", strings.TrimSpace(answer1)) || !strings.Contains(last.Metadata, `"reasoning_effort":"xhigh"`) {
		t.Errorf("the resumed turn lacks the earlier turns: %+v", last.Messages)
	}
	if _, err := st.Evaluate(id, []byte(`{"iteration": 2, "response": "valid", "challenges": [{"id": "C1", "outcome": "conceded"}]}`)); err != nil {
		t.Fatal(err)
	}

	// codex's session store is gone: the resume fails with "thread not found".
	if err := os.RemoveAll(filepath.Join(home, "sessions")); err != nil {
		t.Fatal(err)
	}
	r3, err := Send(ctx, st, id, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r3.Recovery, "thread_not_found") || r3.SessionID == r1.SessionID || r3.Answer != "Nothing beyond client.py:88." {
		t.Fatalf("recovery: %+v", r3)
	}
	s, _ := st.Load(id)
	if *s.SessionID != r3.SessionID || !strings.Contains(strings.Join(s.Warnings, "\n"), "Recovered from session failure at iter 2") {
		t.Errorf("state: session %s, warnings %q", *s.SessionID, s.Warnings)
	}
}

// TestE2EStructured holds the real codex to the answer schema: codex sends
// it to the model as the response format, and the JSON answer is recorded
// as protocol text.
func TestE2EStructured(t *testing.T) {
	path := codexstub.Require(t)
	answer := `{"points":[{"text":"Honour Retry-After","label":"EVIDENCE","support":"client.py:88 parses it"}],"challenges":[]}`
	stub, env := codexstub.Serve(t, t.TempDir(), func(codexstub.Request) codexstub.Reply { return codexstub.Reply{Text: answer} })
	c := consult.NewCodex(&consult.CodexOptions{Path: path, Env: env, Dir: t.TempDir(), Timeout: 2 * time.Minute})
	st := deliberation.NewStore(t.TempDir(), nil)
	id, _, _ := st.Start("Should the importer retry on HTTP 429?", nil)
	r, err := Send(context.Background(), st, id, c, &Options{Structured: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Answer != "1. Honour Retry-After EVIDENCE: client.py:88 parses it\n" {
		t.Errorf("answer %q", r.Answer)
	}
	var body struct {
		Text struct {
			Format struct {
				Type   string          `json:"type"`
				Schema json.RawMessage `json:"schema"`
			} `json:"format"`
		} `json:"text"`
	}
	json.Unmarshal(stub.Requests()[0].Raw, &body)
	if body.Text.Format.Type != "json_schema" || !strings.Contains(string(body.Text.Format.Schema), `"EVIDENCE"`) {
		t.Errorf("codex did not send the schema as the response format: %s", stub.Requests()[0].Raw[:min(400, len(stub.Requests()[0].Raw))])
	}
}
