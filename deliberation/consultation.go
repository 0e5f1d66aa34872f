package deliberation

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/elicit/elicit/problem"
)

// Consultation is a consultant call in flight: written when it starts,
// cleared when its answer or its failure is recorded. A state that still
// has one after the process that ran it is gone was interrupted (a kill, a
// restart); the next send recovers it in a fresh session.
type Consultation struct {
	// Consultant names the consultant ("codex", "command:claude -p").
	Consultant string `json:"consultant"`
	// Iteration and Action are the step whose prompt was sent.
	Iteration int    `json:"iteration"`
	Action    string `json:"action"`
	StartedAt string `json:"started_at"`
	// PID and ProcStart identify the process that runs the call
	// (ProcStart is its start time as the system reports it, so that a
	// reused PID is not taken for it).
	PID       int    `json:"pid"`
	ProcStart string `json:"proc_start,omitempty"`
	// Background: the call runs in the background (an MCP server, or
	// deliberate send --background).
	Background bool `json:"background,omitempty"`
	// Lease names the consultation in a shared database (Shared): it is
	// alive while the process running it renews the lease, wherever that
	// process runs.
	Lease string `json:"lease,omitempty"`

	// judged is whether the consultation was alive when its state was
	// read from a shared database (0: not judged; see Store.loadShared).
	judged int8
}

const (
	judgedAlive int8 = 1 + iota
	judgedGone
)

// AnswerInfo says where a consultant's answer came from.
type AnswerInfo struct {
	Consultant string `json:"consultant"`
	SessionID  string `json:"session_id,omitempty"`
	// Side: the answer came from a session of its own (a stress test or
	// an arbitration, asked without attribution); the deliberation's
	// session is kept.
	Side bool `json:"side,omitempty"`
	// Recovery says why a fresh session got the Recovery prompt.
	Recovery string `json:"recovery,omitempty"`
}

// beginConsultation notes that the pending prompt was sent to a consultant.
// It fails when no answer is awaited or a consultation is already noted
// (end it first).
func (s *State) beginConsultation(c Consultation, now time.Time) error {
	if err := s.expect(AwaitResponse); err != nil {
		return err
	}
	if o := s.Consultation; o != nil {
		return problem.List{{Path: "consultation", Message: fmt.Sprintf("%s has been consulted on iteration %d since %s (process %d)", o.Consultant, o.Iteration, o.StartedAt, o.PID)}}
	}
	c.Iteration, c.Action, c.StartedAt = s.Iteration, s.pending(), now.UTC().Format(time.RFC3339)
	s.Consultation = &c
	s.UpdatedAt = c.StartedAt
	return nil
}

// endConsultation clears the consultation in flight without an answer (it
// failed, was canceled or interrupted); the prompt still awaits one. With
// fresh, the consultant's session may hold a half-done turn, so the next
// answer must come from a fresh session.
func (s *State) endConsultation(now time.Time, fresh bool) {
	if s.Consultation == nil {
		return
	}
	s.Consultation = nil
	s.FreshSession = s.FreshSession || fresh
	s.UpdatedAt = now.UTC().Format(time.RFC3339)
}

// recordAnswer records a consultant's answer to the pending prompt, with
// the session it came from: the deliberation's session (and consultant)
// unless the answer came from a side session.
func (s *State) recordAnswer(text string, info AnswerInfo, now time.Time) error {
	if err := s.expect(AwaitResponse); err != nil {
		return err
	}
	inFlight, fresh := s.Consultation, s.FreshSession
	s.Consultation = nil
	if err := s.respond(text, now); err != nil {
		s.Consultation = inFlight
		return err
	}
	if info.Side {
		s.FreshSession = fresh
	} else {
		s.Consultant = info.Consultant
		if info.SessionID != "" {
			id := info.SessionID
			s.SessionID = &id
		}
	}
	if info.Recovery != "" {
		s.Warnings = append(s.Warnings, fmt.Sprintf("Recovered from session failure at iter %d (%s).", s.Iteration, info.Recovery))
	}
	return nil
}

// SideSession reports whether the pending step is asked of a session of
// its own: the stress test and arbitration, so the model that argued the
// points does not judge them.
func (s *State) SideSession() bool {
	if s.Next == nil || !s.Active() {
		return false
	}
	a := s.pending()
	return a == ActionStress || a == ActionArbitrate
}

// FirstCallPending reports whether the pending prompt is the First Call
// (or its retry), which opens a session with the preamble.
func (s *State) FirstCallPending() bool {
	return s.Next != nil && s.Active() && s.pending() == ActionAsk
}

