package crossmodel

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/elicit/elicit/consult"
	"github.com/elicit/elicit/deliberation"
	"github.com/elicit/elicit/internal/config"
	"github.com/elicit/elicit/method"
	"github.com/elicit/elicit/problem"
)

// Notes of the seed's edge cases, reported in a Result.
const (
	NoteUnavailable = "Codex perspective unavailable"
	NoteConsensus   = "Cross-model consensus — high confidence"
	NoteFailedCheck = "Codex output failed verification"
	NoteNoIgnore    = "Elicitation: .codexignore missing — skipping Codex cross-model (--full-auto requires .codexignore)"
)

// Options configures Prepare. A nil *Options means defaults.
type Options struct {
	// Project is the directory holding .codexignore and tmp/; default ".".
	Project string
	// Workflow and ID name the run's folder tmp/{workflow}/{id}; defaults
	// "elicit" and the UTC time as 20060102-150405.
	Workflow, ID string
	// Settings are the codex section; default config.DefaultCodex().
	Settings *config.Codex
	// Available says whether the consultant can run (codex on PATH);
	// Unavailable, when it cannot, says why (default: codex not found).
	Available   bool
	Unavailable string
	// Via is the council member the method's role is routed to, if any.
	Via *Via
	// Rand is the nonce source; default crypto/rand.
	Rand io.Reader
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Via is the council member a method's role is routed to (one consultant
// per role: deliberation.Council.ForRole).
type Via struct {
	Council    string `json:"council"`
	Member     string `json:"member"`
	Stance     string `json:"stance,omitempty"`
	Consultant string `json:"consultant"`
}

// Request is what to route: a method and the section it is applied to.
type Request struct {
	Method  method.Method
	Topic   string
	Section string
}

// Gate says whether the cross-model step runs and, if not, why.
type Gate struct {
	Open   bool   `json:"open"`
	Reason string `json:"reason,omitempty"`
}

// Plan is a prepared cross-model step.
type Plan struct {
	Method         string  `json:"method"`
	Slug           string  `json:"slug"`
	Role           string  `json:"codex_role"`
	Gate           Gate    `json:"gate"`
	Model          string  `json:"model"`
	Reasoning      string  `json:"reasoning"`
	TimeoutSeconds float64 `json:"timeout_seconds"`
	// Workflow and ID name the run's folder, tmp/{workflow}/{id} (a
	// verdict on its output names them again).
	Workflow   string `json:"workflow,omitempty"`
	ID         string `json:"id,omitempty"`
	Nonce      string `json:"nonce,omitempty"`
	Prompt     string `json:"prompt,omitempty"`
	PromptFile string `json:"prompt_file,omitempty"`
	OutputFile string `json:"output_file,omitempty"`
	// Truncated names the parts cut to their limits ("topic", "section").
	Truncated []string `json:"truncated,omitempty"`
	// Via is the council member that runs it, when a council's is used.
	Via *Via `json:"via,omitempty"`

	// project is the folder the files are written in, and never outside.
	project string
}

// simpleName reports whether s is 1 to 100 ASCII letters, digits, '.', '_'
// or '-' starting with a letter or digit (`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`,
// in plain code: that regexp costs 0.3 ms and 1,332 allocations to compile).
func simpleName(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

func (o *Options) withDefaults() Options {
	out := Options{}
	if o != nil {
		out = *o
	}
	if out.Project == "" {
		out.Project = "."
	}
	if out.Now == nil {
		out.Now = time.Now
	}
	if out.Workflow == "" {
		out.Workflow = "elicit"
	}
	if out.ID == "" {
		out.ID = out.Now().UTC().Format("20060102-150405")
	}
	if out.Settings == nil {
		d := config.DefaultCodex()
		out.Settings = &d
	}
	if out.Rand == nil {
		out.Rand = rand.Reader
	}
	return out
}

// Prepare checks the request, applies the gate and builds the prompt. The
// prompt is built whenever the method has a codex_role, even with the gate
// closed, so it can be inspected or run by hand; nothing is written.
func Prepare(req Request, opts *Options) (*Plan, error) {
	o := opts.withDefaults()
	var probs problem.List
	for _, f := range []struct{ name, v string }{{"workflow", o.Workflow}, {"id", o.ID}} {
		if !simpleName(f.v) || strings.Contains(f.v, "..") {
			probs.Add(f.name, "%q is not a simple name (letters, digits, '.', '_', '-'; no '..'; at most 100)", f.v)
		}
	}
	if strings.TrimSpace(req.Topic) == "" {
		probs.Add("topic", "empty (name what the section is about)")
	}
	if strings.TrimSpace(req.Section) == "" {
		probs.Add("section", "empty (give the section text to analyze)")
	}
	if err := probs.Err(); err != nil {
		return nil, err
	}
	m := req.Method
	s := o.Settings
	p := &Plan{Method: m.Name, Slug: m.Slug(), Role: m.CodexRole, Model: s.Model, Reasoning: s.Reasoning,
		TimeoutSeconds: s.Elicitation.Timeout, Via: o.Via}
	p.Gate = gate(m, s, o)
	if m.CodexRole == "" {
		return p, nil
	}
	p.Workflow, p.ID, p.project = o.Workflow, o.ID, o.Project
	p.OutputFile = p.files()
	return p, p.build(req, o.Rand)
}

// files sets the plan's prompt file, in tmp/{workflow}/{id}/elicitation of
// its project, and returns its output file there.
func (p *Plan) files() string {
	dir := filepath.Join(p.project, "tmp", p.Workflow, p.ID, "elicitation")
	p.PromptFile = filepath.Join(dir, "codex-prompt-"+p.Slug+".txt")
	return filepath.Join(dir, "codex-"+p.Slug+".md")
}

func (p *Plan) build(req Request, rnd io.Reader) error {
	topic, section := prepTopic(req.Topic), prepSection(req.Section)
	if utf8.RuneCountInString(topic) > MaxTopic {
		p.Truncated = append(p.Truncated, "topic")
	}
	if utf8.RuneCountInString(section) > MaxSection {
		p.Truncated = append(p.Truncated, "section")
	}
	topic, section = cut(topic, MaxTopic), cut(section, MaxSection)
	nonce, err := NewNonce(rnd, topic, section)
	if err != nil {
		return err
	}
	p.Nonce = nonce
	p.Prompt, err = Build(p.Role, topic, section, nonce)
	return err
}

// gate applies the seed's gate in order; the first closed condition wins.
func gate(m method.Method, s *config.Codex, o Options) Gate {
	switch {
	case m.CodexRole == "":
		return Gate{Reason: fmt.Sprintf("method %q has no codex_role: single-model only", m.Name)}
	case s.Disabled:
		return Gate{Reason: "codex.disabled is true in elicit.config.json"}
	case !s.Elicitation.Enabled:
		return Gate{Reason: "codex.elicitation.enabled is false in elicit.config.json"}
	case !listed(m, s.Elicitation.Methods):
		return Gate{Reason: fmt.Sprintf("method %q is not in codex.elicitation.methods", m.Name)}
	case !o.Available && o.Unavailable != "":
		return Gate{Reason: o.Unavailable + ": single-model only"}
	case !o.Available:
		return Gate{Reason: "the consultant is not available (codex not found on PATH): single-model only"}
	case !exists(filepath.Join(o.Project, ".codexignore")):
		return Gate{Reason: NoteNoIgnore}
	}
	return Gate{Open: true}
}

func listed(m method.Method, names []string) bool {
	if len(names) == 0 {
		return true
	}
	for _, n := range names {
		if strings.EqualFold(n, m.Name) || n == m.Slug() {
			return true
		}
	}
	return false
}

func exists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// Result is the outcome of a cross-model run.
type Result struct {
	// Status is ok, skipped (gate closed), empty (no answer) or failed.
	Status string `json:"status"`
	Plan   *Plan  `json:"plan"`
	// Output is the consultant's answer (ok only).
	Output string `json:"output,omitempty"`
	// Notes are the seed's edge-case notes for the single-model fallback.
	Notes []string       `json:"notes,omitempty"`
	Usage *consult.Usage `json:"usage,omitempty"`
	// DurationMS is how long the consultant ran.
	DurationMS int64 `json:"duration_ms,omitempty"`
	// Failure describes a failed run.
	Failure *Failure `json:"failure,omitempty"`
}

// Failure is a failed consultant call, classified.
type Failure struct {
	Kind       string `json:"kind"`
	Message    string `json:"message"`
	StderrTail string `json:"stderr_tail,omitempty"`
}

// Run executes a prepared plan with the consultant: the prompt file is
// written, the consultant runs, the answer (or the unavailable note) is
// written to the output file, and the prompt file is removed. A closed
// gate skips the run and writes nothing.
func Run(ctx context.Context, p *Plan, c consult.Consultant) (*Result, error) {
	res := &Result{Plan: p}
	if !p.Gate.Open {
		res.Status, res.Notes = "skipped", []string{p.Gate.Reason, NoteUnavailable}
		return res, nil
	}
	if err := p.writeFile(p.PromptFile, p.Prompt); err != nil {
		return nil, err
	}
	defer p.remove(p.PromptFile)
	ctx, cancel := context.WithTimeout(ctx, time.Duration(p.TimeoutSeconds*float64(time.Second)))
	defer cancel()
	rep, err := c.Start(ctx, consult.Request{Prompt: p.Prompt, Effort: p.Reasoning})
	res.record(rep, err, ctx.Err() == context.DeadlineExceeded)
	out := res.Output
	if res.Status != "ok" {
		out = NoteUnavailable + "\n"
	}
	if werr := p.writeFile(p.OutputFile, out); werr != nil {
		return nil, werr
	}
	return res, nil
}

func (res *Result) record(rep *consult.Reply, err error, timedOut bool) {
	var ce *consult.Error
	switch {
	case errors.As(err, &ce):
		res.Status, res.Notes = "failed", []string{NoteUnavailable}
		res.Failure = &Failure{Kind: string(ce.Kind), Message: ce.Message, StderrTail: ce.StderrTail}
		if ce.Kind == consult.KindCanceled && timedOut {
			res.Failure.Kind, res.Failure.Message = string(consult.KindTimeout), fmt.Sprintf("no answer within %g seconds (codex.elicitation.timeout)", res.Plan.TimeoutSeconds)
		}
	case err != nil:
		res.Status, res.Notes = "failed", []string{NoteUnavailable}
		res.Failure = &Failure{Kind: string(consult.KindExit), Message: err.Error()}
	case strings.TrimSpace(rep.Text) == "":
		res.Status, res.Notes = "empty", []string{NoteUnavailable}
	default:
		res.Status, res.Output = "ok", rep.Text
	}
	if rep != nil {
		res.Usage, res.DurationMS = &rep.Usage, rep.Duration.Milliseconds()
	}
}

// writeFile writes data atomically (temp file, rename) at path, creating
// its folders, all inside the project: the file system access goes
// through an os.Root of the project, so a symbolic link that leads outside
// it (a tmp link to /etc, say) is an error, never followed; a symlink at
// path itself is replaced.
func (p *Plan) writeFile(path, data string) error {
	root, rel, err := p.inProject(path)
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
		return p.outside(path, err)
	}
	tmp := filepath.Join(filepath.Dir(rel), fmt.Sprintf(".tmp-%d-%d", os.Getpid(), time.Now().UnixNano()))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return p.outside(path, err)
	}
	defer root.Remove(tmp)
	if _, err := f.WriteString(data); err != nil {
		f.Close()
		return fmt.Errorf("cross-model: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("cross-model: write %s: %w", path, err)
	}
	if err := root.Rename(tmp, rel); err != nil {
		return p.outside(path, err)
	}
	return nil
}

// remove removes a file of the plan inside the project.
func (p *Plan) remove(path string) {
	if root, rel, err := p.inProject(path); err == nil {
		root.Remove(rel)
		root.Close()
	}
}

// inProject opens the project as an os.Root and gives path relative to it.
func (p *Plan) inProject(path string) (*os.Root, string, error) {
	project := orDot(p.project)
	rel, err := filepath.Rel(project, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, "", fmt.Errorf("cross-model: %s is outside the project %s", path, project)
	}
	root, err := os.OpenRoot(project)
	if err != nil {
		return nil, "", fmt.Errorf("cross-model: %w", err)
	}
	return root, rel, nil
}

// outside explains an error of the project's os.Root: a folder on the
// way that is a symbolic link leading outside the project, or another
// failure.
func (p *Plan) outside(path string, err error) error {
	project := orDot(p.project)
	if link := p.linkOut(path); link != "" {
		return fmt.Errorf("cross-model: %s would be written outside the project %s through the symbolic link %s; cross-model files stay inside the project (remove the link, or make it point inside)", path, project, link)
	}
	return fmt.Errorf("cross-model: write %s: %w", path, err)
}

// linkOut is the first symbolic link on the way from the project to path
// that leads outside the project, or "".
func (p *Plan) linkOut(path string) string {
	project, err := filepath.EvalSymlinks(orDot(p.project))
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(orDot(p.project), path)
	if err != nil {
		return ""
	}
	at := orDot(p.project)
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		at = filepath.Join(at, part)
		fi, err := os.Lstat(at)
		if err != nil {
			return ""
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			continue
		}
		to, err := filepath.EvalSymlinks(at)
		if r, rerr := filepath.Rel(project, to); err != nil || rerr != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return at
		}
	}
	return ""
}

