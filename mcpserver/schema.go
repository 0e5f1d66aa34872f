package mcpserver

type obj = map[string]any

// Input-schema pieces. Schemas stay portable and small: plain types, no
// null unions (one type list: collect's answers, an object or a list of
// tool outputs), no $ref, few descriptions (tools/list is paid for in every
// conversation, so it has a budget: tools_test.go). The handlers check
// everything else, unknown arguments included, and list every problem; the
// guidance lives in the server's instructions, resources and prompts, and
// in the plugins' skills. A form tool takes form, or template and slots
// instead: elicitation_render_form's input schema spells the form out
// (form.ToolSchema, compact: its keys, types and rows, each type's keys in
// one description), the other form tools say they take the same form, so
// that an agent reading tools/list alone can write one and tools/list stays
// in its budget (the full schema, 34 KB, is elicit://schema/form). (The
// pieces are literals where they are used: a package-level map is built at
// package initialisation, in every process of the binary.)

func inputSchema(props obj, required ...string) obj {
	for k, v := range props {
		// A free-text argument is a bare name: a model reads its value as
		// a string, and so do hosts (codex takes a key without a type as
		// one); the handler checks the type all the same.
		if p, ok := v.(obj); ok && len(p) == 1 && p["type"] == "string" {
			props[k] = obj{}
		}
	}
	s := obj{"type": "object"}
	if len(props) > 0 { // no arguments: any is refused by name
		s["properties"] = props
	}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// sameForm is the form property of every form tool but
// elicitation_render_form, which spells it out.
func sameForm() obj {
	return obj{"description": "Same as render_form."}
}

// formSchema is the input schema of a tool taking a form (or a template and
// its slots) plus extra properties; form is its schema (form.ToolSchema or
// sameForm).
func formSchema(form obj, extra obj, required ...string) obj {
	props := obj{"form": form, "template": obj{"type": "string"}, "slots": obj{"type": "object"}}
	for k, v := range extra {
		props[k] = v
	}
	return inputSchema(props, required...)
}

// strProp is a string property with a description.
func strProp(desc string) obj { return obj{"description": desc} }
