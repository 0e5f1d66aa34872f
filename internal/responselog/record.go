package responselog

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/elicit/elicit/form"
)

// The kinds of record.
const (
	// KindRender is a form rendered for a surface.
	KindRender = "render"
	// KindSurface is a routing decision: the surface the router chose.
	KindSurface = "surface"
	// KindResponse is a collected, valid response: a submission.
	KindResponse = "response"
	// KindRejected is a collect that found problems in the answers.
	KindRejected = "rejected"
	// KindSynthesis is a deliberation's synthesis: a decision the
	// deliberation concluded (see Synthesis).
	KindSynthesis = "synthesis"
)

// Record is one entry of the log.
type Record struct {
	// ID is random; it makes ingesting a record twice harmless.
	ID   string    `json:"id"`
	Time time.Time `json:"ts"`
	Kind string    `json:"kind"`
	// TemplateID is "template:<name>" for a form cast from a template and
	// "dict" for a hand-built one; Shape tells hand-built forms apart.
	TemplateID string `json:"template_id"`
	Shape      string `json:"shape"`
	// FormID is the form's own id (its form_id), when it has one.
	FormID string `json:"form_id,omitempty"`
	Title  string `json:"title,omitempty"`
	// Host is who asked: the MCP client's name, or for the CLI the agent
	// found in the environment ("claude-code", "codex", ...) or "cli".
	Host        string `json:"host"`
	HostVersion string `json:"host_version,omitempty"`
	// Via is the door: "cli" or "mcp".
	Via     string `json:"via"`
	Surface string `json:"surface,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Fields counts the form's fields; Inferred those with a guessed
	// default; Kept (responses) the guesses answered unchanged.
	Fields     int             `json:"fields"`
	Inferred   int             `json:"inferred,omitempty"`
	Kept       int             `json:"kept,omitempty"`
	ResponseID string          `json:"response_id,omitempty"`
	Responses  json.RawMessage `json:"responses,omitempty"`
	Problems   int             `json:"problems,omitempty"`
	// Form is the canonical definition of a hand-built form, so that a
	// recurring one can be saved as a template.
	Form json.RawMessage `json:"form,omitempty"`
	// Project is the project folder the call was made in (absolute), and
	// User who made it (ELICIT_USER, else the system's user name).
	Project string `json:"project,omitempty"`
	User    string `json:"user,omitempty"`
	// Questions, for a response to a form cast from a template, are the
	// question texts by field id, in the form's order: the decision ledger
	// searches them (a hand-built form's are in Form).
	Questions []Question `json:"questions,omitempty"`
	// Synthesis is a synthesis record's conclusion.
	Synthesis *Synthesis `json:"synthesis,omitempty"`
}

// Question is one field's question as a response record keeps it.
type Question struct {
	Field string `json:"field"`
	Text  string `json:"text"`
}

// Synthesis is what a deliberation concluded, as the decision ledger
// keeps it.
type Synthesis struct {
	// Deliberation is the deliberation's id.
	Deliberation string `json:"deliberation"`
	// Question is what was deliberated; Answer the top-line answer.
	Question string `json:"question"`
	Answer   string `json:"answer"`
	// Agreed, Dismissed and Unresolved are the points' texts.
	Agreed     []string `json:"agreed,omitempty"`
	Dismissed  []string `json:"dismissed,omitempty"`
	Unresolved []string `json:"unresolved,omitempty"`
}

// Event is what a caller knows about one event; New fills in the rest
// from the form.
type Event struct {
	Kind     string
	Template string // the template's name, "" for a hand-built form
	Surface  string
	Reason   string
	Response *form.Response
	Problems int
	// Definition is the JSON the form was parsed from, kept for a
	// hand-built form (compacted) instead of encoding the form again.
	Definition []byte
}

// Who is the host and the door of a call, and the person and project it
// was made for.
type Who struct {
	Host, HostVersion, Via string
	// Project is the project folder (absolute); User the person's name.
	Project, User string
}

// TemplateID is the template id of a form cast from template name, or of a
// hand-built form when name is "".
func TemplateID(name string) string {
	if name == "" {
		return "dict"
	}
	return "template:" + name
}

// New builds the record of an event about form f.
func New(f *form.Form, e Event, who Who) Record {
	r := Record{Kind: e.Kind, TemplateID: TemplateID(e.Template), Shape: Shape(f), FormID: f.FormID, Title: f.Title,
		Host: who.Host, HostVersion: who.HostVersion, Via: who.Via, Surface: e.Surface, Reason: e.Reason,
		Fields: len(f.Fields), Problems: e.Problems, Project: who.Project, User: who.User}
	for i := range f.Fields {
		if f.Fields[i].Inferred() {
			r.Inferred++
		}
	}
	if e.Template == "" {
		r.Form = definition(f, e.Definition)
	}
	if resp := e.Response; resp != nil {
		r.ResponseID = resp.ResponseID
		r.Responses, _ = encodeJSON(resp.Responses) // <, > and & as themselves: answers are often code
		r.Kept = keptGuesses(f, resp)
		if r.Form == nil { // a hand-built form's definition has its questions
			r.Questions = make([]Question, len(f.Fields))
			for i := range f.Fields {
				r.Questions[i] = Question{Field: f.Fields[i].ID, Text: f.Fields[i].Text}
			}
		}
	}
	return r
}

// NewSynthesis builds the record of a deliberation's synthesis.
func NewSynthesis(y Synthesis, who Who) Record {
	return Record{Kind: KindSynthesis, TemplateID: "deliberation", Shape: "", Title: y.Question,
		Host: who.Host, HostVersion: who.HostVersion, Via: who.Via, Project: who.Project, User: who.User, Synthesis: &y}
}

// definition is the form's JSON: def compacted, or the form encoded when
// there is none.
func definition(f *form.Form, def []byte) json.RawMessage {
	if len(def) == 0 {
		data, _ := json.Marshal(f)
		return data
	}
	var buf bytes.Buffer
	if json.Compact(&buf, def) == nil {
		return buf.Bytes()
	}
	data, _ := json.Marshal(f)
	return data
}

// keptGuesses counts the inferred fields whose answer is their guess.
func keptGuesses(f *form.Form, resp *form.Response) int {
	n := 0
	for i := range f.Fields {
		fl := &f.Fields[i]
		if !fl.Inferred() {
			continue
		}
		got, _ := json.Marshal(resp.Responses[fl.ID])
		guess, _ := json.Marshal(fl.Default)
		if bytes.Equal(got, guess) {
			n++
		}
	}
	return n
}

// Shape is a short hash of the form's shape: its fields' ids, types,
// options, dispositions, row keys and top_n, in order. Titles and question
// texts are left out, so a reworded form keeps its shape. It is hashed
// from a fixed byte layout of the values, which must not change: logs
// written by every version of elicit group records by it.
func Shape(f *form.Form) string {
	h := sha256.New()
	var b []byte
	list := func(tag byte, items []string) {
		b = append(b, tag)
		for _, s := range items {
			b = strconv.AppendQuote(b, s)
		}
	}
	for i := range f.Fields {
		fl := &f.Fields[i]
		b = append(b[:0], 'F')
		b = strconv.AppendQuote(b, fl.ID)
		b = strconv.AppendQuote(b, string(fl.Type))
		list('o', fl.Options)
		list('d', fl.Dispositions)
		b = append(b, 'r')
		for _, it := range fl.Items() {
			b = strconv.AppendQuote(b, it.Key())
		}
		b = strconv.AppendInt(append(b, 'n'), int64(fl.TopN), 10)
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

// newID is 16 random hex digits. It tells records apart, it is no secret:
// math/rand/v2's generator, seeded by the runtime at start, gives it
// without crypto/rand's first-use cost (a mapping for the vDSO's state and
// a getrandom call) in every CLI call that logs.
func newID() string {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], rand.Uint64())
	return hex.EncodeToString(b[:])
}
