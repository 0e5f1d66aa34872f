package ask

import (
	"github.com/elicit/elicit/form"
	"github.com/elicit/elicit/form/markdown"
	"github.com/elicit/elicit/internal/jsonenc"
)

// AppendJSON appends the result's JSON, compact, to b: what encoding/json
// writes by reflection (the struct tags above, HTML escaping off), without
// building encoders for its types. In a CLI call, which is a process of its
// own, building them was most of `form render`'s work (docs/decisions.md,
// "Start-up"). It is not a MarshalJSON on purpose: a type that embeds
// *Result to add members (the MCP server's render result) would inherit it
// and lose them. TestAppendJSONMatchesReflection holds the two byte for
// byte, for every field of every type. A nil result is null.
func (r *Result) AppendJSON(b []byte) ([]byte, error) {
	if r == nil {
		return append(b, "null"...), nil
	}
	b = jsonenc.Bool(jsonenc.Key(append(b, '{'), "success", true), r.Success)
	b = jsonenc.Field(b, "title", r.Title, false)
	b = jsonenc.Field(b, "description", r.Description, false)
	b = jsonenc.Key(b, "batches", false)
	var err error
	b, err = appendList(b, r.Batches, func(b []byte, batch []Payload) ([]byte, error) {
		return appendList(b, batch, appendPayload)
	})
	if err != nil {
		return nil, err
	}
	b = jsonenc.Key(b, "ask_user_question", false)
	b, _ = appendList(b, r.AskUserQuestion, appendInput)
	if len(r.Followups) > 0 {
		b, _ = appendList(jsonenc.Key(b, "followups", false), r.Followups, appendFollowup)
	}
	b = jsonenc.Key(b, "unsupported", false)
	b, _ = appendList(b, r.Unsupported, appendUnsupported)
	if r.MarkdownFollowup != nil {
		b = appendMarkdownFollowup(jsonenc.Key(b, "markdown_followup", false), r.MarkdownFollowup)
	}
	if len(r.Problems) > 0 {
		b = jsonenc.Strings(jsonenc.Key(b, "problems", false), r.Problems)
	}
	return append(b, '}'), nil
}

// appendList appends l as a JSON array, each item by item; a nil l is null.
func appendList[T any](b []byte, l []T, item func([]byte, T) ([]byte, error)) ([]byte, error) {
	if l == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, v := range l {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = item(b, v); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

func appendPayload(b []byte, p Payload) ([]byte, error) {
	b = jsonenc.Field(append(b, '{'), "question_id", p.QuestionID, true)
	b = jsonenc.Field(b, "question", p.Question, false)
	b = jsonenc.Field(b, "type", p.Type, false)
	b = jsonenc.Strings(jsonenc.Key(b, "options", false), p.Options)
	if p.Default != nil {
		var err error
		if b, err = jsonenc.Value(jsonenc.Key(b, "default", false), p.Default); err != nil {
			return b, err
		}
	}
	if p.HelpText != "" {
		b = jsonenc.Field(b, "help_text", p.HelpText, false)
	}
	return append(b, '}'), nil
}

func appendInput(b []byte, in Input) ([]byte, error) {
	b, _ = appendList(jsonenc.Key(append(b, '{'), "questions", true), in.Questions, appendQuestion)
	if in.Metadata != nil {
		b = jsonenc.Field(append(jsonenc.Key(b, "metadata", false), '{'), "source", in.Metadata.Source, true)
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

func appendQuestion(b []byte, q Question) ([]byte, error) {
	b = jsonenc.Field(append(b, '{'), "question", q.Question, true)
	b = jsonenc.Field(b, "header", q.Header, false)
	b, _ = appendList(jsonenc.Key(b, "options", false), q.Options, func(b []byte, o Option) ([]byte, error) {
		b = jsonenc.Field(append(b, '{'), "label", o.Label, true)
		return append(jsonenc.Field(b, "description", o.Description, false), '}'), nil
	})
	b = jsonenc.Bool(jsonenc.Key(b, "multiSelect", false), q.MultiSelect)
	return append(b, '}'), nil
}

func appendFollowup(b []byte, f Followup) ([]byte, error) {
	b = jsonenc.Field(append(b, '{'), "question_id", f.QuestionID, true)
	b = jsonenc.Field(b, "after", f.After, false)
	b, _ = appendList(jsonenc.Key(b, "groups", false), f.Groups, func(b []byte, g FollowupGroup) ([]byte, error) {
		b = jsonenc.Field(append(b, '{'), "label", g.Label, true)
		b, _ = appendQuestion(jsonenc.Key(b, "question", false), g.Question)
		return append(b, '}'), nil
	})
	return append(b, '}'), nil
}

func appendUnsupported(b []byte, u form.Unsupported) ([]byte, error) {
	b = jsonenc.Field(append(b, '{'), "question_id", u.QuestionID, true)
	b = jsonenc.Field(b, "type", string(u.Type), false)
	b = jsonenc.Field(b, "reason", u.Reason, false)
	b = jsonenc.Field(b, "surface", u.Surface, false)
	if u.How != "" {
		b = jsonenc.Field(b, "how", u.How, false)
	}
	return append(b, '}'), nil
}

func appendMarkdownFollowup(b []byte, f *markdown.Followup) []byte {
	b = jsonenc.Strings(jsonenc.Key(append(b, '{'), "field_ids", true), f.FieldIDs)
	return append(jsonenc.Field(b, "markdown", f.Markdown, false), '}')
}
