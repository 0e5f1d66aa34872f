package mcpserver

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type obj = map[string]any

// Input-schema pieces. Schemas stay portable: plain types, no type unions,
// no $ref; the handlers check everything else and list every problem.
var (
	formProp = obj{"type": "object", "description": "A form definition: {title, description?, fields: [{id, text, type, ...}]} (JSON Schema: `elicit form schema`). Pass this or template."}
	tmplProp = obj{"type": "string", "description": "A template name from elicitation_list_templates, instead of form."}
	slotProp = obj{"type": "object", "additionalProperties": obj{"type": "string"}, "description": "The template's slot values, e.g. {\"project\": \"elicit\"}."}
)

func inputSchema(props obj, required ...string) obj {
	s := obj{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func formSchema(extra obj, required ...string) obj {
	props := obj{"form": formProp, "template": tmplProp, "slots": slotProp}
	for k, v := range extra {
		props[k] = v
	}
	return inputSchema(props, required...)
}

func init() { toolGroups = append(toolGroups, (*handlers).formAndMethodTools) }

func (h *handlers) formAndMethodTools() []toolDef {
	return []toolDef{
		{&mcp.Tool{Name: "elicitation_render_form", Title: "Render a form for AskUserQuestion",
			Description: "Validate a form and get AskUserQuestion payloads: batches, one ready tool input per batch (ask_user_question), two-tier follow-ups, and the fields AskUserQuestion cannot ask (unsupported) with the surface that can. Batch 2-4 fields only when they are independent dimensions of one decision; infer first (default + inferred_from) and still show the guess. Also returns the surface select_form_surface would choose. Invalid forms come back as {success:false, problems} listing every problem.",
			InputSchema: formSchema(nil)}, simple(formArgs, h.renderForm)},
		{&mcp.Tool{Name: "elicitation_collect_response", Title: "Validate a form's answers",
			Description: "Validate answers against the form: answers keyed by field id, the widget's postback, or AskUserQuestion's own output (answers keyed by question text). Returns {success:true, responses, response_id, template_id} or {success:false, problems}; re-ask only the fields named in problems, never proceed on unvalidated answers.",
			InputSchema: formSchema(obj{
				"answers":     obj{"type": "object", "description": "The answers: {field_id: value}, or the AskUserQuestion tool output {questions, answers}."},
				"template_id": obj{"type": "string", "description": "Join key for answers to forms cast from one template (default: the template name)."},
			}, "answers")}, simple(withFormArgs("answers", "template_id"), h.collectResponse)},
		{&mcp.Tool{Name: "elicitation_ask", Title: "Ask a form natively",
			Description: "Ask the form as a native MCP elicitation dialog (number, date, text and multi-select included) and get validated answers in one call: {success:true, action:\"accept\", responses, response_id}. When the client cannot elicit: {success:false, action:\"unsupported\", ask_user_question} (a ready fallback). A decline the user did not make means the surface is unavailable: fall back to AskUserQuestion.",
			InputSchema: formSchema(obj{"message": obj{"type": "string", "description": "The dialog's message (default: the form's title and description)."}})}, h.ask},
		{&mcp.Tool{Name: "elicitation_select_surface", Title: "Choose the surface for a form",
			Description: "Choose where to ask a form, widget or ask (AskUserQuestion), by the routing rules: a client without widgets gets ask; number/date/textarea get the widget; keyboard mode gets ask; a trivial form gets ask; otherwise the widget. Returns {surface, reason}.",
			InputSchema: formSchema(obj{
				"widget_capable": obj{"type": "boolean", "description": "Whether the client can render widgets (default true)."},
				"keyboard_mode":  obj{"type": "boolean", "description": "Override the user's keyboard mode (default: elicit.config.json and ELICIT_KEYBOARD_MODE)."},
			})}, simple(withFormArgs("widget_capable", "keyboard_mode"), h.selectSurface)},
		{&mcp.Tool{Name: "elicitation_list_templates", Title: "List form templates",
			Description: "List the form templates with their slots. Check here before hand-building a form: a template makes answers comparable across sessions (joinable on template_id).",
			InputSchema: inputSchema(obj{})}, simple(nil, h.listTemplates)},
		{&mcp.Tool{Name: "elicitation_form_summary", Title: "Summarize an answered form",
			Description: "Collapse an answered form into a few lines of markdown (title and one bullet per answer) to use in your narration instead of leaving the form in the transcript. response is elicitation_collect_response's result.",
			InputSchema: formSchema(obj{"response": obj{"type": "object", "description": "elicitation_collect_response's result, or answers."}}, "response")},
			simple(withFormArgs("response"), h.formSummary)},
		{&mcp.Tool{Name: "elicitation_list_methods", Title: "List reasoning methods",
			Description: "List the structured-reasoning methods of the registry, optionally for one workflow phase (e.g. forge:3) or tier (1 or 2).",
			InputSchema: inputSchema(obj{
				"phase": obj{"type": "string", "description": "A workflow phase, command:number (plan:0, forge:3)."},
				"tier":  obj{"type": "integer", "minimum": 1, "maximum": 2},
			})}, simple([]string{"phase", "tier"}, h.listMethods)},
		{&mcp.Tool{Name: "elicitation_select_methods", Title: "Select reasoning methods for a section",
			Description: "Select the reasoning methods that fit a plan section, the same every time: phase filter, agent filter, tier filter (auto: tier 1; manual: all), topic scoring overlap/len(topics) (+0.3 when the method's name is in the title), top N. Same output as `elicit methods select --json`: {status: OK|NO_MATCH, reason, keywords, methods: [{num, method_name, category, tier, score, codex_role}], warnings}.",
			InputSchema: inputSchema(obj{
				"phase":       obj{"type": "string", "description": "The workflow phase, command:number (plan:0, forge:3)."},
				"agent":       obj{"type": "string", "description": "Keep methods for this agent only."},
				"manual":      obj{"type": "boolean", "description": "Offer tier 2 methods too (default: tier 1 only)."},
				"title":       obj{"type": "string", "description": "The section title (a method named in it gets +0.3)."},
				"text":        obj{"type": "string", "description": "The section text; keywords are extracted from title and text."},
				"keywords":    obj{"type": "array", "items": obj{"type": "string"}, "description": "The section keywords, instead of extracting them."},
				"top":         obj{"type": "integer", "minimum": 1, "description": "How many methods (default 5)."},
				"per_section": obj{"type": "boolean", "description": "Cap at 2 methods, as forge enrichment does."},
			}, "phase")}, simple(selectArgs, h.selectMethods)},
		{&mcp.Tool{Name: "elicitation_inject_method", Title: "Get a method's prompt block",
			Description: "Get the prompt-modifier block for a method (by name or number): '### Structured Reasoning: NAME', the instruction and the numbered steps of its output pattern, to append to the section's prompt.",
			InputSchema: inputSchema(obj{"method": obj{"type": "string", "description": "A method's name or number."}}, "method")},
			simple([]string{"method"}, h.injectMethod)},
	}
}