func orDot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}

// WritePrompt writes the plan's prompt file, for a run by hand.
func WritePrompt(p *Plan) error {
	if p.Prompt == "" {
		return fmt.Errorf("cross-model: method %q has no codex_role, so no prompt", p.Method)
	}
	return p.writeFile(p.PromptFile, p.Prompt)
}

// Route routes role to the member of council c that takes it, one
// consultant per role (deliberation.Council.ForRole): o.Via names it, and
// o.Settings becomes a copy with the member's model and effort over the
// settings'. With no member to take it, Route returns nil and
// o.Unavailable says why: the gate closes (single-model).
func (o *Options) Route(c *deliberation.Council, role string) *deliberation.Member {
	m, err := c.ForRole(role)
	if err != nil {
		o.Unavailable = err.Error()
		return nil
	}
	s := config.DefaultCodex()
	if o.Settings != nil {
		s = *o.Settings
	}
	if m.Model != "" {
		s.Model = m.Model
	}
	if m.Effort != "" {
		s.Reasoning = m.Effort
	}
	o.Settings = &s
	o.Via = &Via{Council: c.ID, Member: m.Name, Stance: m.Stance, Consultant: m.Consultant}
	return m
}

// Reach records whether the consultant can run, program being the one it
// runs; a council member's that cannot is named in the gate's reason.
func (o *Options) Reach(available bool, program string) {
	switch {
	case o.Unavailable != "":
	case !available && o.Via != nil:
		o.Unavailable = fmt.Sprintf("member %s's consultant %s is not available (%s not found)", o.Via.Member, o.Via.Consultant, program)
	default:
		o.Available = available
	}
}
