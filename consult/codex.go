package consult

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

// Default timeouts of a codex consultation. Consultations routinely take 5
// to 20 minutes and must not be cut before 20.
const (
	DefaultTimeout     = 30 * time.Minute
	DefaultIdleTimeout = 20 * time.Minute
	DefaultEffort      = "high"
	// MaxDuration bounds every timeout and time budget elicit takes (a
	// year): a longer one is refused rather than wrapped round or dropped
	// (a duration counts nanoseconds in 64 bits, about 292 years).
	MaxDuration = 365 * 24 * time.Hour
)

// CodexPath is the codex program elicit runs: $ELICIT_CODEX as getenv
// reports it, else "codex" (looked up in PATH).
func CodexPath(getenv func(string) string) string {
	if p := getenv("ELICIT_CODEX"); p != "" {
		return p
	}
	return "codex"
}

// CodexOptions configures [Codex]. The zero value is usable.
type CodexOptions struct {
	// Path is the codex program; default "codex" (looked up in PATH).
	Path string
	// Model is set with -c model=...; empty keeps codex's configured model.
	Model string
	// Effort is the default model_reasoning_effort; default "high". A
	// request's Effort wins.
	Effort string
	// Timeout is the wall-clock limit of one call; default 30 minutes.
	Timeout time.Duration
	// IdleTimeout ends a call after this long without an event; default 20
	// minutes.
	IdleTimeout time.Duration
	// Config are further -c key=value overrides, passed before "resume".
	Config []string
	// Env is the child's whole environment; nil means elicit's own (codex
	// needs its key, CODEX_HOME, HOME and PATH, and a custom provider may
	// name any variable as its key).
	Env []string
	// Dir is the working directory; empty means the current one.
	Dir string
	// Runner starts the process; default OSRunner.
	Runner Runner
	// Clock measures time and runs the timeouts; default SystemClock.
	Clock Clock
}

// Codex consults the OpenAI Codex CLI through `codex exec --json`.
type Codex struct{ o CodexOptions }

// NewCodex returns a codex consultant; a nil opts means defaults.
func NewCodex(opts *CodexOptions) *Codex {
	o := CodexOptions{}
	if opts != nil {
		o = *opts
	}
	if o.Path == "" {
		o.Path = "codex"
	}
	if o.Effort == "" {
		o.Effort = DefaultEffort
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.Env == nil {
		o.Env = os.Environ()
	}
	if o.Runner == nil {
		o.Runner = OSRunner{}
	}
	if o.Clock == nil {
		o.Clock = SystemClock{}
	}
	return &Codex{o: o}
}

// Name implements Consultant.
func (c *Codex) Name() string { return "codex" }

// Start implements Consultant.
func (c *Codex) Start(ctx context.Context, req Request) (*Reply, error) {
	return c.run(ctx, "", req)
}

// Resume implements Consultant.
func (c *Codex) Resume(ctx context.Context, sessionID string, req Request) (*Reply, error) {
	if sessionID == "" {
		return nil, &Error{Kind: KindThreadNotFound, Consultant: c.Name(), Message: "no session id to resume", ExitCode: -1}
	}
	rep, err := c.run(ctx, sessionID, req)
	if rep != nil {
		rep.UsageIsThreadTotal = true
	}
	return rep, err
}

// TakesSchema implements SchemaTaker: codex has --output-schema.
func (c *Codex) TakesSchema() bool { return true }

// args returns the codex arguments of one call: every flag before
// "resume", the sandbox as a -c override on both calls, the prompt from
// standard input ("-"). schemaFile, if not empty, is --output-schema.
func (c *Codex) args(sessionID, effort, schemaFile string) []string {
	if effort == "" {
		effort = c.o.Effort
	}
	args := []string{"exec", "--json", "--skip-git-repo-check",
		"-c", "sandbox_mode=" + tomlString("read-only"),
		"-c", "model_reasoning_effort=" + tomlString(effort)}
	if c.o.Model != "" {
		args = append(args, "-c", "model="+tomlString(c.o.Model))
	}
	for _, kv := range c.o.Config {
		args = append(args, "-c", kv)
	}
	if schemaFile != "" {
		args = append(args, "--output-schema", schemaFile)
	}
	if sessionID != "" {
		args = append(args, "resume", sessionID)
	}
	return append(args, "-")
}

// tomlString quotes s as a TOML basic string (JSON's escapes are TOML's).
func tomlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func (c *Codex) run(ctx context.Context, sessionID string, req Request) (*Reply, error) {
	schemaFile, err := writeSchema(req.Schema)
	if err != nil {
		return nil, &Error{Kind: KindExit, Consultant: c.Name(), ExitCode: -1, Message: err.Error()}
	}
	if schemaFile != "" {
		defer os.Remove(schemaFile)
	}
	r := newRun(c, req)
	proc, err := c.o.Runner.Start(Spec{Path: c.o.Path, Args: c.args(sessionID, req.Effort, schemaFile), Env: c.o.Env,
		Dir: c.o.Dir, Stdin: r.stdin(), Stdout: r.stdoutWriter(), Stderr: &r.stderr})
	if err != nil {
		return nil, c.startError(err)
	}
	return r.wait(ctx, proc)
}

// writeSchema writes a response schema to a temporary file for
// --output-schema; no schema, no file.
func writeSchema(schema json.RawMessage) (string, error) {
	if len(schema) == 0 {
		return "", nil
	}
	f, err := os.CreateTemp("", "elicit-schema-*.json")
	if err != nil {
		return "", fmt.Errorf("write the response schema: %w", err)
	}
	_, err = f.Write(schema)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write the response schema: %w", err)
	}
	return f.Name(), nil
}

func (c *Codex) startError(err error) error {
	e := &Error{Kind: KindExit, Consultant: c.Name(), ExitCode: -1, Message: "cannot start " + c.o.Path + ": " + err.Error()}
	if errors.Is(err, ErrNotFound) {
		e.Kind = KindNotInstalled
		e.Message = fmt.Sprintf("%s is not installed or not on PATH (install it with: npm install -g @openai/codex)", c.o.Path)
	}
	return e
}
