package consult

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestAnswerIsCapped: a consultant's answer is capped. Over the cap the call
// fails at once with a too_large error naming the cap, never with a
// scanner error and never by holding the whole output.
func TestAnswerIsCapped(t *testing.T) {
	cases := []struct {
		name   string
		c      Consultant
		prompt int
		want   string
	}{
		{"codex answer", fake(t, CodexOptions{}, "FAKE_CODEX=echo"), maxAnswer + 1, "the answer is over the cap of 1 MiB"},
		{"codex event line", fake(t, CodexOptions{}, "FAKE_CODEX=echo"), maxEventLine + 1, "a line of codex's event stream is over the cap of 8 MiB"},
		{"command answer", newCommand(commandOptions{Path: "sh", Args: []string{"-c", "cat; cat /dev/zero"}, Timeout: time.Minute}), 10, "the answer is over the cap of 1 MiB"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			began := time.Now()
			_, err := c.c.Start(context.Background(), Request{Prompt: strings.Repeat("x", c.prompt)})
			var ce *Error
			if !errors.As(err, &ce) || ce.Kind != KindTooLarge || !strings.Contains(ce.Message, c.want) || !strings.Contains(ce.Message, "process group was killed") {
				t.Fatalf("error %v", err)
			}
			if ce.Partial != nil && len(ce.Partial.Text) > maxAnswer {
				t.Errorf("the partial reply holds %d bytes", len(ce.Partial.Text))
			}
			if time.Since(began) > 30*time.Second {
				t.Errorf("took %s", time.Since(began))
			}
		})
	}
	// At the cap, the answer comes through.
	rep, err := fake(t, CodexOptions{}, "FAKE_CODEX=echo").Start(context.Background(), Request{Prompt: strings.Repeat("y", maxAnswer)})
	if err != nil || len(rep.Text) != maxAnswer {
		t.Errorf("an answer at the cap: %v", err)
	}
}
