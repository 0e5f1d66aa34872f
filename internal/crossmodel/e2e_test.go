package crossmodel

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/internal/codexstub"
)

// TestE2ECrossModelRun routes a method through the real codex CLI against
// the stub Responses-API server.
func TestE2ECrossModelRun(t *testing.T) {
	path := codexstub.Require(t)
	stub, env := codexstub.Serve(t, t.TempDir(), func(codexstub.Request) codexstub.Reply {
		return codexstub.Reply{Text: "1. The migration has no rollback.\n2. The cache outlives the schema.", InputTokens: 300, OutputTokens: 40}
	})
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, ".codexignore"), []byte("secrets/\n"), 0o644)
	p, err := Prepare(Request{Method: lookup(t, "Pre-mortem Analysis"), Topic: "Schema migration", Section: "We migrate the users table in place."},
		&Options{Project: project, Workflow: "plan", ID: "e2e", Available: true})
	if err != nil {
		t.Fatal(err)
	}
	c := consult.NewCodex(&consult.CodexOptions{Path: path, Model: p.Model, Env: env, Dir: project,
		Timeout: time.Duration(p.TimeoutSeconds) * time.Second, IdleTimeout: time.Minute})
	res, err := Run(context.Background(), p, c)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "ok" || res.Usage.InputTokens != 300 {
		t.Fatalf("result %+v %+v", res, res.Failure)
	}
	out, _ := os.ReadFile(p.OutputFile)
	if string(out) != "1. The migration has no rollback.\n2. The cache outlives the schema." {
		t.Errorf("output file %q", out)
	}
	if _, err := os.Stat(p.PromptFile); !os.IsNotExist(err) {
		t.Errorf("prompt file left: %v", err)
	}
	req := stub.Requests()[0]
	if req.Model != "gpt-5.3-codex" || !req.Said("user", "--- BEGIN CONTEXT ["+p.Nonce+"]") || !strings.Contains(req.Metadata, `"reasoning_effort":"xhigh"`) {
		t.Errorf("codex sent model %q, metadata %s", req.Model, req.Metadata)
	}
}
