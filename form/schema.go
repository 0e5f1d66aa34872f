package form

import (
	"encoding/json"
	"slices"
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
			"description": obj{"type": "string", "description": "An optional one-line description."},
			"fields":      fieldList,
			fieldsAlias:   fieldList,
		},
		"$defs": obj{"field": fieldSchema(), "progress_item": progressItemSchema()},
	}
}

// fieldList is the schema of "fields" and of its alias "questions".
var fieldList = obj{"type": "array", "minItems": 1, "items": obj{"$ref": "#/$defs/field"}}

func nonEmptyString(desc string) obj {
	return obj{"type": "string", "pattern": `\S`, "description": desc}
}

// fieldProperties describes every field key.
func fieldProperties() obj {
	option := obj{"type": "string", "pattern": `^\S([\s\S]*\S)?$`}
	types := make([]string, len(Types))
	for i, t := range Types {
		types[i] = string(t)
	}
	return obj{
		"id":             obj{"type": "string", "pattern": idPattern, "description": "The key the answer comes back under."},
		"text":           nonEmptyString("The question."),
		textAlias:        nonEmptyString("An alias of text (attune-forms)."),
		"type":           obj{"enum": types},
		"options":        obj{"type": "array", "items": option, "uniqueItems": true, "description": "The choices (suggestions for text_input)."},
		"required":       obj{"type": "boolean", "description": "Whether an answer is needed; default true."},
		"default":        obj{"type": []string{"string", "number", "array"}, "items": obj{"type": "string"}, "description": "A preselected answer; must pass the field's own answer validation."},
		"inferred_from":  nonEmptyString("Why the default was guessed from context; needs default."),
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
	}
}

func fieldSchema() obj {
	var rules []any
	for _, t := range Types {
		allowed := append(append(slices.Clone(commonKeys), textAlias), typeKeys[t]...)
		then := obj{"propertyNames": obj{"enum": allowed}}
		switch {
		case slices.Contains(needsOptions, t):
			then["required"] = []string{"options"}
			then["properties"] = obj{"options": obj{"minItems": 1}}
		case t == Progress:
			then["required"] = []string{"progress_items"}
		}
		rules = append(rules, obj{
			"if":   obj{"required": []string{"type"}, "properties": obj{"type": obj{"const": string(t)}}},
			"then": then,
		})
	}
	return obj{
		"type":                 "object",
		"required":             []string{"id", "type"},
		"oneOf":                []any{obj{"required": []string{"text"}}, obj{"required": []string{textAlias}}},
		"additionalProperties": false,
		"properties":           fieldProperties(),
		"dependentRequired":    obj{"inferred_from": []string{"default"}},
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