// NotesNaming are hints for the orchestrator about what the deliberation
// lacks: a stored phase that disagrees with the iteration (until the next
// step logs it in the warnings) and a Solution Space Mapping that is missing,
// in full mode. inputs
// names the mapping's inputs in the caller's words (the CLI's flags, the
// MCP server's deliberation_start arguments).
func (s *State) NotesNaming(inputs string) []string {
	if s.quick() || !s.Active() {
		return nil
	}
	var notes []string
	if w := s.phaseMismatch(); w != "" && !slices.Contains(s.Warnings, w) {
		notes = append(notes, w) // once logged, the warnings show it
	}
	return append(notes, s.mappingNotes(inputs)...)
}

// mappingNotes name what the Solution Space Mapping lacks.
func (s *State) mappingNotes(inputs string) []string {
	var missing []string
	for _, f := range []struct{ name, v string }{{"shape", s.SSM.Shape}, {"tangents", s.SSM.Tangents}, {"drift_signals", s.SSM.DriftSignals}} {
		if strings.TrimSpace(f.v) == "" {
			missing = append(missing, f.name)
		}
	}
	why := " (" + inputs + ") so that a tangent or drift can be told from a valuable insight"
	switch len(missing) {
	case 0:
		return nil
	case 3:
		return []string{"no Solution Space Mapping: give shape, tangents and drift_signals" + why}
	}
	return []string{"Solution Space Mapping incomplete: no " + strings.Join(missing, ", ") + "; give them" + why}
}

// NewConsultation describes a consultation run by this process.
func NewConsultation(consultant string, background bool) Consultation {
	pid := os.Getpid()
	return Consultation{Consultant: consultant, PID: pid, ProcStart: procStart(pid), Background: background}
}

// Alive reports whether the process that runs the consultation still runs;
// when it does not, the consultation was interrupted.
func (c *Consultation) Alive() bool {
	if c != nil && c.judged != 0 {
		return c.judged == judgedAlive
	}
	if c != nil && c.Lease != "" {
		return leaseAlive(c.Lease)
	}
	return c != nil && processAlive(c.PID, c.ProcStart)
}

// Ours reports whether this process runs the consultation.
func (c *Consultation) Ours() bool {
	if c != nil && c.Lease != "" {
		return leaseOurs(c.Lease)
	}
	return c != nil && c.PID == os.Getpid() && c.ProcStart == procStart(c.PID)
}

// ConsultationView is a consultation as status shows it.
type ConsultationView struct {
	Consultation
	// Status is running, or interrupted when the process that ran it is
	// gone (the next send recovers it in a fresh session).
	Status         string `json:"status"`
	ElapsedSeconds int64  `json:"elapsed_seconds"`
	// Progress is known only to the process that runs the consultation.
	Progress *ConsultProgress `json:"progress,omitempty"`
}

// ConsultProgress is a running consultation's progress: the consultant's
// events so far, the last one, and how long ago anything happened.
type ConsultProgress struct {
	Events              int    `json:"events"`
	LastEvent           string `json:"last_event,omitempty"`
	LastActivitySeconds int64  `json:"last_activity_seconds"`
}

// StatusDocument is the state document as status shows it: with the notes
// on what the deliberation lacks and the consultation as it stands.
type StatusDocument struct {
	*State
	Notes        []string          `json:"notes,omitempty"`
	Consultation *ConsultationView `json:"consultation,omitempty"`
}

// StatusDocument describes s at time now, its notes naming the mapping's
// inputs as inputs does (see NotesNaming).
func (s *State) StatusDocument(now time.Time, inputs string) *StatusDocument {
	return &StatusDocument{State: s, Notes: s.NotesNaming(inputs), Consultation: s.Consultation.View(now)}
}

// The statuses of a consultation view.
const (
	ConsultRunning     = "running"
	ConsultInterrupted = "interrupted"
)

// View describes the consultation at time now, or returns nil when there is
// none.
func (c *Consultation) View(now time.Time) *ConsultationView {
	if c == nil {
		return nil
	}
	v := &ConsultationView{Consultation: *c, Status: ConsultRunning}
	if !c.Alive() {
		v.Status = ConsultInterrupted
	}
	if t, err := time.Parse(time.RFC3339, c.StartedAt); err == nil {
		v.ElapsedSeconds = int64(now.Sub(t) / time.Second)
	}
	return v
}
