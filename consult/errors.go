package consult

import (
	"fmt"
	"strings"
)

// Kind classifies a failed consultation.
type Kind string

// The kinds of failure, in the order classify tests them.
const (
	KindNotInstalled   Kind = "not_installed"    // the program is not on PATH
	KindThreadNotFound Kind = "thread_not_found" // resume: unknown, expired or invalid session
	KindContextLength  Kind = "context_length"   // the prompt or history is too long
	KindAuth           Kind = "auth"             // not logged in, bad or missing key
	KindRateLimit      Kind = "rate_limit"       // 429, quota, usage limit
	KindModel          Kind = "model"            // unknown or unsupported model
	KindNetwork        Kind = "network"          // connection, DNS, stream disconnected
	KindTimeout        Kind = "timeout"          // wall-clock or idle timeout; the process group was killed
	KindExit           Kind = "exit"             // non-zero exit, cause unknown
	KindUnparseable    Kind = "unparseable"      // no usable event stream on stdout
	KindCanceled       Kind = "canceled"         // the caller's context ended
	KindTooLarge       Kind = "too_large"        // the answer (or one event) is over its cap; the process group was killed
)

// Error is a failed consultation.
type Error struct {
	Kind       Kind
	Consultant string
	// Message says what happened, for people.
	Message string
	// ExitCode is the process's exit code, or -1 when it did not exit by
	// itself (killed, never started).
	ExitCode int
	// StderrTail is the end of the process's standard error (a Rust stack
	// backtrace cut off), with secret-looking environment values redacted.
	StderrTail string
	// Partial is what was read before the failure: the session id of a
	// started thread, a partial answer, the usage so far.
	Partial *Reply
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("%s: %s: %s", e.Consultant, e.Kind, e.Message)
	if e.StderrTail != "" {
		msg += "\nstderr: " + strings.ReplaceAll(e.StderrTail, "\n", "\n  ")
	}
	return msg
}

// Retryable reports whether a fresh session may succeed where a resume
// failed: the session is gone, or the call failed transiently.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case KindThreadNotFound, KindTimeout, KindNetwork, KindExit, KindUnparseable, KindContextLength:
		return true
	}
	return false
}

// patterns maps lowercase message fragments to kinds; the first kind with a
// matching fragment wins.
var patterns = []struct {
	kind  Kind
	frags []string
}{
	{KindThreadNotFound, []string{"thread not found", "no rollout found", "session not found", "session expired", "invalid session", "no such session", "thread/resume failed"}},
	{KindContextLength, []string{"context window", "context_length", "context length", "maximum context", "too many tokens", "prompt is too long"}},
	{KindAuth, []string{"401", "403 forbidden", "unauthorized", "api key", "api_key", "not logged in", "login", "authenticat", "invalid_api_key"}},
	{KindRateLimit, []string{"429", "rate limit", "rate_limit", "too many requests", "quota", "usage limit"}},
	{KindModel, []string{"model_not_found", "model not found", "unsupported model", "unknown model", "does not exist", "not supported when using codex", "invalid model"}},
	{KindNetwork, []string{"stream disconnected", "connection refused", "connection reset", "error sending request", "dns error", "failed to lookup address", "network", "timed out", "unreachable", "503", "502", "504"}},
}

// classify finds the kind of failure a message describes, or KindExit.
func classify(texts ...string) Kind {
	joined := strings.ToLower(strings.Join(texts, "\n"))
	for _, p := range patterns {
		for _, f := range p.frags {
			if strings.Contains(joined, f) {
				return p.kind
			}
		}
	}
	return KindExit
}

// maxTail bounds the kept standard error.
const maxTail = 2000

// stderrTail keeps the end of standard error, before any stack backtrace,
// valid UTF-8 and at most maxTail bytes.
func stderrTail(b []byte, secrets []string) string {
	s := string(b)
	if i := strings.Index(s, "Stack backtrace:"); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(redact(s, secrets))
	if len(s) > maxTail {
		s = s[len(s)-maxTail:]
		for len(s) > 0 && !startsRune(s) {
			s = s[1:]
		}
		s = "..." + s
	}
	return strings.ToValidUTF8(s, "?")
}

func startsRune(s string) bool { return s[0]&0xC0 != 0x80 }

// redact replaces every secret value in s.
func redact(s string, secrets []string) string {
	for _, v := range secrets {
		s = strings.ReplaceAll(s, v, "[REDACTED]")
	}
	return s
}

// secretValues lists the values of environment entries whose names look
// like secrets (KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL), at least 8 bytes
// long, so they can be kept out of messages.
func secretValues(env []string) []string {
	var out []string
	for _, kv := range env {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || len(value) < 8 {
			continue
		}
		upper := strings.ToUpper(name)
		for _, w := range []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIAL", "AUTH"} {
			if strings.Contains(upper, w) {
				out = append(out, value)
				break
			}
		}
	}
	return out
}
