package ask

import (
	"fmt"
	"strings"

	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/markdown"
)

// The limits of Claude Code's AskUserQuestion tool.
const (
	maxQuestions = 4
	minOptions   = 2
	maxOptions   = 4
	maxHeader    = 12
	// twoTierMax is the most options the two-tier picker can offer: 4
	// groups of 4.
	twoTierMax = maxOptions * maxOptions
	// batchSource marks a deliberate multi-question batch.
	batchSource = "elicit-form"
)

// Result is a form rendered for AskUserQuestion.
type Result struct {
	Success     bool   `json:"success"`
	Title       string `json:"title"`
	Description string `json:"description"`
	// Batches are the seed's per-field payloads, at most 4 per batch.
	Batches [][]Payload `json:"batches"`
	// AskUserQuestion holds one ready-to-send tool input per batch.
	AskUserQuestion []Input `json:"ask_user_question"`
	// Followups are the second tier of two-tier pickers, to send after the
	// first tier's answer.
	Followups []Followup `json:"followups,omitempty"`
	// Unsupported lists the fields AskUserQuestion cannot ask, with why and
	// which surface can.
	Unsupported []form.Unsupported `json:"unsupported"`
	// MarkdownFollowup asks those fields in one chat message; collect
	// takes its reply together with AskUserQuestion's output.
	MarkdownFollowup *markdown.Followup `json:"markdown_followup,omitempty"`
	// ChangeSome, for a form whose every question is a guess, is the whole
	// form's render: AskUserQuestion then holds one question that shows
	// every guess (Keep all, or Change some), and ChangeSome is what to ask
	// after "Change some".
	ChangeSome *Result `json:"change_some,omitempty"`
	// Problems, for a form that breaks a definition rule (see
	// form.Validate), name every problem; Success is then false and nothing
	// else is rendered.
	Problems []string `json:"problems,omitempty"`
}

// followupLead introduces the markdown follow-up of a chat tool's questions.
const followupLead = "A few more questions that need a typed answer: reply in one message."

// Payload is the seed's per-question payload.
type Payload struct {
	QuestionID string   `json:"question_id"`
	Question   string   `json:"question"`
	Type       string   `json:"type"`
	Options    []string `json:"options"`
	Default    any      `json:"default,omitempty"`
	HelpText   string   `json:"help_text,omitempty"`
}

// Input is one AskUserQuestion tool input.
type Input struct {
	Questions []Question `json:"questions"`
	Metadata  *Metadata  `json:"metadata,omitempty"`
}

// Question is one question of an AskUserQuestion call.
type Question struct {
	Question    string   `json:"question"`
	Header      string   `json:"header"`
	Options     []Option `json:"options"`
	MultiSelect bool     `json:"multiSelect"`
}

// Option is one option of an AskUserQuestion question.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// Metadata is the tool input's metadata.
type Metadata struct {
	Source string `json:"source"`
}

// Followup is the second tier of a two-tier picker: after the first tier's
// answer names a group, ask that group's question (for a multi_select, the
// questions of every chosen group, in one call). After is the first tier's
// question text.
type Followup = form.Followup[Question]

// followupGroup is the question to ask when the first tier's answer is Label.
type followupGroup = form.FollowupGroup[Question]

// Render renders a form for AskUserQuestion. Fields the host cannot express
// are listed in Unsupported, never dropped. A form whose every question is a
// guess is one question confirming them all, the whole form in ChangeSome
// (confirm.go). A form that breaks a definition rule is not rendered:
// Success is false and Problems names every problem.
func Render(f *form.Form) *Result {
	if err := f.Check(); err != nil {
		return &Result{Problems: form.ProblemStrings(err), Batches: [][]Payload{}, AskUserQuestion: []Input{}, Unsupported: []form.Unsupported{}}
	}
	r := render(f, askedFields(f))
	if c := confirmAll(f, r); c != nil {
		return c
	}
	return r
}

// RenderOnly renders the fields of f with the given ids (a re-ask) as
// Render renders them in the whole form: a question whose text an earlier
// field of f has keeps its "[id]", so its answer maps back to it.
func RenderOnly(f *form.Form, ids ...string) *Result {
	if err := f.Check(); err != nil {
		return &Result{Problems: form.ProblemStrings(err), Batches: [][]Payload{}, AskUserQuestion: []Input{}, Unsupported: []form.Unsupported{}}
	}
	sub := f.Only(ids...)
	only := sub.ByID()
	fields := make([]*form.Field, 0, len(sub.Fields))
	for _, fl := range askedFields(f) {
		if only[fl.ID] != nil {
			fields = append(fields, fl)
		}
	}
	return render(sub, fields)
}

// render renders f, whose fields are asked as fields says.
func render(f *form.Form, fields []*form.Field) *Result {
	n := (len(f.Fields) + maxQuestions - 1) / maxQuestions
	r := &Result{Success: true, Title: f.Title, Description: f.Description,
		Batches: make([][]Payload, 0, n), AskUserQuestion: make([]Input, 0, n), Unsupported: []form.Unsupported{}}
	batch := make([]Payload, 0, min(len(f.Fields), maxQuestions))
	questions := make([]Question, 0, cap(batch))
	plans := make([]plan, len(f.Fields))
	for i, fl := range fields {
		var ps []*plan
		if fl.Type.Expands() {
			var reason string
			if ps, reason = askPlans(fl); reason != "" {
				r.Unsupported = append(r.Unsupported, form.UnsupportedHere(fl, reason, markdown.FollowupSurface(fl)))
				continue
			}
		} else {
			plans[i].plan(fl)
			ps = []*plan{&plans[i]}
		}
		if p := ps[0]; p.Unsupported != "" {
			r.Unsupported = append(r.Unsupported, form.UnsupportedHere(fl, p.Unsupported, markdown.FollowupSurface(fl)))
			continue
		}
		for _, p := range ps {
			batch = append(batch, payload(p))
			questions = append(questions, p.Question)
			if len(p.Groups) > 0 {
				r.Followups = append(r.Followups, p.Followup(p.Question.Question))
			}
			if len(batch) == maxQuestions {
				r.addBatch(batch, questions)
				batch, questions = make([]Payload, 0, maxQuestions), make([]Question, 0, maxQuestions)
			}
		}
	}
	if len(batch) > 0 {
		r.addBatch(batch, questions)
	}
	r.MarkdownFollowup = markdown.NewFollowup(f, unsupportedIDs(r.Unsupported), followupLead)
	return r
}

func unsupportedIDs(us []form.Unsupported) []string {
	ids := make([]string, len(us))
	for i, u := range us {
		ids[i] = u.QuestionID
	}
	return ids
}

func (r *Result) addBatch(batch []Payload, questions []Question) {
	in := Input{Questions: questions}
	if len(questions) > 1 {
		in.Metadata = &Metadata{Source: batchSource}
	}
	r.Batches = append(r.Batches, batch)
	r.AskUserQuestion = append(r.AskUserQuestion, in)
}

// payload builds the seed's payload for an askable field.
func payload(p *plan) Payload {
	f := p.Field
	t := string(f.Type)
	if f.Type.SingleChoice() {
		t = string(form.SingleSelect)
	}
	help := f.HelpText
	if f.Inferred() {
		help = joinNonEmpty(" ", help, fmt.Sprintf("Guessed: %s (%s).", form.FormatValue(f.Default), f.InferredFrom))
	}
	return Payload{QuestionID: f.ID, Question: f.Text, Type: t, Options: p.Choice.Options, Default: f.Default, HelpText: help}
}

func joinNonEmpty(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
