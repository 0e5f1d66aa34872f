package consult_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/internal/codexstub"
)

// realCodex finds the codex CLI (see codexstub.Require) or skips.
func realCodex(t *testing.T) string {
	t.Helper()
	return codexstub.Require(t)
}

// stubbed starts a stub answering with reply and returns codex options that
// point the real codex at it.
func stubbed(t *testing.T, reply func(codexstub.Request) codexstub.Reply) (consult.CodexOptions, *codexstub.Server) {
	t.Helper()
	path := realCodex(t)
	stub, env := codexstub.Serve(t, t.TempDir(), reply)
	return consult.CodexOptions{Path: path, Env: env, Dir: t.TempDir(),
		Timeout: 2 * time.Minute, IdleTimeout: time.Minute}, stub
}

func TestE2EStartAndResume(t *testing.T) {
	opts, stub := stubbed(t, func(r codexstub.Request) codexstub.Reply {
		if strings.Contains(r.LastUser(), "FIRST") {
			return codexstub.Reply{Text: "first answer: the cache has no eviction", InputTokens: 100, OutputTokens: 20}
		}
		return codexstub.Reply{Text: "second answer: C1 defended", InputTokens: 150, OutputTokens: 30}
	})
	c := consult.NewCodex(&opts)
	prompt := "FIRST question $(rm -rf /) `id` | tee\ncodex\n'quoted' \"double\""
	rep, err := c.Start(context.Background(), consult.Request{Prompt: prompt})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Text != "first answer: the cache has no eviction" || len(rep.SessionID) < 32 || rep.Usage.InputTokens != 100 || rep.Usage.OutputTokens != 20 {
		t.Fatalf("start: %+v", rep)
	}
	first := stub.Requests()[0]
	if !first.Said("user", prompt) || !strings.Contains(first.Metadata, `"sandbox_mode":"read-only"`) || !strings.Contains(first.Metadata, `"reasoning_effort":"high"`) || !first.Stream {
		t.Errorf("first request: prompt passed unchanged %v, metadata %s", first.Said("user", prompt), first.Metadata)
	}

	rep2, err := c.Resume(context.Background(), rep.SessionID, consult.Request{Prompt: "SECOND: defend C1", Effort: "xhigh"})
	if err != nil {
		t.Fatal(err)
	}
	if rep2.Text != "second answer: C1 defended" || rep2.SessionID != rep.SessionID {
		t.Fatalf("resume: %+v", rep2)
	}
	// codex 0.171.0 reports the thread's running total on a resume.
	if !rep2.UsageIsThreadTotal || rep2.Usage.InputTokens != 250 || rep2.Usage.OutputTokens != 50 {
		t.Errorf("resume usage %+v (thread total %v), want the thread's 250 in, 50 out", rep2.Usage, rep2.UsageIsThreadTotal)
	}
	reqs := stub.Requests()
	last := reqs[len(reqs)-1]
	if !last.Said("user", prompt) || !last.Said("assistant", "first answer: the cache has no eviction") || !last.Said("user", "SECOND: defend C1") {
		t.Errorf("the resumed turn did not carry the earlier turns: %+v", last.Messages)
	}
	if !strings.Contains(last.Metadata, `"sandbox_mode":"read-only"`) || !strings.Contains(last.Metadata, `"reasoning_effort":"xhigh"`) {
		t.Errorf("resume metadata %s", last.Metadata)
	}
}

func TestE2EThreadNotFound(t *testing.T) {
	opts, _ := stubbed(t, func(codexstub.Request) codexstub.Reply { return codexstub.Reply{Text: "never"} })
	_, err := consult.NewCodex(&opts).Resume(context.Background(), "0199a213-81c0-7800-8aa1-bbab2a035a53", consult.Request{Prompt: "again"})
	var e *consult.Error
	if !errors.As(err, &e) || e.Kind != consult.KindThreadNotFound || !e.Retryable() {
		t.Fatalf("err = %v", err)
	}
	if e.StderrTail == "" || strings.Contains(e.StderrTail, "Stack backtrace") {
		t.Errorf("stderr tail %q", e.StderrTail)
	}
}

func TestE2EFailures(t *testing.T) {
	tests := []struct {
		name  string
		reply codexstub.Reply
		idle  time.Duration
		kind  consult.Kind
	}{
		{name: "the model stops sending: idle timeout", reply: codexstub.Reply{Hang: true}, idle: 10 * time.Second, kind: consult.KindTimeout},
		{name: "context window", reply: codexstub.Reply{Status: 400, Text: "context_length_exceeded: too long"}, kind: consult.KindContextLength},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, _ := stubbed(t, func(codexstub.Request) codexstub.Reply { return tt.reply })
			if tt.idle > 0 {
				opts.IdleTimeout = tt.idle
			}
			begin := time.Now()
			_, err := consult.NewCodex(&opts).Start(context.Background(), consult.Request{Prompt: "p"})
			var e *consult.Error
			if !errors.As(err, &e) || e.Kind != tt.kind {
				t.Fatalf("err = %v, want %s", err, tt.kind)
			}
			if e.Partial == nil || e.Partial.SessionID == "" {
				t.Errorf("the started thread's id was not kept: %+v", e.Partial)
			}
			if took := time.Since(begin); took > time.Minute {
				t.Errorf("took %s", took)
			}
		})
	}
}
