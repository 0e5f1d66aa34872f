package form

import (
	"fmt"
	"strings"
)

// The limits of Claude Code's AskUserQuestion tool.
const (
	AskMaxQuestions = 4
	AskMinOptions   = 2
	AskMaxOptions   = 4
	AskMaxHeader    = 12
	// TwoTierMax is the most options the two-tier picker can offer: 4
	// groups of 4.
	TwoTierMax = AskMaxOptions * AskMaxOptions
	// BatchSource marks a deliberate multi-question batch.
	BatchSource = "elicit-form"
)

// AskRender is a form rendered for AskUserQuestion.
type AskRender struct {
	Success     bool   `json:"success"`
	Title       string `json:"title"`
	Description string `json:"description"`
	// Batches are the seed's per-field payloads, at most 4 per batch.
	Batches [][]Payload `json:"batches"`
	// AskUserQuestion holds one ready-to-send tool input per batch.
	AskUserQuestion []AskInput `json:"ask_user_question"`
	// Followups are the second tier of two-tier pickers, to send after the
	// first tier's answer.
	Followups []Followup `json:"followups,omitempty"`
	// Unsupported lists the fields AskUserQuestion cannot ask, with why and
	// which surface can.
	Unsupported []Unsupported `json:"unsupported"`
}

// Payload is the seed's per-question payload.
type Payload struct {
	QuestionID string   `json:"question_id"`
	Question   string   `json:"question"`
	Type       string   `json:"type"`
	Options    []string `json:"options"`
	Default    any      `json:"default,omitempty"`
	HelpText   string   `json:"help_text,omitempty"`
}

// AskInput is one AskUserQuestion tool input.
type AskInput struct {
	Questions []AskQuestion `json:"questions"`
	Metadata  *AskMetadata  `json:"metadata,omitempty"`
}

// AskQuestion is one question of an AskUserQuestion call.
type AskQuestion struct {
	Question    string      `json:"question"`
	Header      string      `json:"header"`
	Options     []AskOption `json:"options"`
	MultiSelect bool        `json:"multiSelect"`
}

// AskOption is one option of an AskUserQuestion question.
type AskOption struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// AskMetadata is the tool input's metadata.
type AskMetadata struct {
	Source string `json:"source"`
}

// Followup is the second tier of a two-tier picker: after the first tier's
// answer names a group, ask that group's question (for a multi_select, the
// questions of every chosen group, in one call).
type Followup struct {
	QuestionID string          `json:"question_id"`
	After      string          `json:"after"`
	Groups     []FollowupGroup `json:"groups"`
}

// FollowupGroup is the question to ask when the first tier's answer is Label.
type FollowupGroup struct {
	Label    string      `json:"label"`
	Question AskQuestion `json:"question"`
}

// Unsupported is a field AskUserQuestion cannot ask.
type Unsupported struct {
	QuestionID string `json:"question_id"`
	Type       Type   `json:"type"`
	Reason     string `json:"reason"`
	Surface    string `json:"surface"`
}

// RenderAsk renders a form for AskUserQuestion. Fields the host cannot
// express are listed in Unsupported, never dropped.
func RenderAsk(f *Form) *AskRender {
	n := (len(f.Fields) + AskMaxQuestions - 1) / AskMaxQuestions
	r := &AskRender{Success: true, Title: f.Title, Description: f.Description,
		Batches: make([][]Payload, 0, n), AskUserQuestion: make([]AskInput, 0, n), Unsupported: []Unsupported{}}
	batch := make([]Payload, 0, min(len(f.Fields), AskMaxQuestions))
	questions := make([]AskQuestion, 0, cap(batch))
	plans := make([]askPlan, len(f.Fields))
	for i := range f.Fields {
		p := &plans[i]
		p.plan(&f.Fields[i])
		if p.unsupported != "" {
			r.Unsupported = append(r.Unsupported, Unsupported{QuestionID: p.field.ID, Type: p.field.Type, Reason: p.unsupported, Surface: "widget"})
			continue
		}
		batch = append(batch, payload(p))
		questions = append(questions, p.question)
		if len(p.groups) > 0 {
			r.Followups = append(r.Followups, p.followup())
		}
		if len(batch) == AskMaxQuestions {
			r.addBatch(batch, questions)
			batch, questions = make([]Payload, 0, AskMaxQuestions), make([]AskQuestion, 0, AskMaxQuestions)
		}
	}
	if len(batch) > 0 {
		r.addBatch(batch, questions)
	}
	return r
}

func (r *AskRender) addBatch(batch []Payload, questions []AskQuestion) {
	in := AskInput{Questions: questions}
	if len(questions) > 1 {
		in.Metadata = &AskMetadata{Source: BatchSource}
	}
	r.Batches = append(r.Batches, batch)
	r.AskUserQuestion = append(r.AskUserQuestion, in)
}

// payload builds the seed's payload for an askable field.
func payload(p *askPlan) Payload {
	f := p.field
	t := string(f.Type)
	if f.Type.singleChoice() {
		t = string(SingleSelect)
	}
	help := f.HelpText
	if f.Inferred() {
		help = joinNonEmpty(" ", help, fmt.Sprintf("Guessed: %s (%s).", formatValue(f.Default), f.InferredFrom))
	}
	return Payload{QuestionID: f.ID, Question: f.Text, Type: t, Options: p.options, Default: f.Default, HelpText: help}
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

// formatValue renders an answer value for people.
func formatValue(v any) string {
	switch x := v.(type) {
	case []string:
		return strings.Join(x, ", ")
	case float64:
		return fmtNum(x)
	case string:
		return x
	}
	return fmt.Sprint(v)
}
