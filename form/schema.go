package form

import (
	"encoding/json"
	"slices"
	"strings"
)

// Schema returns a JSON Schema (draft 2020-12) of the form format, for
// editors and for MCP tool inputs. It is built from the same key tables the
// parser uses, so the two cannot drift apart. The parser checks more than a
// schema can say (unique ids, recommended options that exist, defaults that
// pass their own validation, ...): every form Parse accepts, the schema
// accepts, not the other way round.
func Schema() []byte {
	data, err := json.MarshalIndent(schemaDoc(), "", "  ")
	if err != nil {
		panic(err) // the document is built from literals
	}
	return append(data, '\n')
}

type obj = map[string]any

func schemaDoc() obj {
	return obj{
		"$schema":              "https://json-schema.org/draft/2020-12/schema",
		"title":                "elicit form",
		"description":          "A declarative form: a title, an optional description and 1 or more fields.",
		"type":                 "object",
		"required":             []string{"title"},
		"oneOf":                []any{obj{"required": []string{"fields"}}, obj{"required": []string{fieldsAlias}}},
		"additionalProperties": false,
		"properties": obj{
			"title":       nonEmptyString("The form's title."),
			"description": obj{"type": []string{"string", "null"}, "description": "An optional one-line description."},
			"form_id":     obj{"type": []string{"string", "null"}, "pattern": formIDPattern, "description": "Your id for the form, carried into its responses and the response log."},
			"fields":      fieldList(),
			fieldsAlias:   fieldList(),
		},
		"$defs": obj{"field": fieldSchema(), "progress_item": progressItemSchema(),
			"triage_item": rowSchema(triageRow.keys), "assumption": rowSchema(assumptionRow.keys), "consequence": rowSchema(consequenceRow.keys)},
	}
}

// fieldList is the schema of "fields" and of its alias "questions".
func fieldList() obj {
	return obj{"type": "array", "minItems": 1, "items": obj{"$ref": "#/$defs/field"}}
}

func nonEmptyString(desc string) obj {
	return obj{"type": "string", "pattern": `\S`, "description": desc}
}

// fieldProperties describes every field key.
func fieldProperties() obj {
	option := obj{"type": "string", "pattern": `^\S([\s\S]*\S)?$`}
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = string(t)
	}
	return obj{
		"id":             obj{"type": "string", "pattern": idPattern, "description": "The key the answer comes back under."},
		"text":           nonEmptyString("The question."),
		textAlias:        nonEmptyString("An alias of text (attune-forms)."),
		"type":           obj{"enum": names},
		"options":        obj{"type": "array", "items": option, "uniqueItems": true, "description": "The choices (suggestions for text_input)."},
		"path_kind":      obj{"enum": PathKinds(), "description": "Makes a text_input a path field: its answer names a file, a directory or either."},
		"path_options":   obj{"type": "array", "items": option, "uniqueItems": true, "description": "A path field's suggested paths, relative to the project."},
		"required":       obj{"type": "boolean", "description": "Whether an answer is needed; default true."},
		"default":        obj{"type": []string{"string", "number", "array", "object"}, "items": obj{"type": "string"}, "additionalProperties": obj{"type": "string"}, "description": "A preselected answer; must pass the field's own answer validation."},
		"inferred_from":  nonEmptyString("Why the default was guessed from context; needs default."),
		"recall":         obj{"enum": []string{RecallLast}, "description": "last: the field's last answer in this project is offered as the default (when it has none and the answer still holds)."},
		"help_text":      obj{"type": "string"},
		"list_style":     obj{"enum": []string{"ordered", "unordered"}},
		"minimum":        obj{"type": "number"},
		"maximum":        obj{"type": "number"},
		"max_length":     obj{"type": "integer", "minimum": 1, "maximum": 2147483647, "description": "Counted in characters."},
		"recommended":    nonEmptyString("The option to badge and order first; one of options."),
		"rationale":      nonEmptyString("Why the recommendation (or the pushback, or the report summary)."),
		"option_notes":   obj{"type": "object", "additionalProperties": obj{"type": "string"}, "description": "One-line tradeoff per option."},
		"user_position":  nonEmptyString("The user's stated approach; one of options."),
		"progress_items": obj{"type": "array", "items": obj{"$ref": "#/$defs/progress_item"}},
		"progress_style": obj{"const": "report"},
		"endorsements": obj{"type": "object", "minProperties": 1, "description": "deliberation: {option: [names of the voices that endorse it]}.",
			"additionalProperties": obj{"type": "array", "minItems": 1, "uniqueItems": true, "items": nonEmptyString("A voice.")}},
		"triage_items": obj{"type": "array", "minItems": 1, "items": obj{"$ref": "#/$defs/triage_item"}},
		"dispositions": obj{"type": "array", "minItems": minDispositions, "items": option, "uniqueItems": true, "description": "triage: the rulings each row may get."},
		"suggested": obj{"type": []string{"object", "array"}, "additionalProperties": obj{"type": "string"}, "items": obj{"type": "string"},
			"description": "triage: {row key: disposition}; assumption_review: {row key: \"accept\"}; ranking: a proposed order."},
		"consequences": obj{"type": "array", "minItems": 1, "items": obj{"$ref": "#/$defs/consequence"}},
		"top_n":        obj{"type": "integer", "minimum": 1, "description": "ranking: how many options to rank (default all)."},
		"assumptions":  obj{"type": "array", "minItems": 1, "items": obj{"$ref": "#/$defs/assumption"}},
	}
}

