// Package consult drives a second agent, the consultant, through its command
// line: the prompt goes in on standard input, the answer, a session id, token
// usage and timing come back. A session can be resumed with a further prompt.
//
// Three backends implement [Consultant]:
//
//   - [Codex] runs the OpenAI Codex CLI (`codex exec --json`), reads its JSON
//     event stream, enforces a wall-clock and an idle timeout on the whole
//     process group and classifies every failure ([Error]).
//   - [Command] runs any program that reads a prompt on standard input and
//     writes the answer on standard output (claude -p, gemini, a script).
//   - [Scripted] answers from a list, for tests.
//
// Prompts never travel through argv or a shell, so shell metacharacters, a
// line that is exactly "codex" or a megabyte of text arrive unchanged.
// Child processes and time come in through [Runner] and [Clock].
package consult

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Caps on what a consultant sends back. An answer over maxAnswer (or a
// codex event line over maxEventLine) ends the call with a KindTooLarge
// error naming the cap; the process group is killed at once, so a runaway
// consultant cannot fill memory or a state file.
const (
	// maxAnswer is the largest answer accepted: 1 MiB of text, far more
	// than a telegraphic deliberation answer needs (files are read by
	// path, not pasted).
	maxAnswer = 1 << 20
	// maxEventLine is the longest codex JSON event line read: an answer at
	// its cap, escaped as JSON, with room to spare.
	maxEventLine = 8 << 20
)

// tooLarge is the KindTooLarge message for what went over which cap.
func tooLarge(what string, limit int) string {
	return fmt.Sprintf("%s is over the cap of %d MiB; the process group was killed (ask for a shorter answer: name files by path rather than pasting them)", what, limit>>20)
}

// Consultant is a second agent elicit can consult.
type Consultant interface {
	// Name identifies the consultant in state files and messages ("codex",
	// "command:claude").
	Name() string
	// Start opens a new session with the request's prompt.
	Start(ctx context.Context, req Request) (*Reply, error)
	// Resume continues the session sessionID with the request's prompt; the
	// consultant sees the earlier turns.
	Resume(ctx context.Context, sessionID string, req Request) (*Reply, error)
}

// Request is one prompt sent to a consultant.
type Request struct {
	// Prompt is sent verbatim on standard input.
	Prompt string
	// Effort is the reasoning effort ("high", "xhigh", ...); empty means the
	// consultant's default.
	Effort string
	// Progress, if set, is called after every event the consultant emits
	// (never concurrently), for a progress line on a terminal.
	Progress func(Progress)
	// Schema, if set, is a JSON Schema the answer must follow (codex
	// --output-schema); only a consultant that is a SchemaTaker accepts it.
	Schema json.RawMessage
}

// SchemaTaker is a consultant that can be held to a response schema.
type SchemaTaker interface {
	TakesSchema() bool
}

// Progress describes a consultation that is still running.
type Progress struct {
	Elapsed time.Duration
	Events  int
	// Last is the type of the last event ("item.completed", ...).
	Last string
}

// Reply is a consultant's answer.
type Reply struct {
	// SessionID resumes the conversation; empty when the consultant has no
	// sessions.
	SessionID string `json:"session_id,omitempty"`
	// Text is the answer: for codex, the last agent message of the turn.
	Text  string `json:"text"`
	Usage Usage  `json:"usage"`
	// Started is when the consultant was started; Duration how long it ran.
	Started  time.Time     `json:"started"`
	Duration time.Duration `json:"-"`
	// Events counts the events read (codex) or is 0.
	Events int `json:"events,omitempty"`
	// Notices are non-fatal error messages the consultant reported (codex
	// "Reconnecting..." and the like).
	Notices []string `json:"notices,omitempty"`
	// UsageIsThreadTotal says Usage counts the whole session so far, not
	// this call: codex 0.171.0 reports the thread's running total in the
	// turn.completed of a resumed exec.
	UsageIsThreadTotal bool `json:"usage_is_thread_total,omitempty"`
}

// Usage counts tokens, summed over every turn of one call.
type Usage struct {
	InputTokens           int64 `json:"input_tokens"`
	CachedInputTokens     int64 `json:"cached_input_tokens"`
	OutputTokens          int64 `json:"output_tokens"`
	ReasoningOutputTokens int64 `json:"reasoning_output_tokens"`
}

// add adds u2 to u.
func (u *Usage) add(u2 Usage) {
	u.InputTokens += u2.InputTokens
	u.CachedInputTokens += u2.CachedInputTokens
	u.OutputTokens += u2.OutputTokens
	u.ReasoningOutputTokens += u2.ReasoningOutputTokens
}

// Sub returns u minus u2, each count at least 0.
func (u Usage) Sub(u2 Usage) Usage {
	sub := func(a, b int64) int64 { return max(a-b, 0) }
	return Usage{InputTokens: sub(u.InputTokens, u2.InputTokens), CachedInputTokens: sub(u.CachedInputTokens, u2.CachedInputTokens),
		OutputTokens: sub(u.OutputTokens, u2.OutputTokens), ReasoningOutputTokens: sub(u.ReasoningOutputTokens, u2.ReasoningOutputTokens)}
}

// Total is input plus output tokens (cached input counts as input).
func (u Usage) Total() int64 { return u.InputTokens + u.OutputTokens }
