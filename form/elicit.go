package form

import (
	"fmt"
	"strings"
)

// ElicitRender is a form mapped to an MCP elicitation request (spec
// 2025-11-25: a flat object of primitive properties).
type ElicitRender struct {
	// Schema is the requestedSchema.
	Schema map[string]any `json:"requested_schema"`
	// Unsupported lists the fields native elicitation cannot ask.
	Unsupported []Unsupported `json:"unsupported"`
}

// RenderElicit maps a form to a spec-valid requestedSchema: single choices
// as titled oneOf strings, multi-selects as arrays of enum strings, booleans,
// numbers with bounds, dates as format date, text with maxLength, defaults
// as the spec allows. Display-only progress reports cannot be asked.
func RenderElicit(f *Form) *ElicitRender {
	props := map[string]any{}
	var required []string
	r := &ElicitRender{Unsupported: []Unsupported{}}
	for i := range f.Fields {
		fl := &f.Fields[i]
		if fl.DisplayOnly() {
			r.Unsupported = append(r.Unsupported, Unsupported{QuestionID: fl.ID, Type: fl.Type,
				Reason: "a display-only progress report has nothing to ask: narrate it, or show it on the widget", Surface: "widget"})
			continue
		}
		props[fl.ID] = elicitProperty(fl)
		if fl.Required {
			required = append(required, fl.ID)
		}
	}
	r.Schema = map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		r.Schema["required"] = required
	}
	return r
}

func elicitProperty(f *Field) map[string]any {
	p := map[string]any{"title": f.Text}
	if d := elicitDescription(f); d != "" {
		p["description"] = d
	}
	switch {
	case f.Type.singleChoice():
		one := make([]any, 0, len(f.Options))
		for _, o := range orderedOptions(f) {
			one = append(one, map[string]any{"const": o, "title": choiceTitle(f, o)})
		}
		p["type"], p["oneOf"] = "string", one
	case f.Type == MultiSelect:
		p["type"] = "array"
		p["items"] = map[string]any{"type": "string", "enum": f.Options}
		if f.Required {
			p["minItems"] = 1
		}
	case f.Type == Boolean:
		p["type"] = "boolean"
	case f.Type == Number:
		p["type"] = "number"
		setBound(p, "minimum", f.Minimum)
		setBound(p, "maximum", f.Maximum)
	case f.Type == Date:
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

func elicitDefault(f *Field) any {
	if f.Type == Boolean {
		return f.Default == "Yes"
	}
	return f.Default
}

// choiceTitle labels a choice as AskUserQuestion would.
func choiceTitle(f *Field, o string) string {
	t := o
	if o == recommendation(f) {
		t += suffixRecommended
	}
	if o == f.UserPosition {
		t += suffixUserPosition
	}
	if note := optionDescription(f, o); note != "" {
		t += " — " + note
	}
	return t
}

// elicitDescription carries what the dialog has no other place for: help,
// the construct's rationale or report, suggestions, and a guess's basis.
func elicitDescription(f *Field) string {
	var parts []string
	switch f.Type {
	case Decision:
		parts = append(parts, f.Rationale)
	case Pushback:
		if f.Rationale != "" {
			parts = append(parts, "I'd push back: "+f.Rationale)
		}
	case Progress:
		parts = append(parts, strings.TrimPrefix(progressText(f), f.Text+" — "))
	case TextInput:
		if len(f.Options) > 0 {
			parts = append(parts, "Suggestions: "+strings.Join(f.Options, "; ")+".")
		}
	}
	parts = append(parts, f.HelpText)
	if f.Inferred() {
		parts = append(parts, fmt.Sprintf("Guessed: %s (%s).", formatValue(f.Default), f.InferredFrom))
	}
	return joinNonEmpty(" ", parts...)
}

// FromElicitation turns an accepted elicitation's content into answers keyed
// by field id: booleans become "Yes"/"No"; everything else passes through for
// Collect to validate (a client is never trusted).
func FromElicitation(f *Form, content map[string]any) map[string]any {
	out := make(map[string]any, len(content))
	for k, v := range content {
		if fl := f.Field(k); fl != nil && fl.Type == Boolean {
			if b, ok := v.(bool); ok {
				v = map[bool]string{true: "Yes", false: "No"}[b]
			}
		}
		out[k] = v
	}
	return out
}