// requiredKeys are the keys a type cannot do without, beyond id, text and
// type.
var requiredKeys = map[Type][]string{
	Progress:         {"progress_items"},
	Deliberation:     {"options", "endorsements"},
	Triage:           {"triage_items", "dispositions"},
	Confirm:          {"consequences"},
	Ranking:          {"options"},
	AssumptionReview: {"assumptions"},
}

func fieldSchema() obj {
	var rules []any
	for i := range fieldTypes {
		t, allowed := fieldTypes[i].typ, allowedKeys(&fieldTypes[i])
		// Keys of other types are refused, unless null (not given).
		props := obj{}
		for _, k := range keyset.fieldKeys {
			switch {
			case slices.Contains(allowed, k):
			case keyBit(k)&keyset.nullable != 0:
				props[k] = obj{"type": "null"}
			default:
				props[k] = false
			}
		}
		then := obj{"properties": props}
		if req := requiredKeys[t]; len(req) > 0 {
			then["required"] = req
		}
		switch {
		case t == Ranking:
			props["options"] = obj{"minItems": minRankOptions}
			props["suggested"] = obj{"type": []string{"array", "null"}}
		case t == Confirm:
			props["options"] = obj{"minItems": 2, "maxItems": 2}
		case t == Triage || t == AssumptionReview:
			props["suggested"] = obj{"type": []string{"object", "null"}}
		case slices.Contains(needsOptions, t):
			if !slices.Contains(requiredKeys[t], "options") {
				then["required"] = append([]string{"options"}, requiredKeys[t]...)
			}
			props["options"] = obj{"minItems": 1}
		}
		rules = append(rules, obj{
			"if":   obj{"required": []string{"type"}, "properties": obj{"type": obj{"const": string(t)}}},
			"then": then,
		})
	}
	props := fieldProperties()
	for k, p := range props {
		if keyBit(k)&keyset.nullable != 0 {
			props[k] = orNull(p.(obj))
		}
	}
	return obj{
		"type":                 "object",
		"required":             []string{"id", "type"},
		"oneOf":                []any{obj{"required": []string{"text"}}, obj{"required": []string{textAlias}}},
		"additionalProperties": false,
		"properties":           props,
		"dependentRequired":    obj{"inferred_from": []string{"default"}, "path_options": []string{"path_kind"}},
		"allOf":                rules,
	}
}

func progressItemSchema() obj {
	return obj{
		"type":                 "object",
		"required":             []string{"label", "status"},
		"additionalProperties": false,
		"properties": obj{
			"label":  nonEmptyString("The item."),
			"status": nonEmptyString("done, in_flight or blocked; any tag in report style."),
			"detail": obj{"type": "string"},
		},
	}
}

// orNull lets a property be null as well, which the parser reads as "not
// given".
func orNull(p obj) obj {
	out := obj{}
	for k, v := range p {
		out[k] = v
	}
	switch t := p["type"].(type) {
	case string:
		out["type"] = []string{t, "null"}
	case []string:
		out["type"] = append(slices.Clone(t), "null")
	default:
		delete(out, "enum")
		delete(out, "const")
		values := []any{}
		if e, ok := p["enum"].([]string); ok {
			for _, v := range e {
				values = append(values, v)
			}
		}
		if c, ok := p["const"]; ok {
			values = append(values, c)
		}
		out["enum"] = append(values, nil)
	}
	return out
}

// rowSchema is the schema of a row object with a label and optional string
// keys.
func rowSchema(keys []string) obj {
	props := obj{}
	for _, k := range keys {
		props[k] = obj{"type": "string"}
	}
	props["label"] = nonEmptyString("The row as the user reads it.")
	if slices.Contains(keys, "id") {
		props["id"] = nonEmptyString("The key its ruling comes back under (default: the label).")
	}
	return obj{"type": "object", "required": []string{"label"}, "additionalProperties": false, "properties": props}
}

