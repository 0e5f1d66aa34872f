package native

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/elicit/elicit/form"
)

// Result is a form mapped to an MCP elicitation request (spec
// 2025-11-25: a flat object of primitive properties).
type Result struct {
	// Schema is the requestedSchema.
	Schema Schema `json:"requested_schema"`
	// Unsupported lists the fields native elicitation cannot ask.
	Unsupported []form.Unsupported `json:"unsupported"`
	// Problems, for a form that breaks a definition rule (see
	// form.Validate), name every problem; the schema is then empty.
	Problems []string `json:"problems,omitempty"`
}

// maxRankChoices bounds a ranking asked as a dialog: one choice of every
// option per rank makes ranks × options choices, which for a long ranking
// would grow with the square of the form.
const maxRankChoices = 10000

// Schema is a requestedSchema, {"type": "object", "properties": {...},
// "required": [...]}, whose properties keep the form's order when encoded:
// dialogs show them in the order they arrive, and a Go map would encode
// them sorted by id.
type Schema struct {
	Properties []Property
	Required   []string
}

// Property is one named property of a requestedSchema.
type Property struct {
	Name   string
	Schema map[string]any
}

// MarshalJSON writes the schema with its properties in order.
func (s Schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	for i, p := range s.Properties {
		if i > 0 {
			b.WriteByte(',')
		}
		name, err := json.Marshal(p.Name)
		if err != nil {
			return nil, err
		}
		prop, err := json.Marshal(p.Schema)
		if err != nil {
			return nil, err
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(prop)
	}
	b.WriteByte('}')
	if len(s.Required) > 0 {
		req, err := json.Marshal(s.Required)
		if err != nil {
			return nil, err
		}
		b.WriteString(`,"required":`)
		b.Write(req)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Render maps a form to a spec-valid requestedSchema, its properties in the
// form's order: single choices as titled oneOf strings, multi-selects as
// arrays of enum strings, booleans, numbers with bounds, dates as format
// date, text with maxLength, defaults as the spec allows. Display-only
// progress reports cannot be asked. A form that breaks a definition rule is
// not rendered: Problems names every problem.
func Render(f *form.Form) *Result {
	r := &Result{Unsupported: []form.Unsupported{}}
	if err := f.Check(); err != nil {
		r.Problems = form.ProblemStrings(err)
		return r
	}
	s := &r.Schema
	for i := range f.Fields {
		fl := &f.Fields[i]
		if fl.DisplayOnly() {
			r.Unsupported = append(r.Unsupported, form.UnsupportedHere(fl,
				"a display-only progress report has nothing to ask: narrate it (the markdown surface shows it)", form.SurfaceMarkdown))
			continue
		}
		if fl.Type == form.Ranking && fl.RankSlots()*len(fl.Options) > maxRankChoices {
			r.Unsupported = append(r.Unsupported, form.UnsupportedHere(fl,
				fmt.Sprintf("%d ranks of %d options each is more than a dialog can show (at most %d choices in all): rank it on the widget", fl.RankSlots(), len(fl.Options), maxRankChoices), form.SurfaceWidget))
			continue
		}
		if fl.Type.Expands() {
			for _, e := range expandProperties(fl) {
				s.Properties = append(s.Properties, Property{e.name, e.prop})
				if e.required {
					s.Required = append(s.Required, e.name)
				}
			}
			continue
		}
		s.Properties = append(s.Properties, Property{fl.ID, elicitProperty(fl)})
		if fl.Required {
			s.Required = append(s.Required, fl.ID)
		}
	}
	return r
}

func elicitProperty(f *form.Field) map[string]any {
	p := map[string]any{"title": f.Text}
	if d := elicitDescription(f); d != "" {
		p["description"] = d
	}
	switch {
	case f.Type.SingleChoice():
		one := make([]any, 0, len(f.Options))
		notes := f.Notes()
		for _, o := range f.Choices() {
			one = append(one, map[string]any{"const": o, "title": choiceTitle(f, o, notes(o))})
		}
		p["type"], p["oneOf"] = "string", one
	case f.Type == form.MultiSelect:
		p["type"] = "array"
		p["items"] = map[string]any{"type": "string", "enum": f.Options}
		if f.Required {
			p["minItems"] = 1
		}
	case f.Type == form.Boolean:
		p["type"] = "boolean"
	case f.Type == form.Number:
		p["type"] = "number"
		setBound(p, "minimum", f.Minimum)
		setBound(p, "maximum", f.Maximum)
	case f.Type == form.Date:
		p["type"], p["format"] = "string", "date"
	default:
		p["type"] = "string"
		if f.MaxLength > 0 {
			p["maxLength"] = f.MaxLength
		}
	}
	if f.Default != nil {
		p["default"] = elicitDefault(f)
	}
	return p
}

func setBound(p map[string]any, key string, v *float64) {
	if v != nil {
		p[key] = *v
	}
}

func elicitDefault(f *form.Field) any {
	if f.Type == form.Boolean {
		return f.Default == "Yes"
	}
	return f.Default
}

// choiceTitle labels a choice as the chat tools do (form.Field.ChatLabel),
// with its note.
func choiceTitle(f *form.Field, o, note string) string {
	t := f.ChatLabel(o, form.RecommendedSuffix)
	if note != "" {
		t += " — " + note
	}
	return t
}

// elicitDescription carries what the dialog has no other place for: help,
// the construct's rationale or report, suggestions, and a guess's basis.
func elicitDescription(f *form.Field) string {
	var parts []string
	switch f.Type {
	case form.Decision:
		parts = append(parts, f.Rationale)
	case form.Pushback:
		if f.Rationale != "" {
			parts = append(parts, "I'd push back: "+f.Rationale)
		}
	case form.Progress:
		parts = append(parts, progressDescription(f))
	case form.Deliberation:
		if f.Rationale != "" {
			parts = append(parts, "Synthesis: "+f.Rationale)
		}
	case form.Confirm:
		parts = append(parts, f.ConsequenceReport(), f.Rationale)
	case form.TextInput:
		if len(f.Options) > 0 {
			parts = append(parts, "Suggestions: "+strings.Join(f.Options, "; ")+".")
		}
		parts = append(parts, f.PathHint())
	}
	parts = append(parts, f.HelpText)
	if f.Inferred() {
		parts = append(parts, fmt.Sprintf("Guessed: %s (%s).", form.FormatValue(f.Default), f.InferredFrom))
	}
	return joinNonEmpty(" ", parts...)
}

// Answers turns an accepted elicitation's content into answers keyed
// by field id: booleans become "Yes"/"No"; everything else passes through for
// Collect to validate (a client is never trusted).
func Answers(f *form.Form, content map[string]any) map[string]any {
	out := make(map[string]any, len(content))
	byID := f.ByID()
	for k, v := range content {
		if fl := byID[k]; fl != nil && fl.Type == form.Boolean {
			if b, ok := v.(bool); ok {
				v = map[bool]string{true: "Yes", false: "No"}[b]
			}
		}
		out[k] = v
	}
	return out
}

// progressDescription is the progress report as the dialog shows it, with
// the construct's rationale and, for a task report whose text is not a
// question, what is being asked.
func progressDescription(f *form.Field) string {
	d := joinNonEmpty(" ", f.ProgressReport(), f.Rationale)
	if f.ProgressStyle != "report" && !strings.HasSuffix(strings.TrimSpace(f.Text), "?") {
		d += " Which blocked item should we tackle next?"
	}
	return d
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