// ToolSchema returns the form format as a compact JSON Schema, for the
// input of an MCP tool that takes a form: every key with its type, each
// construct's row objects, and in the description of "type" the keys each
// type adds (from the one table of field types, so it cannot drift; a key
// marked * is one the type needs). It has no $ref and no per-type rules,
// and it leaves unknown keys to Parse, which names every problem with a
// fix: every form Parse accepts, it accepts (the aliases questions and
// label among them), but for a null given for a key (Parse reads it as not
// given): it has no null unions, which some hosts do not take.
func ToolSchema() map[string]any {
	// A free-text key is a bare name: its value is a string, as a model
	// reads it and as codex takes a key without a type.
	// A nested object's properties show its type; a list says it is one
	// (a string where a list belongs is a mistake a host can catch).
	str := obj{}
	strs := obj{"type": "array", "items": str}
	rows := func(shape string) obj {
		return obj{"type": "array", "items": obj{"required": []string{"label"}}, "description": shape}
	}
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = string(t)
	}
	field := obj{
		"required": []string{"id", "type"},
		"properties": obj{
			"id":             str,
			"text":           str,
			"type":           obj{"enum": names, "description": typeKeys()},
			"required":       obj{"type": "boolean", "description": "Default true."},
			"default":        obj{"description": "Preselected valid answer."},
			"inferred_from":  obj{"description": "Why the default is a guess."},
			"recall":         obj{"enum": []string{RecallLast}},
			"help_text":      str,
			"options":        strs,
			"list_style":     obj{"enum": []string{"ordered", "unordered"}},
			"minimum":        obj{"type": "number"},
			"maximum":        obj{"type": "number"},
			"max_length":     obj{"type": "integer"},
			"path_kind":      obj{"enum": PathKinds()},
			"path_options":   obj{"type": "array", "items": str, "description": "Relative paths."},
			"recommended":    str,
			"rationale":      str,
			"option_notes":   obj{"additionalProperties": str, "description": "{option: tradeoff}"},
			"user_position":  str,
			"progress_items": rows("[{label, status: done|in_flight|blocked (report style: any), detail?}]"),
			"progress_style": obj{"enum": []string{"report"}},
			"endorsements":   obj{"additionalProperties": strs, "description": "{option: [voice]}"},
			"triage_items":   rows("[{label, id?, detail?, tag?}]"),
			"dispositions":   strs,
			"suggested":      obj{"type": []string{"object", "array"}, "description": "triage {row key: disposition}; assumption_review {row key: \"accept\"}; ranking [options, best first]"},
			"consequences":   rows("[{label, severity?, detail?}]"),
			"top_n":          obj{"type": "integer"},
			"assumptions":    rows("[{label, id?, detail?, source?}]"),
		},
	}
	return obj{
		"type":     "object",
		"required": []string{"title"},
		"properties": obj{
			"title":       str,
			"description": str,
			"form_id":     obj{"description": "Echoed in the response."},
			"fields":      obj{"type": "array", "minItems": 1, "items": field},
		},
	}
}

// typeKeys lists the keys each type adds to the common ones, * marking
// those it needs, types with the same keys together: "single_select,
// multi_select: options* list_style; text_input: ...": a type that adds
// none (boolean, date) is not listed.
func typeKeys() string {
	var parts []string
	var keysOf []string // parts' key lists, to join types that share one
	for i := range fieldTypes {
		ft := &fieldTypes[i]
		var keys []string
		for _, k := range ft.keys {
			if slices.Contains(requiredKeys[ft.typ], k) || k == "options" && slices.Contains(needsOptions, ft.typ) {
				k += "*"
			}
			keys = append(keys, k)
		}
		list := strings.Join(keys, " ")
		if list == "" { // a type that adds no key (boolean, date) is not listed
			continue
		}
		if j := slices.Index(keysOf, list); j >= 0 {
			name, rest, _ := strings.Cut(parts[j], ":")
			parts[j] = name + ", " + string(ft.typ) + ":" + rest
			continue
		}
		keysOf = append(keysOf, list)
		part := string(ft.typ) + ": " + list
		for j, base := range keysOf[:len(keysOf)-1] { // an earlier type's keys and more: say so
			if rest, ok := strings.CutPrefix(list, base+" "); ok && strings.Count(base, " ") >= 2 {
				name, _, _ := strings.Cut(parts[j], ":")
				part = string(ft.typ) + ": " + name + "'s + " + rest
				break
			}
		}
		parts = append(parts, part)
	}
	return "Keys each type adds (* needed): " + strings.Join(parts, "; ") + "."
}
